package dev.llmops.serving.operator.experiment;

import dev.llmops.serving.api.contract.PlainNumber;
import dev.llmops.serving.api.contract.RunPlan;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.CapacityResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.ConfidenceInterval;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageSpeedup;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.BenchmarkPlanSpec;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ObjectiveSpec;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ObjectiveType;
import dev.llmops.serving.operator.benchmark.RunnerArguments;
import dev.llmops.serving.operator.benchmark.SweepLevels;
import java.util.List;
import java.util.Optional;

/**
 * What the experiment's objective reads from one run's status: the figure variants are ranked by, and the paired
 * speedup over the baseline with its interval where the run has one.
 */
record ObjectiveFigures(ObjectiveType type, String stage) {

    /** One variant's standing: its figure, and its speedup over the baseline with the interval when it was paired. */
    record Standing(double value, Optional<Double> speedup, Optional<ConfidenceInterval> interval) {

        /** Better than the baseline beyond noise: the whole interval above 1, or the ratio without one. */
        boolean beatsBaseline() {
            return interval.map(i -> i.low != null && i.low > 1.0)
                    .orElse(speedup.map(s -> s > 1.0).orElse(false));
        }
    }

    /** The objective as spec.objective states it, the stage defaulted to the sweep's highest level or rate. */
    static ObjectiveFigures of(ObjectiveSpec objective, BenchmarkPlanSpec benchmark) {
        ObjectiveType type = objective == null ? ObjectiveType.Throughput : objective.type;
        if (type == ObjectiveType.Capacity) {
            return new ObjectiveFigures(type, null);
        }
        if (objective != null && objective.stage != null) {
            return new ObjectiveFigures(type, objective.stage);
        }
        if (benchmark.dataset.trace != null) {
            double fastest = RunnerArguments.traceSpeeds(benchmark.dataset.trace).stream()
                    .mapToDouble(Double::doubleValue)
                    .max()
                    .getAsDouble();
            return new ObjectiveFigures(type, RunPlan.traceStageName(fastest));
        }
        List<Integer> levels = SweepLevels.concurrency(benchmark);
        List<Double> rates = SweepLevels.rates(benchmark);
        String highest = !levels.isEmpty()
                ? "c" + levels.stream().mapToInt(Integer::intValue).max().getAsInt()
                : rates.isEmpty()
                        ? "single"
                        : "r"
                                + PlainNumber.text(rates.stream()
                                        .mapToDouble(Double::doubleValue)
                                        .max()
                                        .getAsDouble());
        return new ObjectiveFigures(type, highest);
    }

    boolean higherIsBetter() {
        return type != ObjectiveType.TPOT;
    }

    /** The run's figure: output tokens/s or p50 TPOT at the stage, or its capacity; empty when it has none. */
    Optional<Double> value(BenchmarkRunStatus run) {
        return switch (type) {
            case Throughput -> stage(run).map(s -> s.outputTokensPerSecond);
            case TPOT -> stage(run).map(s -> s.tpotMillis == null ? null : s.tpotMillis.p50);
            case Capacity -> capacity(run);
        };
    }

    /** The run's standing against the baseline's figure, paired where its comparison has the stage. */
    Optional<Standing> standing(BenchmarkRunStatus run, Optional<Double> baselineValue) {
        Optional<Double> value = value(run);
        if (value.isEmpty()) {
            return Optional.empty();
        }
        Optional<StageSpeedup> paired = Optional.ofNullable(run.comparison)
                .flatMap(
                        c -> c.stages.stream().filter(s -> s.name.equals(stage)).findFirst());
        Optional<Double> pairedSpeedup =
                paired.map(s -> type == ObjectiveType.TPOT ? s.tpotP50Speedup : s.throughputSpeedup);
        Optional<ConfidenceInterval> interval =
                paired.map(s -> type == ObjectiveType.TPOT ? s.tpotP50SpeedupInterval : s.throughputSpeedupInterval);
        Optional<Double> ratio = baselineValue
                .filter(b -> b > 0 && value.get() > 0)
                .map(b -> higherIsBetter() ? value.get() / b : b / value.get());
        return Optional.of(new Standing(
                value.get(), pairedSpeedup.isPresent() ? pairedSpeedup : ratio, interval.filter(i -> i.low != null)));
    }

    /** How the figure reads in a sentence: "throughput at c32", "p50 TPOT at c32", "capacity under the SLO". */
    String describe() {
        return switch (type) {
            case Throughput -> "throughput at " + stage;
            case TPOT -> "p50 TPOT at " + stage;
            case Capacity -> "capacity under the SLO";
        };
    }

    private Optional<StageResult> stage(BenchmarkRunStatus run) {
        return run.stages.stream().filter(s -> stage.equals(s.name)).findFirst();
    }

    /** The searched capacity, else the highest concurrency level below the one that broke the SLO. */
    private static Optional<Double> capacity(BenchmarkRunStatus run) {
        CapacityResult found = run.capacity;
        if (found != null) {
            return Optional.ofNullable(
                            found.concurrency != null ? Double.valueOf(found.concurrency) : found.requestRate)
                    .filter(v -> v > 0);
        }
        return run.stages.stream()
                .filter(s -> s.concurrency != null && s.name.startsWith("c"))
                .filter(s -> run.sloBrokenAtConcurrency == null || s.concurrency < run.sloBrokenAtConcurrency)
                .map(s -> (double) s.concurrency)
                .max(Double::compare);
    }
}
