package dev.llmops.serving.runner.plan;

import dev.llmops.serving.api.contract.RunPlan;
import dev.llmops.serving.runner.output.StageReport;
import java.util.Comparator;
import java.util.List;

/**
 * Finds where a concurrency sweep saturates: the first level after which output throughput rises by less than
 * {@value #MIN_GAIN_PERCENT} % while median end-to-end latency still grows by more than that.
 */
public final class SaturationKnee {

    static final double MIN_GAIN_PERCENT = 5;

    private SaturationKnee() {}

    /** The knee's concurrency, or null when throughput kept rising (or latency stayed flat) to the last level. */
    public static Integer find(List<StageReport> stages) {
        List<StageReport> levels = stages.stream()
                .filter(stage -> stage.mode() == RunPlan.Mode.CLOSED_LOOP && stage.completed() > 0)
                .sorted(Comparator.comparingInt(StageReport::maxConcurrency))
                .toList();
        double threshold = 1 + MIN_GAIN_PERCENT / 100;
        for (int i = 0; i + 1 < levels.size(); i++) {
            StageReport level = levels.get(i);
            StageReport next = levels.get(i + 1);
            boolean flat = next.outputThroughput() < level.outputThroughput() * threshold;
            boolean slower = next.latency(StageReport.E2E).median()
                    > level.latency(StageReport.E2E).median() * threshold;
            if (flat && slower) {
                return level.maxConcurrency();
            }
        }
        return null;
    }
}
