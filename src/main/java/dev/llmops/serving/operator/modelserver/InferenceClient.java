package dev.llmops.serving.operator.modelserver;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** Talks to one SGLang server without blocking the caller: a real chat completion, and the cheap /health check. */
public interface InferenceClient {

    /** What a chat completion proved: tokens came back, or why not. */
    record Generation(boolean succeeded, int outputTokens, Duration latency, String error) {}

    /**
     * A streamed chat completion with the given prompt, sending {@code apiKey} as a bearer token when not null;
     * succeeded only when at least one token came back.
     */
    CompletableFuture<Generation> generate(
            URI baseUrl, String model, String prompt, int maxTokens, Duration timeout, String apiKey);

    /** Whether GET /health answered 200. */
    CompletableFuture<Boolean> healthy(URI baseUrl, Duration timeout);
}
