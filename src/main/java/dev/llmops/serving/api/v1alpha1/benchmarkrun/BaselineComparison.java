package dev.llmops.serving.api.v1alpha1.benchmarkrun;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** How this run compares with another run (spec.baseline or spec.reference): above 1 means this run was faster. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BaselineComparison {

    @JsonPropertyDescription("The BenchmarkRun compared against.")
    public String baseline;

    @JsonPropertyDescription(
            "Whether both runs sent the same requests (dataset, seed, sampling, prompts), so they could "
                    + "be paired request by request; absent without samples.")
    public Boolean workloadMatched;

    @JsonPropertyDescription("Why intervals, verdicts or the quality agreement are missing, when they are.")
    public String message;

    @JsonPropertyDescription("Single-stream tokens/s of this run divided by the baseline's.")
    public Double singleStreamSpeedup;

    @JsonPropertyDescription("Peak tokens/s of this run divided by the baseline's.")
    public Double peakThroughputSpeedup;

    @JsonPropertyDescription("Capacity of this run divided by the baseline's, when both searched in the same mode.")
    public Double capacitySpeedup;

    @JsonPropertyDescription("The baseline's capacity, as its status.capacity.load shows it.")
    public String baselineCapacity;

    @JsonPropertyDescription("Speedup of each stage both runs measured.")
    public List<StageSpeedup> stages = new ArrayList<>();

    @JsonPropertyDescription("Agreement of the two runs' greedy outputs; absent without both runs' quality outputs.")
    public QualityComparison quality;

    @Override
    public boolean equals(Object other) {
        return other instanceof BaselineComparison that
                && Objects.equals(baseline, that.baseline)
                && Objects.equals(workloadMatched, that.workloadMatched)
                && Objects.equals(message, that.message)
                && Objects.equals(singleStreamSpeedup, that.singleStreamSpeedup)
                && Objects.equals(peakThroughputSpeedup, that.peakThroughputSpeedup)
                && Objects.equals(capacitySpeedup, that.capacitySpeedup)
                && Objects.equals(baselineCapacity, that.baselineCapacity)
                && Objects.equals(stages, that.stages)
                && Objects.equals(quality, that.quality);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                baseline,
                workloadMatched,
                message,
                singleStreamSpeedup,
                peakThroughputSpeedup,
                capacitySpeedup,
                baselineCapacity,
                stages,
                quality);
    }
}
