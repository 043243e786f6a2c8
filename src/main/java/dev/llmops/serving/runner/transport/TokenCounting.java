package dev.llmops.serving.runner.transport;

/** Where a result's token counts came from, most trustworthy first. */
public enum TokenCounting {
    /** The server reported cumulative usage on every chunk, so each chunk's token count is exact. */
    SERVER_PER_CHUNK,
    /**
     * The server reported only the total: each chunk with text gets one token and the surplus is spread over the chunks
     * in proportion to their characters (cumulative rounding), so the chunk counts add up to the server's total. Exact
     * when every chunk carries one token; an estimate of the per-chunk split otherwise.
     */
    SERVER_TOTAL,
    /** The server reported no usage: every token-bearing chunk counts as one token. A fallback that needs a warning. */
    COUNTED
}
