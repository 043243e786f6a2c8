package dev.llmops.serving.api.v1alpha1.benchmarkrun;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;
import lombok.EqualsAndHashCode;

/** Aggregate figures of one measured stage: the single-request phase, a concurrency level, a rate or a probe. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class StageResult {

    @JsonPropertyDescription("Stage name: single, c<N> for concurrency level N, r<R> for R requests/s, "
            + "probe<K>-c<N> or probe<K>-r<R> for the K-th probe of a capacity search.")
    public String name;

    @JsonPropertyDescription("Requested concurrency (1 for the single-request phase; for a rate stage the cap on "
            + "requests in flight, absent without one).")
    public Integer concurrency;

    @JsonPropertyDescription("Concurrency actually achieved (sum of request latencies / window, Little's law).")
    public Double achievedConcurrency;

    @JsonPropertyDescription("Requests that completed.")
    public Integer completed;

    @JsonPropertyDescription("Requests that failed, of any class.")
    public Integer failed;

    @JsonPropertyDescription("Measurement window in seconds: first send to last completion.")
    public Double durationSeconds;

    @JsonPropertyDescription("Output tokens per second over the window.")
    public Double outputTokensPerSecond;

    @JsonPropertyDescription("Input plus output tokens per second over the window.")
    public Double totalTokensPerSecond;

    @JsonPropertyDescription("Completed requests per second.")
    public Double requestsPerSecond;

    @JsonPropertyDescription("Time to first token (any channel), milliseconds.")
    public LatencyStats ttftMillis;

    @JsonPropertyDescription("Time per output token after the first, milliseconds.")
    public LatencyStats tpotMillis;

    @JsonPropertyDescription("Inter-token latency per token, milliseconds.")
    public LatencyStats itlMillis;

    @JsonPropertyDescription("End-to-end request latency, milliseconds.")
    public LatencyStats e2eMillis;

    @JsonPropertyDescription("Requested request rate of an open-loop stage, requests/s.")
    public Double requestRate;

    @JsonPropertyDescription("Request rate the client achieved: sends over the send window, requests/s.")
    public Double achievedRequestRate;

    @JsonPropertyDescription("How late requests left against their schedule, milliseconds (p50, p99, max).")
    public LatencyStats scheduleLagMillis;

    @JsonPropertyDescription("Share of requests that succeeded and met every spec.slo limit.")
    public Double sloAttainment;

    @JsonPropertyDescription("Good requests per second: those that met every spec.slo limit.")
    public Double goodputRequestsPerSecond;

    @JsonPropertyDescription("Output tokens per second of the good requests.")
    public Double goodputOutputTokensPerSecond;

    @JsonPropertyDescription("Speculative acceptance length over the stage: tokens generated per verify step, from the "
            + "server's counters; absent when the server exports none.")
    public Double specAcceptLength;

    @JsonPropertyDescription("The server's prefix-cache hit rate over the stage, 0 to 1: cached prompt tokens over all "
            + "prompt tokens, from its counters (or its cache_hit_rate gauge); absent when the server exports none.")
    public Double cacheHitRate;

    @JsonPropertyDescription("The share of the stage's prompt tokens the server served from its prefix cache, 0 to 1, "
            + "as its usage reported them per request (usage.prompt_tokens_details.cached_tokens, SGLang's with "
            + "--enable-cache-report); absent when it reported none.")
    public Double cachedPromptShare;

    @JsonPropertyDescription("Multi-turn sessions (spec.dataset.type Sessions): each turn's time to first token and "
            + "cached prompt share, from turn 1; with a working prefix cache later turns stay as fast as the first.")
    public List<TurnResult> turns;
}
