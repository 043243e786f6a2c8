package dev.llmops.serving.api.v1alpha1.benchmarkrun;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;

/**
 * One stage of this run against the same stage of the other run. With both runs' per-request samples the ratios are
 * paired estimates with 95 % confidence intervals and a verdict; without, ratios of the two statuses' figures.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class StageSpeedup {

    @JsonPropertyDescription("Stage name (single, c8, c16, ...).")
    public String name;

    @JsonPropertyDescription("Requests paired by their position in the stage's request sequence.")
    public Integer pairs;

    @JsonPropertyDescription("Faster, Slower or NoSignificantDifference, from the throughput interval and, against "
            + "spec.reference, its tolerance; absent below 5 pairs or without samples.")
    public SpeedVerdict verdict;

    @JsonPropertyDescription(
            "Paired per-stream speedup: output tokens/s per stream of this run divided by the other's, "
                    + "paired request by request, with samples; without, the aggregate throughput ratio of the stage.")
    public Double throughputSpeedup;

    @JsonPropertyDescription("95 % confidence interval of throughputSpeedup.")
    public ConfidenceInterval throughputSpeedupInterval;

    @JsonPropertyDescription(
            "The other run's p50 TTFT divided by this run's: above 1 means the first token came sooner.")
    public Double ttftP50Speedup;

    @JsonPropertyDescription("95 % confidence interval of ttftP50Speedup.")
    public ConfidenceInterval ttftP50SpeedupInterval;

    @JsonPropertyDescription(
            "The other run's p50 time per output token divided by this run's: above 1 means faster " + "decoding.")
    public Double tpotP50Speedup;

    @JsonPropertyDescription("95 % confidence interval of tpotP50Speedup.")
    public ConfidenceInterval tpotP50SpeedupInterval;

    @JsonPropertyDescription("This run's speculative acceptance length in the stage (tokens per verify step).")
    public Double specAcceptLength;

    @JsonPropertyDescription("The other run's speculative acceptance length in the stage.")
    public Double baselineSpecAcceptLength;
}
