package dev.llmops.serving.api.v1alpha1.benchmarkrun;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;
import lombok.EqualsAndHashCode;

/** How this run compares with another run (spec.baseline or spec.reference): above 1 means this run was faster. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class BaselineComparison {

    @JsonPropertyDescription("The BenchmarkRun compared against.")
    public String baseline;

    @JsonPropertyDescription(
            "Whether both runs sent the same requests (dataset, seed, sampling, prompts), so they could "
                    + "be paired request by request; absent without samples.")
    public Boolean workloadMatched;

    @JsonPropertyDescription("Why intervals, verdicts or the quality agreement are missing, when they are.")
    public String message;

    @JsonPropertyDescription(
            "The headline, as kubectl get -o wide shows it: the paired per-stream speedup at this run's peak "
                    + "stage (summary.peakConcurrency) with its 95 % interval (2.20x [2.10, 2.31] at c64), else the "
                    + "aggregate throughput ratio (2.10x aggregate); followed by (suspect) while the run is "
                    + "QualitySuspect.")
    public String speedup;

    @JsonPropertyDescription("Single-stream tokens/s of this run divided by the baseline's.")
    public Double singleStreamSpeedup;

    @JsonPropertyDescription(
            "Aggregate throughput ratio: this run's peak output tokens/s divided by the baseline's, each "
                    + "at its own peak stage; not paired and without an interval.")
    public Double peakThroughputSpeedup;

    @JsonPropertyDescription("Capacity of this run divided by the baseline's, when both searched in the same mode.")
    public Double capacitySpeedup;

    @JsonPropertyDescription("The baseline's capacity, as its status.capacity.load shows it.")
    public String baselineCapacity;

    @JsonPropertyDescription("Speedup of each stage both runs measured.")
    public List<StageSpeedup> stages = new ArrayList<>();

    @JsonPropertyDescription("Agreement of the two runs' greedy outputs; absent without both runs' quality outputs.")
    public QualityComparison quality;
}
