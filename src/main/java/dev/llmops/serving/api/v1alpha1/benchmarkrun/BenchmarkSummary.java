package dev.llmops.serving.api.v1alpha1.benchmarkrun;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;

/** The headline figures of a run, as shown by kubectl get. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
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
}
