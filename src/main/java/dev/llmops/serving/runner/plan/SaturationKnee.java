package dev.llmops.serving.runner.plan;

import dev.llmops.serving.api.contract.RunPlan;
import dev.llmops.serving.runner.output.StageReport;
import dev.llmops.serving.runner.statistics.LatencySummary;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Finds where a concurrency sweep saturates: the first level after which output throughput rises by less than
 * {@value #MIN_GAIN_PERCENT} % over the best so far while latency still grows by more than that — the median
 * end-to-end latency, the median TTFT, or the TTFT p99, where requests waiting for a batch slot (queueing) show first.
 */
public final class SaturationKnee {

    static final double MIN_GAIN_PERCENT = 5;
    private static final double THRESHOLD = 1 + MIN_GAIN_PERCENT / 100;

    private SaturationKnee() {}

    /** The knee's concurrency, or null when throughput kept rising (or latency stayed flat) to the last level. */
    public static Integer find(List<StageReport> stages) {
        List<StageReport> levels = stages.stream()
                .filter(stage -> stage.mode() == RunPlan.Mode.CLOSED_LOOP && stage.completed() > 0)
                .sorted(Comparator.comparingInt(StageReport::maxConcurrency))
                .toList();
        double best = 0;
        for (int i = 0; i + 1 < levels.size(); i++) {
            StageReport level = levels.get(i);
            StageReport next = levels.get(i + 1);
            best = Math.max(best, level.outputThroughput());
            boolean flat = next.outputThroughput() < best * THRESHOLD;
            boolean slower = grew(level, next, StageReport.E2E, LatencySummary::median)
                    || grew(level, next, StageReport.TTFT, LatencySummary::median)
                    || grew(level, next, StageReport.TTFT, LatencySummary::p99);
            if (flat && slower) {
                return level.maxConcurrency();
            }
        }
        return null;
    }

    private static boolean grew(
            StageReport level, StageReport next, String metric, ToDoubleFunction<LatencySummary> figure) {
        LatencySummary before = level.latency(metric);
        LatencySummary after = next.latency(metric);
        return before != null
                && after != null
                && figure.applyAsDouble(after) > figure.applyAsDouble(before) * THRESHOLD;
    }
}
