package dev.llmops.serving.runner;

import java.time.Duration;

/**
 * The answer of a plain GET endpoint such as {@code /health} or {@code /v1/models}.
 *
 * @param status HTTP status, 0 when no response arrived
 * @param body the body as text, cut at {@value #MAX_BODY_CHARS} characters; empty when no response arrived
 * @param failureClass null when a response arrived (whatever its status), else {@link FailureClass#CONNECT},
 *     {@link FailureClass#TIMEOUT} or {@link FailureClass#DISCONNECT}
 * @param errorMessage why no response arrived, else null
 */
public record EndpointResponse(int status, String body, Duration latency, String failureClass, String errorMessage) {

    public static final int MAX_BODY_CHARS = 65536;

    public boolean isOk() {
        return failureClass == null && status >= 200 && status < 300;
    }
}
