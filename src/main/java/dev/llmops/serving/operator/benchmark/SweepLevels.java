package dev.llmops.serving.operator.benchmark;

import dev.llmops.serving.api.contract.RunPlan;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.BenchmarkPlanSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.DatasetType;
import java.util.List;

/**
 * The levels and rates a spec's fixed sweep stands for. The schema sets no default for the levels; the contract's
 * {@link RunPlan#concurrencyLevels} decides which levels a sweep that names none runs, and an empty list runs none. A
 * trace's replay replaces the sweep.
 */
public final class SweepLevels {

    private SweepLevels() {}

    public static List<Integer> concurrency(BenchmarkPlanSpec spec) {
        if (spec.dataset.type == DatasetType.Trace) {
            return List.of();
        }
        return RunPlan.concurrencyLevels(spec.sweep.concurrency, spec.sweep.rates);
    }

    public static List<Double> rates(BenchmarkPlanSpec spec) {
        return spec.sweep.rates == null ? List.of() : spec.sweep.rates;
    }
}
