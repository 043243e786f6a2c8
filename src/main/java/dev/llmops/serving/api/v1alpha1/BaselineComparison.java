package dev.llmops.serving.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** How this run compares with its baseline run: above 1 means faster. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BaselineComparison {

    @JsonPropertyDescription("The BenchmarkRun compared against.")
    public String baseline;

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

    @JsonPropertyDescription("Whether both runs sent the same requests (dataset, seed, sampling), so their requests "
            + "could be paired; intervals and verdicts need it.")
    public Boolean workloadMatched;

    @JsonPropertyDescription("Why the comparison has no intervals or verdicts, when it has none.")
    public String message;

    @JsonPropertyDescription("Agreement of both runs' greedy outputs for the single-request prompts.")
    public QualityComparison quality;

    @Override
    public boolean equals(Object other) {
        return other instanceof BaselineComparison that
                && Objects.equals(baseline, that.baseline)
                && Objects.equals(singleStreamSpeedup, that.singleStreamSpeedup)
                && Objects.equals(peakThroughputSpeedup, that.peakThroughputSpeedup)
                && Objects.equals(capacitySpeedup, that.capacitySpeedup)
                && Objects.equals(baselineCapacity, that.baselineCapacity)
                && Objects.equals(stages, that.stages)
                && Objects.equals(workloadMatched, that.workloadMatched)
                && Objects.equals(message, that.message)
                && Objects.equals(quality, that.quality);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                baseline,
                singleStreamSpeedup,
                peakThroughputSpeedup,
                capacitySpeedup,
                baselineCapacity,
                stages,
                workloadMatched,
                message,
                quality);
    }
}
