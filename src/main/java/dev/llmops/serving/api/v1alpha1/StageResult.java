package dev.llmops.serving.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

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

    @Override
    public boolean equals(Object other) {
        return other instanceof StageResult that
                && Objects.equals(name, that.name)
                && Objects.equals(concurrency, that.concurrency)
                && Objects.equals(achievedConcurrency, that.achievedConcurrency)
                && Objects.equals(completed, that.completed)
                && Objects.equals(failed, that.failed)
                && Objects.equals(durationSeconds, that.durationSeconds)
                && Objects.equals(outputTokensPerSecond, that.outputTokensPerSecond)
                && Objects.equals(totalTokensPerSecond, that.totalTokensPerSecond)
                && Objects.equals(requestsPerSecond, that.requestsPerSecond)
                && Objects.equals(ttftMillis, that.ttftMillis)
                && Objects.equals(tpotMillis, that.tpotMillis)
                && Objects.equals(itlMillis, that.itlMillis)
                && Objects.equals(e2eMillis, that.e2eMillis);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                name,
                concurrency,
                achievedConcurrency,
                completed,
                failed,
                durationSeconds,
                outputTokensPerSecond,
                totalTokensPerSecond,
                requestsPerSecond,
                ttftMillis,
                tpotMillis,
                itlMillis,
                e2eMillis);
    }
}
