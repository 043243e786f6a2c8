package dev.llmops.serving.runner.transport;

import dev.llmops.serving.api.contract.QualityOutput;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What one request produced and when, with every timestamp taken from {@link System#nanoTime()} when the bytes arrived.
 *
 * @param failureClass null on success, else one of {@link FailureClass}
 * @param errorMessage what went wrong, for a person; null on success
 * @param httpStatus 0 when no response arrived
 * @param responseId the completion id the server returned, if any
 * @param sendNanos when the request's write to its connection began (after any wait for a connection); when it never
 *     was written, when the request was handed to the client
 * @param firstTokenNanos first chunk carrying a non-empty token on any channel (content or reasoning), or
 *     {@link #NO_TIME}
 * @param firstContentNanos first chunk carrying non-empty content (not reasoning), or {@link #NO_TIME}
 * @param endNanos the last chunk ({@code [DONE]}) or the moment the request failed
 * @param promptTokens {@code usage.prompt_tokens}, 0 when not reported
 * @param cachedPromptTokens {@code usage.prompt_tokens_details.cached_tokens}: prompt tokens the server's prefix cache
 *     served, at most {@code promptTokens}; {@link #NOT_REPORTED} when the server reported no such count (or none with
 *     its prompt tokens)
 * @param outputTokens {@code usage.completion_tokens}; counted chunks when the server reported no usage
 * @param reasoningTokens {@code usage.completion_tokens_details.reasoning_tokens}, 0 when not reported
 * @param tokenChunkNanos arrival time of each chunk that carried tokens, in order
 * @param tokenChunkTokens how many tokens each of those chunks carried (see {@link #tokenCounting})
 * @param text generated content when the request asked to capture it, else null
 * @param reasoningText generated reasoning when the request asked to capture it, else null
 * @param tokenPieces when the request asked for logprobs: the output's tokens as text, from
 *     {@code choices[0].logprobs.content[].token} when the server sent them, else one piece per content chunk; at most
 *     {@value #MAX_TOKEN_PIECES} pieces of at most {@value QualityOutput#MAX_PIECE_CHARS} characters. Else null
 */
public record RequestResult(
        String failureClass,
        String errorMessage,
        int httpStatus,
        String responseId,
        long sendNanos,
        long firstTokenNanos,
        long firstContentNanos,
        long endNanos,
        int promptTokens,
        int cachedPromptTokens,
        int outputTokens,
        int reasoningTokens,
        TokenCounting tokenCounting,
        String finishReason,
        long[] tokenChunkNanos,
        int[] tokenChunkTokens,
        String text,
        String reasoningText,
        List<String> tokenPieces) {

    /** Marks a timestamp that never happened. */
    public static final long NO_TIME = Long.MIN_VALUE;

    /** Marks a count the server did not report. */
    public static final int NOT_REPORTED = -1;

    public static final int MAX_CAPTURED_CHARS = 65536;
    public static final int MAX_TOKEN_PIECES = QualityOutput.MAX_TOKENS;

    /** Receives the inter-token latency of one chunk: the gap to the previous chunk, divided over its tokens. */
    @FunctionalInterface
    public interface IntervalConsumer {
        void accept(long nanosPerToken, int tokens);
    }

    public boolean succeeded() {
        return failureClass == null;
    }

    public Duration latency() {
        return Duration.ofNanos(endNanos - sendNanos);
    }

    /** Time to the first token on any channel; empty when no token arrived. */
    public Optional<Duration> ttft() {
        return firstTokenNanos == NO_TIME
                ? Optional.empty()
                : Optional.of(Duration.ofNanos(firstTokenNanos - sendNanos));
    }

    /** Time to the first content token, after any reasoning; empty when no content arrived. */
    public Optional<Duration> timeToFirstContent() {
        return firstContentNanos == NO_TIME
                ? Optional.empty()
                : Optional.of(Duration.ofNanos(firstContentNanos - sendNanos));
    }

    /** (E2E − TTFT) / (output tokens − 1); empty unless the request succeeded with more than one output token. */
    public OptionalDouble tpotMillis() {
        if (!succeeded() || outputTokens <= 1 || firstTokenNanos == NO_TIME) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of((endNanos - firstTokenNanos) / 1e6 / (outputTokens - 1));
    }

    /**
     * Every inter-token latency of this request: for each token-bearing chunk after the first, the gap to the previous
     * one divided by the k tokens it carried, reported once with a count of k.
     */
    public void forEachInterTokenLatency(IntervalConsumer consumer) {
        for (int i = 1; i < tokenChunkNanos.length; i++) {
            int tokens = tokenChunkTokens[i];
            if (tokens > 0) {
                consumer.accept((tokenChunkNanos[i] - tokenChunkNanos[i - 1]) / tokens, tokens);
            }
        }
    }
}
