package dev.llmops.serving.api.contract;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * The runner's results in at most {@value #MAX_BYTES} bytes of JSON: what a benchmark pod leaves as its termination
 * message and the operator copies into the BenchmarkRun status. Only {@code v}, the stage names, levels, counts and
 * goodput figures and the capacity are always present; the writer drops the other fields, most detailed first, when
 * space runs short, and says so in {@code truncated}. Version 2 added the open-loop, goodput and capacity fields.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CompactSummary(
        @JsonProperty("v") int version,
        @JsonProperty("model") String model,
        @JsonProperty("stages") List<Stage> stages,
        @JsonProperty("single") List<SinglePrompt> singleRequests,
        @JsonProperty("sum") Headline headline,
        @JsonProperty("fails") Map<String, Integer> failuresByClass,
        @JsonProperty("warn") List<String> warnings,
        @JsonProperty("trunc") Boolean truncated,
        @JsonProperty("cap") Capacity capacity,
        @JsonProperty("wl") Workload workload) {

    public static final int FORMAT_VERSION = 2;
    public static final int MAX_BYTES = 4096;

    /**
     * One measured stage. Latency arrays are milliseconds in the order mean, p50, p90, p99, max.
     *
     * @param name single, c&lt;N&gt; for concurrency level N, r&lt;R&gt; for an open-loop rate, or
     *     probe&lt;K&gt;-c&lt;N&gt; / probe&lt;K&gt;-r&lt;R&gt; for a capacity probe
     * @param requestRate the requested rate of an open-loop stage
     * @param achievedRequestRate the rate the client actually sent at
     * @param scheduleLagMillis how late requests were sent: p50, p99, max
     * @param sloAttainment share of requests that met the SLO
     * @param goodputRequestsPerSecond good requests per second
     * @param goodputTokensPerSecond output tokens per second of good requests
     * @param acceptLength the server's speculative acceptance length over the stage, the first field dropped
     * @param cacheHitRate the server's prefix-cache hit rate over the stage, dropped with the acceptance length
     * @param cachedPromptShare the share of the stage's prompt tokens the server's usage reported cached, dropped with
     *     the acceptance length
     * @param turns each session turn's figures, in turn order, dropped with the acceptance length
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Stage(
            @JsonProperty("n") String name,
            @JsonProperty("c") int concurrency,
            @JsonProperty("ok") int completed,
            @JsonProperty("fail") int failed,
            @JsonProperty("dur") Double durationSeconds,
            @JsonProperty("otps") Double outputTokensPerSecond,
            @JsonProperty("ttps") Double totalTokensPerSecond,
            @JsonProperty("rps") Double requestsPerSecond,
            @JsonProperty("ac") Double achievedConcurrency,
            @JsonProperty("ttft") double[] ttftMillis,
            @JsonProperty("tpot") double[] tpotMillis,
            @JsonProperty("itl") double[] itlMillis,
            @JsonProperty("e2e") double[] e2eMillis,
            @JsonProperty("r") Double requestRate,
            @JsonProperty("ar") Double achievedRequestRate,
            @JsonProperty("lag") double[] scheduleLagMillis,
            @JsonProperty("att") Double sloAttainment,
            @JsonProperty("gps") Double goodputRequestsPerSecond,
            @JsonProperty("gtps") Double goodputTokensPerSecond,
            @JsonProperty("acc") Double acceptLength,
            @JsonProperty("chr") Double cacheHitRate,
            @JsonProperty("cps") Double cachedPromptShare,
            @JsonProperty("trn") List<Turn> turns) {}

    /**
     * One turn of a stage's sessions.
     *
     * @param ttftMillis TTFT p50 and p99 of the turn's requests, absent when none completed
     * @param cachedPromptShare the share of the turn's prompt tokens the server's usage reported cached
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Turn(
            @JsonProperty("t") int turn,
            @JsonProperty("ok") int completed,
            @JsonProperty("ttft") double[] ttftMillis,
            @JsonProperty("cps") Double cachedPromptShare) {}

    /**
     * What the run sent, dropped with the acceptance length.
     *
     * @param digest the workload digest (hex): two runs with one digest sent the same requests
     * @param trace the replayed window's shape, with a trace dataset
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Workload(
            @JsonProperty("d") String digest,
            @JsonProperty("tr") TraceShape trace) {}

    /**
     * A replayed trace window's shape.
     *
     * @param spanSeconds from its first request to its last, at 1x
     * @param rate its mean arrival rate at 1x, requests per second
     * @param inputTokens input lengths p50, p90, max
     * @param outputTokens output lengths p50, p90, max
     * @param repeatedBlockShare the share of its prompt blocks whose hash id came earlier in the window
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record TraceShape(
            @JsonProperty("n") int requests,
            @JsonProperty("span") double spanSeconds,
            @JsonProperty("r") double rate,
            @JsonProperty("in") int[] inputTokens,
            @JsonProperty("out") int[] outputTokens,
            @JsonProperty("rbs") Double repeatedBlockShare) {}

    /**
     * The capacity search's result, never dropped: the highest load that met the SLO and the figures there.
     *
     * @param mode concurrency or rate
     * @param concurrency the capacity in streams (mode concurrency)
     * @param requestRate the capacity in requests/s (mode rate)
     * @param outcome found, budget-exhausted or never-met
     * @param reason how the search was bounded, at most 200 characters
     * @param probes how many probes the search made
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Capacity(
            @JsonProperty("m") String mode,
            @JsonProperty("c") Integer concurrency,
            @JsonProperty("r") Double requestRate,
            @JsonProperty("out") String outcome,
            @JsonProperty("why") String reason,
            @JsonProperty("otps") Double outputTokensPerSecond,
            @JsonProperty("rps") Double requestsPerSecond,
            @JsonProperty("att") Double sloAttainment,
            @JsonProperty("gps") Double goodputRequestsPerSecond,
            @JsonProperty("gtps") Double goodputTokensPerSecond,
            @JsonProperty("ttft99") Double p99TtftMillis,
            @JsonProperty("tpot99") Double p99TpotMillis,
            @JsonProperty("itl99") Double p99ItlMillis,
            @JsonProperty("e2e99") Double p99E2eMillis,
            @JsonProperty("np") int probes) {}

    /** One prompt of the single-request phase; the prompt text is shortened. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record SinglePrompt(
            @JsonProperty("p") String prompt,
            @JsonProperty("out") int outputTokens,
            @JsonProperty("tps") double tokensPerSecond,
            @JsonProperty("ttft") double ttftMillis,
            @JsonProperty("e2e") double e2eMillis) {}

    /** The headline figures: single-stream and peak output tokens/s, where the peak and the saturation knee were. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Headline(
            @JsonProperty("sstps") Double singleStreamTokensPerSecond,
            @JsonProperty("peak") Double peakTokensPerSecond,
            @JsonProperty("peakc") Integer peakConcurrency,
            @JsonProperty("peakby") PeakRule peakRule,
            @JsonProperty("knee") Integer kneeConcurrency,
            @JsonProperty("fail") int failedRequests,
            @JsonProperty("shards") Integer shards,
            @JsonProperty("slag") Double worstShardClientLagMillis) {}
}
