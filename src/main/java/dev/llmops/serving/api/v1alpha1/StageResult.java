package dev.llmops.serving.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** Aggregate figures of one measured stage (the single-request phase or one concurrency level). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class StageResult {

    @JsonPropertyDescription("Stage name: single, or c<N> for concurrency level N.")
    public String name;

    @JsonPropertyDescription("Requested concurrency (1 for the single-request phase).")
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
}
