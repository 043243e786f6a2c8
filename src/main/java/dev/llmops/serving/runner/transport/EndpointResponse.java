package dev.llmops.serving.runner.transport;

import java.time.Duration;

/**
 * The answer of a plain GET endpoint such as {@code /health} or {@code /v1/models}.
 *
 * @param status HTTP status, 0 when no response arrived
 * @param body the body as text; empty when no complete response arrived
 * @param failureClass null when a response arrived (whatever its status), else {@link FailureClass#CONNECT},
 *     {@link FailureClass#TIMEOUT}, {@link FailureClass#DISCONNECT}, or {@link FailureClass#TOO_LARGE} when the body
 *     went past the GET's cap ({@value #MAX_BODY_BYTES} bytes unless the caller chose another)
 * @param errorMessage why no complete response arrived, else null
 */
public record EndpointResponse(int status, String body, Duration latency, String failureClass, String errorMessage) {

    /**
     * The most a GET body may hold. SGLang's largest, {@code /get_server_info}, is tens of KiB and {@code /v1/models}
     * lists a few models; a server that sends more is broken or hostile, and reading on would exhaust memory.
     */
    public static final int MAX_BODY_BYTES = 1024 * 1024;

    public boolean isOk() {
        return failureClass == null && status >= 200 && status < 300;
    }
}
