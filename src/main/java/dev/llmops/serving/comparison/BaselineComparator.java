package dev.llmops.serving.comparison;

import dev.llmops.serving.api.contract.CapacityMode;
import dev.llmops.serving.api.contract.CapacityOutcome;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BaselineComparison;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.CapacityResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageSpeedup;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Speedup of a run over its baseline from the two statuses: throughput ratios (this / baseline), the TTFT and TPOT
 * ratios (baseline / this), so that above 1 always means this run was faster, and both acceptance lengths. A ratio
 * whose figures are missing or zero is left out rather than guessed.
 * Capacities are compared when both runs searched in the same mode and met the SLO somewhere: the ratio of the highest
 * concurrencies or rates (a lower bound of a search that ran out of budget is taken as it stands).
 */
public final class BaselineComparator {

    private BaselineComparator() {}

    public static BaselineComparison compare(String baselineName, BenchmarkRunStatus run, BenchmarkRunStatus baseline) {
        BaselineComparison comparison = new BaselineComparison();
        comparison.baseline = baselineName;
        comparison.singleStreamSpeedup = ratio(run.summary, baseline.summary, s -> s.singleStreamTokensPerSecond);
        comparison.peakThroughputSpeedup = ratio(run.summary, baseline.summary, s -> s.peakTokensPerSecond);
        if (run.capacity != null && baseline.capacity != null) {
            comparison.baselineCapacity = baseline.capacity.load;
            if (run.capacity.mode == baseline.capacity.mode) {
                comparison.capacitySpeedup = ratio(run.capacity, baseline.capacity, BaselineComparator::capacity);
            }
        }
        Map<String, StageResult> baselineStages =
                baseline.stages.stream().collect(Collectors.toMap(s -> s.name, s -> s, (first, second) -> first));
        for (StageResult stage : run.stages) {
            StageResult before = baselineStages.get(stage.name);
            if (before == null) {
                continue;
            }
            StageSpeedup speedup = new StageSpeedup();
            speedup.name = stage.name;
            speedup.throughputSpeedup = ratio(stage, before, s -> s.outputTokensPerSecond);
            speedup.ttftP50Speedup = ratio(before, stage, s -> s.ttftMillis == null ? null : s.ttftMillis.p50);
            speedup.tpotP50Speedup = ratio(before, stage, s -> s.tpotMillis == null ? null : s.tpotMillis.p50);
            speedup.specAcceptLength = stage.specAcceptLength;
            speedup.baselineSpecAcceptLength = before.specAcceptLength;
            comparison.stages.add(speedup);
        }
        return comparison;
    }

    /** numerator's figure / denominator's figure, rounded to three decimals; null when either is missing or zero. */
    static <T> Double ratio(T numerator, T denominator, Function<T, Double> figure) {
        Double top = numerator == null ? null : figure.apply(numerator);
        Double bottom = denominator == null ? null : figure.apply(denominator);
        if (top == null || bottom == null || bottom <= 0 || top <= 0) {
            return null;
        }
        return Math.round(top / bottom * 1000.0) / 1000.0;
    }

    private static Double capacity(CapacityResult capacity) {
        if (capacity.outcome == CapacityOutcome.NeverMet) {
            return null;
        }
        return capacity.mode == CapacityMode.Rate
                ? capacity.requestRate
                : capacity.concurrency == null ? null : capacity.concurrency.doubleValue();
    }
}
