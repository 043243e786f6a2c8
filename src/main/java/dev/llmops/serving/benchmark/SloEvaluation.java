package dev.llmops.serving.benchmark;

import dev.llmops.serving.api.v1alpha1.LatencyStats;
import dev.llmops.serving.api.v1alpha1.SloSpec;
import dev.llmops.serving.api.v1alpha1.StageResult;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Whether the p99 TTFT and TPOT limits held at every measured level (the single-request phase counts as concurrency 1)
 * and, if not, the lowest concurrency where one broke. A level where every request failed broke the SLO; a level whose
 * percentiles the summary dropped leaves the verdict unknown unless a lower level already broke.
 */
public record SloEvaluation(Verdict verdict, Integer brokenAtConcurrency, String reason, String message) {

    /** The three states of the SLOMet condition. */
    public enum Verdict {
        MET,
        BROKEN,
        UNKNOWN
    }

    public static SloEvaluation evaluate(SloSpec slo, List<StageResult> stages) {
        if (stages.isEmpty()) {
            return new SloEvaluation(Verdict.UNKNOWN, null, "NoStages", "No stage was measured.");
        }
        List<StageResult> ascending = stages.stream()
                .sorted(Comparator.comparing(s -> s.concurrency == null ? 0 : s.concurrency))
                .toList();
        for (StageResult stage : ascending) {
            if (stage.completed != null && stage.completed == 0) {
                return broken(stage, "every request of stage " + stage.name + " failed");
            }
            Optional<String> broken = exceeded(slo.ttftP99Millis, stage, s -> s.ttftMillis, "TTFT")
                    .or(() -> exceeded(slo.tpotP99Millis, stage, s -> s.tpotMillis, "TPOT"));
            if (broken.isPresent()) {
                return broken(stage, broken.get());
            }
            Optional<String> missing = missing(slo.ttftP99Millis, stage, s -> s.ttftMillis, "TTFT")
                    .or(() -> missing(slo.tpotP99Millis, stage, s -> s.tpotMillis, "TPOT"));
            if (missing.isPresent()) {
                return new SloEvaluation(
                        Verdict.UNKNOWN,
                        null,
                        "LatencyNotReported",
                        missing.get() + ", so the SLO cannot be judged there.");
            }
        }
        return new SloEvaluation(
                Verdict.MET,
                null,
                "SLOMet",
                "p99 " + limits(slo) + " held at every level up to concurrency "
                        + ascending.get(ascending.size() - 1).concurrency + ".");
    }

    private static SloEvaluation broken(StageResult stage, String what) {
        return new SloEvaluation(
                Verdict.BROKEN,
                stage.concurrency,
                "SLOBroken",
                "The SLO broke at concurrency " + stage.concurrency + ": " + what + ".");
    }

    private static Optional<String> exceeded(
            Integer limit, StageResult stage, Function<StageResult, LatencyStats> metric, String name) {
        LatencyStats stats = metric.apply(stage);
        if (limit == null || stats == null || stats.p99 == null || stats.p99 <= limit) {
            return Optional.empty();
        }
        return Optional.of(String.format("p99 %s %.1f ms > %d ms", name, stats.p99, limit));
    }

    private static Optional<String> missing(
            Integer limit, StageResult stage, Function<StageResult, LatencyStats> metric, String name) {
        LatencyStats stats = metric.apply(stage);
        if (limit == null || (stats != null && stats.p99 != null)) {
            return Optional.empty();
        }
        return Optional.of("The summary has no p99 " + name + " for stage " + stage.name);
    }

    private static String limits(SloSpec slo) {
        StringBuilder text = new StringBuilder();
        if (slo.ttftP99Millis != null) {
            text.append("TTFT <= ").append(slo.ttftP99Millis).append(" ms");
        }
        if (slo.tpotP99Millis != null) {
            text.append(text.isEmpty() ? "" : " and ")
                    .append("TPOT <= ")
                    .append(slo.tpotP99Millis)
                    .append(" ms");
        }
        return text.toString();
    }
}
