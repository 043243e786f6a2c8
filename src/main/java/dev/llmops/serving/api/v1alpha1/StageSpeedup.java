package dev.llmops.serving.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** One stage of this run against the same stage of the baseline. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class StageSpeedup {

    @JsonPropertyDescription("Stage name (single, c8, c16, ...).")
    public String name;

    @JsonPropertyDescription("Output tokens/s of this run divided by the baseline's.")
    public Double throughputSpeedup;

    @JsonPropertyDescription("Baseline p50 TTFT divided by this run's: above 1 means the first token came sooner.")
    public Double ttftP50Speedup;

    @JsonPropertyDescription(
            "Requests both runs sent at the same position of this stage: the pairs the intervals " + "come from.")
    public Integer pairs;

    @JsonPropertyDescription("Faster or Slower when the throughput interval excludes 1 and the speedup passes the "
            + "tolerance; NoSignificantDifference otherwise.")
    public SpeedVerdict verdict;

    @JsonPropertyDescription("95 % paired bootstrap interval of throughputSpeedup.")
    public ConfidenceInterval throughputSpeedupInterval;

    @JsonPropertyDescription("95 % paired bootstrap interval of ttftP50Speedup.")
    public ConfidenceInterval ttftP50SpeedupInterval;

    @JsonPropertyDescription("Baseline p50 TPOT divided by this run's: above 1 means tokens came faster.")
    public Double tpotP50Speedup;

    @JsonPropertyDescription("95 % paired bootstrap interval of tpotP50Speedup.")
    public ConfidenceInterval tpotP50SpeedupInterval;

    @JsonPropertyDescription("This run's acceptance length in the stage.")
    public Double specAcceptLength;

    @JsonPropertyDescription("The compared run's acceptance length in the stage.")
    public Double baselineSpecAcceptLength;

    @Override
    public boolean equals(Object other) {
        return other instanceof StageSpeedup that
                && Objects.equals(name, that.name)
                && Objects.equals(throughputSpeedup, that.throughputSpeedup)
                && Objects.equals(ttftP50Speedup, that.ttftP50Speedup)
                && Objects.equals(pairs, that.pairs)
                && Objects.equals(verdict, that.verdict)
                && Objects.equals(throughputSpeedupInterval, that.throughputSpeedupInterval)
                && Objects.equals(ttftP50SpeedupInterval, that.ttftP50SpeedupInterval)
                && Objects.equals(tpotP50Speedup, that.tpotP50Speedup)
                && Objects.equals(tpotP50SpeedupInterval, that.tpotP50SpeedupInterval)
                && Objects.equals(specAcceptLength, that.specAcceptLength)
                && Objects.equals(baselineSpecAcceptLength, that.baselineSpecAcceptLength);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                name,
                throughputSpeedup,
                ttftP50Speedup,
                pairs,
                verdict,
                throughputSpeedupInterval,
                ttftP50SpeedupInterval,
                tpotP50Speedup,
                tpotP50SpeedupInterval,
                specAcceptLength,
                baselineSpecAcceptLength);
    }
}
