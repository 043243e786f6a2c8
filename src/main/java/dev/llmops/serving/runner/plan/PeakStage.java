package dev.llmops.serving.runner.plan;

import dev.llmops.serving.api.contract.PeakRule;
import dev.llmops.serving.api.contract.RunPlan;
import dev.llmops.serving.runner.output.StageReport;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The stage a run's peak is reported at. The highest tokens/s alone is often reached where latency is unusable (a
 * queue in front of a full batch), so the peak is the best stage within the SLO when one was given and met, else the
 * saturation knee, and only else the highest throughput; the rule is reported with it.
 */
public final class PeakStage {

    /** The chosen stage and the rule that chose it. */
    public record Choice(StageReport stage, PeakRule rule) {}

    private PeakStage() {}

    public static Optional<Choice> choose(List<StageReport> stages, Integer kneeConcurrency, Slo slo) {
        List<StageReport> measured = stages.stream()
                .filter(stage -> stage.mode() != RunPlan.Mode.SINGLE && stage.completed() > 0)
                .toList();
        Comparator<StageReport> byThroughput = Comparator.comparingDouble(StageReport::outputThroughput);
        if (slo.hasLimits()) {
            Optional<StageReport> withinSlo = measured.stream()
                    .filter(stage -> stage.sloAttainment() != null && stage.sloAttainment() >= slo.attainment())
                    .max(byThroughput);
            if (withinSlo.isPresent()) {
                return Optional.of(new Choice(withinSlo.get(), PeakRule.WithinSlo));
            }
        }
        Optional<StageReport> knee = measured.stream()
                .filter(stage -> stage.mode() == RunPlan.Mode.CLOSED_LOOP && kneeConcurrency != null)
                .filter(stage -> stage.maxConcurrency() == kneeConcurrency)
                .findFirst();
        if (knee.isPresent()) {
            return Optional.of(new Choice(knee.get(), PeakRule.Knee));
        }
        return measured.stream().max(byThroughput).map(stage -> new Choice(stage, PeakRule.HighestThroughput));
    }
}
