package dev.llmops.serving.operator.benchmark;

import dev.llmops.serving.api.contract.BenchmarkDefaults;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.SweepSpec;
import java.util.List;

/**
 * The stages a spec's fixed sweep stands for. The schema sets no default for the levels, so that a rate sweep does not
 * get closed-loop levels too: a sweep that names neither levels nor rates runs the default levels, and an empty list
 * of levels runs none.
 */
public final class SweepLevels {

    private SweepLevels() {}

    public static List<Integer> concurrency(SweepSpec sweep) {
        if (sweep.concurrency != null) {
            return sweep.concurrency;
        }
        return sweep.rates == null ? BenchmarkDefaults.CONCURRENCY : List.of();
    }

    public static List<Double> rates(SweepSpec sweep) {
        return sweep.rates == null ? List.of() : sweep.rates;
    }
}
