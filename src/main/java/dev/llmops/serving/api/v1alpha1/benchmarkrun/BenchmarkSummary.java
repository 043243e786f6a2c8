package dev.llmops.serving.api.v1alpha1.benchmarkrun;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** The headline figures of a run, as shown by kubectl get. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BenchmarkSummary {

    @JsonPropertyDescription("Mean output tokens per second of the single-request phase.")
    public Double singleStreamTokensPerSecond;

    @JsonPropertyDescription("Highest output tokens per second of the sweep.")
    public Double peakTokensPerSecond;

    @JsonPropertyDescription("Concurrency level where the peak was reached.")
    public Integer peakConcurrency;

    @JsonPropertyDescription(
            "Saturation knee: the level after which throughput stops rising while latency keeps growing.")
    public Integer kneeConcurrency;

    @JsonPropertyDescription("Failed requests over all stages.")
    public Integer failedRequests;

    @Override
    public boolean equals(Object other) {
        return other instanceof BenchmarkSummary that
                && Objects.equals(singleStreamTokensPerSecond, that.singleStreamTokensPerSecond)
                && Objects.equals(peakTokensPerSecond, that.peakTokensPerSecond)
                && Objects.equals(peakConcurrency, that.peakConcurrency)
                && Objects.equals(kneeConcurrency, that.kneeConcurrency)
                && Objects.equals(failedRequests, that.failedRequests);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                singleStreamTokensPerSecond, peakTokensPerSecond, peakConcurrency, kneeConcurrency, failedRequests);
    }
}
