package dev.llmops.serving.simulator;

/**
 * The simulator's ground truth about one generation request: when it arrived and started, when each chunk was meant
 * to go out and when it actually did ({@link System#nanoTime()}, the same clock an in-process client uses).
 *
 * @param id the completion id sent to the client ({@code chatcmpl-…} or {@code cmpl-…})
 * @param status the HTTP status answered; 0 when the request hung without an answer
 * @param receivedNanos when the request arrived: the moment the HTTP server's dispatcher handed its connection to a
 *     handler thread (before the request line, headers and body were read, and before any wait for a free handler)
 * @param startedNanos when generation began, after any wait for a free batch slot
 * @param intendedChunkNanos when each sent chunk was scheduled: start + TTFT + i × tokens-per-chunk × token delay
 * @param sentChunkNanos when each chunk's write began (a client cannot see it earlier)
 * @param chunkTokens tokens in each chunk
 * @param promptTokens the prompt's tokens as the simulator counts them: one per word
 * @param cachedTokens the prompt's tokens the prefix cache served, so not prefilled
 * @param completionTokens tokens sent, reasoning included
 * @param bodySha256 hex SHA-256 of the request body as received, so a client's requests can be compared across runs
 */
public record SimulatedRequest(
        String id,
        Outcome outcome,
        int status,
        boolean stream,
        int promptTokens,
        int cachedTokens,
        int maxTokens,
        boolean ignoreEos,
        long receivedNanos,
        long startedNanos,
        long[] intendedChunkNanos,
        long[] sentChunkNanos,
        int[] chunkTokens,
        int completionTokens,
        int reasoningTokens,
        String finishReason,
        String bodySha256) {

    /** How the request ended. */
    public enum Outcome {
        COMPLETED,
        /** Answered with an HTTP error status (fault, error rate, loading, bad request, API key). */
        REJECTED,
        /** Ended mid-stream by the DISCONNECT fault. */
        DISCONNECTED,
        /** The client went away, or the simulator closed, before the answer was complete. */
        ABORTED,
        /** Never answered (HANG fault) until the simulator closed. */
        HUNG
    }

    /** This record with the request body's digest. */
    SimulatedRequest withBodySha256(String digest) {
        return new SimulatedRequest(
                id,
                outcome,
                status,
                stream,
                promptTokens,
                cachedTokens,
                maxTokens,
                ignoreEos,
                receivedNanos,
                startedNanos,
                intendedChunkNanos,
                sentChunkNanos,
                chunkTokens,
                completionTokens,
                reasoningTokens,
                finishReason,
                digest);
    }

    /** Index of the first chunk carrying content rather than reasoning, or -1. */
    public int firstContentChunk() {
        int tokensBefore = 0;
        for (int i = 0; i < chunkTokens.length; i++) {
            tokensBefore += chunkTokens[i];
            if (tokensBefore > reasoningTokens) {
                return i;
            }
        }
        return -1;
    }
}
