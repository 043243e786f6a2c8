package dev.llmops.serving.operator.benchmark.comparison;

import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BaselineComparison;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageSpeedup;
import dev.llmops.serving.operator.toolkit.Conditions;
import java.util.Comparator;
import java.util.Locale;
import java.util.Optional;

/**
 * The one speedup figure a person reads at a glance (the Speedup printer column), named for what it is: the paired
 * per-stream speedup at this run's peak stage with its 95 % interval, else the aggregate throughput
 * ratio; marked when the greedy outputs diverge, since a speedup that changes the output is no speedup.
 */
final class SpeedupHeadline {

    static final String AGGREGATE = "aggregate";
    static final String SUSPECT = "(suspect)";

    private SpeedupHeadline() {}

    /** "2.20x [2.10, 2.31] at c64", "2.10x aggregate", either followed by "(suspect)"; null with no figure. */
    static String of(BaselineComparison comparison, BenchmarkRunStatus run) {
        Optional<StageSpeedup> paired = peakStage(run)
                .flatMap(peak -> comparison.stages.stream()
                        .filter(s -> peak.name.equals(s.name))
                        .filter(s -> s.throughputSpeedup != null && hasInterval(s))
                        .findFirst());
        String figure;
        if (paired.isPresent()) {
            StageSpeedup stage = paired.get();
            figure = String.format(
                    Locale.ROOT,
                    "%.2fx [%.2f, %.2f] at %s",
                    stage.throughputSpeedup,
                    stage.throughputSpeedupInterval.low,
                    stage.throughputSpeedupInterval.high,
                    stage.name);
        } else if (comparison.peakThroughputSpeedup != null) {
            figure = String.format(Locale.ROOT, "%.2fx %s", comparison.peakThroughputSpeedup, AGGREGATE);
        } else {
            return null;
        }
        return Conditions.isTrue(run.conditions, ConditionTypes.QUALITY_SUSPECT) ? figure + " " + SUSPECT : figure;
    }

    /**
     * "Paired per-stream speedup 2.20x [2.10, 2.31] at c64 over the baseline b; aggregate throughput ratio (peak tok/s)
     * 2.073×, single-stream tok/s 1.9×", each figure by the name it has everywhere.
     */
    static String describe(BaselineComparison comparison, BenchmarkRunStatus run) {
        String headline = of(comparison, run);
        String text = headline == null || headline.contains(AGGREGATE)
                ? "Compared with the baseline " + comparison.baseline + " without paired samples"
                : "Paired per-stream speedup " + headline + " over the baseline " + comparison.baseline;
        text += String.format(
                "; aggregate throughput ratio (peak tok/s) %s×, single-stream tok/s %s×",
                ratio(comparison.peakThroughputSpeedup), ratio(comparison.singleStreamSpeedup));
        return comparison.capacitySpeedup == null
                ? text
                : text + ", capacity " + comparison.capacitySpeedup + "× the baseline's " + comparison.baselineCapacity;
    }

    private static String ratio(Double speedup) {
        return speedup == null ? "n/a" : String.valueOf(speedup);
    }

    /** The run's peak stage (the level its summary names), else its stage with the highest output tokens/s. */
    private static Optional<StageResult> peakStage(BenchmarkRunStatus run) {
        Integer peakConcurrency = run.summary == null ? null : run.summary.peakConcurrency;
        return run.stages.stream()
                .filter(s -> peakConcurrency != null && ("c" + peakConcurrency).equals(s.name))
                .findFirst()
                .or(() -> run.stages.stream()
                        .filter(s -> s.outputTokensPerSecond != null)
                        .max(Comparator.comparingDouble(s -> s.outputTokensPerSecond)));
    }

    private static boolean hasInterval(StageSpeedup stage) {
        return stage.throughputSpeedupInterval != null
                && stage.throughputSpeedupInterval.low != null
                && stage.throughputSpeedupInterval.high != null;
    }
}
