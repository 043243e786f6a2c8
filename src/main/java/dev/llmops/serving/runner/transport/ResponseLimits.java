package dev.llmops.serving.runner.transport;

/**
 * How much of one answer the client may hold: past a cap the request fails as {@link FailureClass#TOO_LARGE}, so an
 * untrusted server never costs a request more. The runner's caps fit the largest answer a benchmark asks for; a caller
 * that needs a few tokens (the operator's readiness probe) passes much smaller ones.
 *
 * @param headerBytes the status line and headers together
 * @param bodyBytes a whole non-streamed completion
 * @param lineBytes one line of an event stream
 * @param eventBytes the data of one server-sent event, all its {@code data:} lines together
 */
public record ResponseLimits(int headerBytes, int bodyBytes, int lineBytes, int eventBytes) {

    /** No cap may exceed 1 GiB, so a cap plus a few bytes, or a buffer doubled, still fits an int. */
    static final int MAX_CAP_BYTES = 1 << 30;

    /**
     * The runner's. A real server sends headers well under 1 KiB and a streamed chunk, logprobs included, of a few
     * KiB; a non-streamed completion of 4096 tokens with logprobs and 20 top logprobs each takes about 7 MiB.
     */
    public static final ResponseLimits RUNNER =
            new ResponseLimits(64 * 1024, 16 * 1024 * 1024, 1024 * 1024, 1024 * 1024);

    public ResponseLimits {
        requireCap("headerBytes", headerBytes);
        requireCap("bodyBytes", bodyBytes);
        requireCap("lineBytes", lineBytes);
        requireCap("eventBytes", eventBytes);
    }

    private static void requireCap(String name, int bytes) {
        if (bytes < 1 || bytes > MAX_CAP_BYTES) {
            throw new IllegalArgumentException(name + " must be between 1 and " + MAX_CAP_BYTES + ", was " + bytes);
        }
    }
}
