package dev.llmops.serving.api.v1alpha1.benchmarkrun;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.llmops.serving.api.contract.PeakRule;
import lombok.EqualsAndHashCode;

/** The headline figures of a run, as shown by kubectl get. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class BenchmarkSummary {

    @JsonPropertyDescription("Mean output tokens per second of the single-request phase.")
    public Double singleStreamTokensPerSecond;

    @JsonPropertyDescription("Output tokens per second at the peak stage, the stage peakRule chose.")
    public Double peakTokensPerSecond;

    @JsonPropertyDescription("Concurrency level of the peak stage.")
    public Integer peakConcurrency;

    @JsonPropertyDescription(
            "Which rule chose the peak stage: WithinSlo (the highest tokens/s among the stages that met "
                    + "the SLO), Knee (the saturation knee: no SLO met or given) or HighestThroughput (neither; "
                    + "its latency may be unusable).")
    public PeakRule peakRule;

    @JsonPropertyDescription(
            "Saturation knee: the level after which throughput stops rising while latency (E2E or TTFT median, or the "
                    + "TTFT p99 where queueing shows first) keeps growing.")
    public Integer kneeConcurrency;

    @JsonPropertyDescription("Failed requests over all stages.")
    public Integer failedRequests;

    @JsonPropertyDescription("Runner pods that sent the load together (spec.runner.shards), when more than one did.")
    public Integer shards;

    @JsonPropertyDescription("With shards: the highest p99 lag of any shard's client threads in any stage, in ms. Above"
            + " a few ms that shard's client was the bottleneck, and its stage's warning names it.")
    public Double worstShardClientLagMillis;
}
