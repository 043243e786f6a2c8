package dev.llmops.serving.operator.benchmark;

import dev.llmops.serving.api.contract.BenchmarkDefaults;
import dev.llmops.serving.api.contract.PlainNumber;
import dev.llmops.serving.api.contract.RunPlan;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.LatencyStats;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.SloSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * Whether the SLO held at every measured stage of the fixed sweep and, if not, the lowest load where it broke.
 * Stages go from the lowest load up: the single-request phase (concurrency 1), the concurrency levels, then the rates;
 * the probes of a capacity search are left to status.capacity, since a search breaks the SLO on purpose.
 *
 * <p>A stage that carries its SLO attainment (the runner measured it per request) meets the SLO when the attainment
 * reaches the target (spec.slo.attainment, else {@link BenchmarkDefaults#SLO_ATTAINMENT}, as the runner's). A stage
 * without it, as in a summary of format version 1, is judged by its p99s against the limits. A stage where every
 * request failed broke the SLO; a stage whose figures the summary dropped leaves the verdict unknown unless a lower one
 * already broke.
 */
public record SloEvaluation(Verdict verdict, Integer brokenAtConcurrency, String reason, String message) {

    /** The three states of the SLOMet condition. */
    public enum Verdict {
        MET,
        BROKEN,
        UNKNOWN
    }

    public static SloEvaluation evaluate(SloSpec slo, List<StageResult> stages) {
        List<StageResult> ascending = stages.stream()
                .filter(s -> s.name == null || !RunPlan.isProbe(s.name))
                .sorted(Comparator.comparing((StageResult s) -> s.requestRate == null ? 0 : 1)
                        .thenComparing(s -> s.requestRate == null ? 0 : s.requestRate)
                        .thenComparing(s -> s.concurrency == null ? 0 : s.concurrency))
                .toList();
        if (ascending.isEmpty()) {
            return new SloEvaluation(
                    Verdict.UNKNOWN, null, "NoStages", "No stage outside a capacity search was measured.");
        }
        double target = slo.attainment != null ? slo.attainment : BenchmarkDefaults.SLO_ATTAINMENT;
        for (StageResult stage : ascending) {
            if (stage.completed != null && stage.completed == 0) {
                return broken(stage, "every request of stage " + stage.name + " failed");
            }
            if (stage.sloAttainment != null) {
                if (stage.sloAttainment < target) {
                    return broken(
                            stage,
                            String.format(
                                    Locale.ROOT,
                                    "attainment %.3f < %s (share of requests within %s)",
                                    stage.sloAttainment,
                                    PlainNumber.text(target),
                                    limits(slo)));
                }
                continue;
            }
            Optional<String> broken = percentiles(slo).stream()
                    .map(p -> exceeded(p, stage))
                    .flatMap(Optional::stream)
                    .findFirst();
            if (broken.isPresent()) {
                return broken(stage, broken.get());
            }
            Optional<String> missing = percentiles(slo).stream()
                    .map(p -> missing(p, stage))
                    .flatMap(Optional::stream)
                    .findFirst();
            if (missing.isPresent()) {
                return new SloEvaluation(
                        Verdict.UNKNOWN,
                        null,
                        "LatencyNotReported",
                        missing.get() + ", so the SLO cannot be judged there.");
            }
        }
        StageResult top = ascending.get(ascending.size() - 1);
        String held = ascending.stream().allMatch(s -> s.sloAttainment != null)
                ? "Attainment >= " + PlainNumber.text(target) + " of " + limits(slo)
                : "p99 " + limits(slo);
        return new SloEvaluation(Verdict.MET, null, "SLOMet", held + " held at every level up to " + load(top) + ".");
    }

    /** One limit and the stage percentile judged against it when a stage carries no attainment. */
    private record Percentile(String name, Integer limit, Function<StageResult, LatencyStats> metric) {}

    private static List<Percentile> percentiles(SloSpec slo) {
        List<Percentile> percentiles = new ArrayList<>();
        percentiles.add(new Percentile("TTFT", slo.ttftP99Millis, s -> s.ttftMillis));
        percentiles.add(new Percentile("TPOT", slo.tpotP99Millis, s -> s.tpotMillis));
        percentiles.add(new Percentile("ITL", slo.itlP99Millis, s -> s.itlMillis));
        percentiles.add(new Percentile("E2E", slo.e2eP99Millis, s -> s.e2eMillis));
        return percentiles.stream().filter(p -> p.limit() != null).toList();
    }

    private static SloEvaluation broken(StageResult stage, String what) {
        return new SloEvaluation(
                Verdict.BROKEN,
                stage.requestRate == null ? stage.concurrency : null,
                "SLOBroken",
                "The SLO broke at " + load(stage) + ": " + what + ".");
    }

    private static String load(StageResult stage) {
        return stage.requestRate != null
                ? PlainNumber.text(stage.requestRate) + " req/s"
                : "concurrency " + stage.concurrency;
    }

    private static Optional<String> exceeded(Percentile percentile, StageResult stage) {
        LatencyStats stats = percentile.metric().apply(stage);
        if (stats == null || stats.p99 == null || stats.p99 <= percentile.limit()) {
            return Optional.empty();
        }
        return Optional.of(
                String.format(Locale.ROOT, "p99 %s %.1f ms > %d ms", percentile.name(), stats.p99, percentile.limit()));
    }

    private static Optional<String> missing(Percentile percentile, StageResult stage) {
        LatencyStats stats = percentile.metric().apply(stage);
        if (stats != null && stats.p99 != null) {
            return Optional.empty();
        }
        return Optional.of("The summary has no p99 " + percentile.name() + " for stage " + stage.name);
    }

    private static String limits(SloSpec slo) {
        return String.join(
                " and ",
                percentiles(slo).stream()
                        .map(p -> p.name() + " <= " + p.limit() + " ms")
                        .toList());
    }
}
