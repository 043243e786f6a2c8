package dev.llmops.serving.api.contract;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The successful requests of one stage, column by column: entry k of every array describes the same request. Requests
 * are identified by their position in the stage's request sequence, which is the same in two runs of one workload.
 *
 * @param name the stage's name (single, c8, r2.5, ...)
 * @param index each request's position in the stage's request sequence
 * @param outputTokens output tokens of each request
 * @param ttftMillis time to first token
 * @param tpotMillis time per output token after the first; NaN is never written, a one-token request has 0
 * @param e2eMillis send to last byte
 */
public record StageSamples(
        @JsonProperty("n") String name,
        @JsonProperty("i") int[] index,
        @JsonProperty("tok") int[] outputTokens,
        @JsonProperty("ttft") double[] ttftMillis,
        @JsonProperty("tpot") double[] tpotMillis,
        @JsonProperty("e2e") double[] e2eMillis) {

    /** Bound per stage: enough for a 95 % interval, small enough for a ConfigMap with many stages. */
    public static final int MAX_REQUESTS = 4096;

    public int size() {
        return index.length;
    }

    void check() {
        if (name == null
                || index == null
                || outputTokens == null
                || ttftMillis == null
                || tpotMillis == null
                || e2eMillis == null) {
            throw new IllegalArgumentException("stage samples miss a column");
        }
        int n = index.length;
        if (n > MAX_REQUESTS) {
            throw new IllegalArgumentException("stage " + name + " has more than " + MAX_REQUESTS + " samples");
        }
        if (outputTokens.length != n || ttftMillis.length != n || tpotMillis.length != n || e2eMillis.length != n) {
            throw new IllegalArgumentException("stage " + name + " has columns of different lengths");
        }
    }
}
