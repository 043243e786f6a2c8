package dev.llmops.serving.operator.experiment;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.QualityComparison;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantPhase;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantResult;
import dev.llmops.serving.api.v1alpha1.servingexperiment.Winner;
import dev.llmops.serving.operator.toolkit.StatusText;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Names the winner among the variants whose benchmark succeeded and whose outputs agree with the baseline's. Another
 * variant wins over the baseline only when it beats it beyond noise (its paired 95 % interval above 1, or its ratio
 * without one); among those the best figure wins. When none does, the baseline wins; when the baseline has no result,
 * the best figure wins uncompared.
 */
final class WinnerSelection {

    private record Contender(VariantResult result, ObjectiveFigures.Standing standing) {}

    private WinnerSelection() {}

    static Optional<Winner> of(
            ServingExperiment experiment,
            ObjectiveFigures objective,
            List<VariantResult> variants,
            Map<String, BenchmarkRun> runs) {
        String baselineName = VariantObjects.baseline(experiment);
        Optional<Double> baselineValue = succeeded(variants, baselineName)
                .flatMap(v -> Optional.ofNullable(runs.get(v.name)))
                .flatMap(run -> objective.value(run.getStatus()));
        List<Contender> contenders = variants.stream()
                .filter(v -> v.phase == VariantPhase.Succeeded && !Boolean.TRUE.equals(v.qualitySuspect))
                .filter(v -> runs.containsKey(v.name) && runs.get(v.name).getStatus() != null)
                .flatMap(v -> objective.standing(runs.get(v.name).getStatus(), baselineValue).stream()
                        .map(s -> new Contender(v, s)))
                .toList();
        Comparator<Contender> byFigure =
                Comparator.comparingDouble(c -> c.standing().value());
        if (objective.higherIsBetter()) {
            byFigure = byFigure.reversed();
        }
        Optional<Contender> baseline = contenders.stream()
                .filter(c -> c.result().name.equals(baselineName))
                .findFirst();
        Optional<Contender> best = contenders.stream()
                .filter(c -> !c.result().name.equals(baselineName))
                .filter(c -> baseline.isEmpty() || c.standing().beatsBaseline())
                .min(byFigure);
        if (best.isPresent()) {
            return Optional.of(winner(best.get(), objective, baselineName, baseline.isPresent()));
        }
        Optional<Contender> runnerUp = contenders.stream()
                .filter(c -> !c.result().name.equals(baselineName))
                .min(byFigure);
        return baseline.map(b -> baselineWins(b, objective, runnerUp));
    }

    private static Winner winner(
            Contender contender, ObjectiveFigures objective, String baselineName, boolean compared) {
        Winner winner = base(contender, objective);
        if (compared) {
            winner.speedup = contender.standing().speedup().orElse(null);
            winner.speedupInterval = contender.standing().interval().orElse(null);
        }
        winner.reason = StatusText.bounded(
                compared
                        ? "%s: %s %s over %s%s"
                                .formatted(
                                        contender.result().name,
                                        speedup(contender.standing()),
                                        objective.describe(),
                                        baselineName,
                                        agreement(contender.result()))
                        : "%s: %.1f, the best %s; the baseline %s has no result to compare with"
                                .formatted(
                                        contender.result().name,
                                        contender.standing().value(),
                                        objective.describe(),
                                        baselineName));
        return winner;
    }

    private static Winner baselineWins(Contender baseline, ObjectiveFigures objective, Optional<Contender> runnerUp) {
        Winner winner = base(baseline, objective);
        winner.speedup = 1.0;
        winner.reason = StatusText.bounded("%s: no variant beat the baseline's %s beyond noise%s"
                .formatted(
                        baseline.result().name,
                        objective.describe(),
                        runnerUp.map(r -> " (closest: %s, %s)".formatted(r.result().name, speedup(r.standing())))
                                .orElse("")));
        return winner;
    }

    private static Winner base(Contender contender, ObjectiveFigures objective) {
        Winner winner = new Winner();
        winner.name = contender.result().name;
        winner.stage = objective.stage();
        winner.value = contender.standing().value();
        return winner;
    }

    private static String speedup(ObjectiveFigures.Standing standing) {
        return standing.speedup().map(s -> "%.2fx".formatted(s)).orElse("?x")
                + standing.interval()
                        .map(i -> " [%.2f, %.2f]".formatted(i.low, i.high))
                        .orElse("");
    }

    /** "; outputs agree 100 %" from the paired quality check, when the run had one. */
    private static String agreement(VariantResult result) {
        QualityComparison quality = result.comparison == null ? null : result.comparison.quality;
        return quality == null || quality.prefixAgreement == null
                ? ""
                : "; outputs agree %.0f %%".formatted(quality.prefixAgreement * 100);
    }

    private static Optional<VariantResult> succeeded(List<VariantResult> variants, String name) {
        return variants.stream()
                .filter(v -> v.name.equals(name) && v.phase == VariantPhase.Succeeded)
                .findFirst();
    }
}
