package dev.llmops.serving.operator.benchmark;

import dev.llmops.serving.api.contract.RunPlan;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.SweepSpec;
import java.util.List;

/**
 * The levels and rates a spec's fixed sweep stands for. The schema sets no default for the levels; the contract's
 * {@link RunPlan#concurrencyLevels} decides which levels a sweep that names none runs, and an empty list runs none.
 */
public final class SweepLevels {

    private SweepLevels() {}

    public static List<Integer> concurrency(SweepSpec sweep) {
        return RunPlan.concurrencyLevels(sweep.concurrency, sweep.rates);
    }

    public static List<Double> rates(SweepSpec sweep) {
        return sweep.rates == null ? List.of() : sweep.rates;
    }
}
