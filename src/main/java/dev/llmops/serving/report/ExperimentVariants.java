package dev.llmops.serving.report;

import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BaselineComparison;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkSummary;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.ConfidenceInterval;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageSpeedup;
import dev.llmops.serving.api.v1alpha1.modelserver.Diagnosis;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ObjectiveType;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperimentStatus;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantPhase;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantResult;
import dev.llmops.serving.api.v1alpha1.servingexperiment.Winner;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What an experiment report says of its variants, worded once for HTML and Markdown: the variants table, the winner,
 * the failed variants' diagnoses and the latency–throughput curves. Every speedup, interval and verdict is the one the
 * operator recorded, so a report never disagrees with kubectl get.
 */
final class ExperimentVariants {

    /** A variant whose server did not start or whose run failed, with what its ModelServer diagnosed. */
    record Failure(String variant, String reason, String message, String hint) {}

    private ExperimentVariants() {}

    /** The variants table's headers; the speedup's names the objective and the stage it is judged at. */
    static List<String> headers(ExperimentResults results) {
        String judged = switch (results.objective()) {
            case Capacity -> "Capacity speedup";
            case TPOT ->
                "TPOT p50 speedup at " + Format.orMissing(results.judgedStage().orElse(null));
            case Throughput ->
                "Paired per-stream speedup at "
                        + Format.orMissing(results.judgedStage().orElse(null));
        };
        return List.of(
                "Variant",
                "Phase",
                "Ready after (s)",
                "Single-stream tok/s",
                "Peak tok/s",
                "Capacity",
                judged,
                "95 % interval",
                "Acceptance length",
                "Outputs identical",
                "Verdict");
    }

    /** One row per variant, in the order they were tried, matching {@link #headers}. */
    static List<String[]> rows(ExperimentResults results) {
        List<String[]> rows = new ArrayList<>();
        Optional<String> stage = results.judgedStage();
        for (VariantResult variant : results.variants()) {
            BenchmarkSummary summary = Optional.ofNullable(variant.summary).orElseGet(BenchmarkSummary::new);
            Optional<StageSpeedup> speedup = results.speedupAt(variant, stage);
            Optional<BaselineComparison> comparison = results.comparison(variant);
            Double judged = switch (results.objective()) {
                case Capacity -> comparison.map(c -> c.capacitySpeedup).orElse(null);
                case TPOT -> speedup.map(s -> s.tpotP50Speedup).orElse(null);
                case Throughput -> speedup.map(s -> s.throughputSpeedup).orElse(null);
            };
            ConfidenceInterval interval = switch (results.objective()) {
                case Capacity -> null;
                case TPOT -> speedup.map(s -> s.tpotP50SpeedupInterval).orElse(null);
                case Throughput -> speedup.map(s -> s.throughputSpeedupInterval).orElse(null);
            };
            rows.add(new String[] {
                Format.orMissing(variant.name),
                variant.phase == null ? Format.MISSING : variant.phase.name(),
                Format.number(variant.timeToReadySeconds),
                Format.number(summary.singleStreamTokensPerSecond),
                Format.number(summary.peakTokensPerSecond),
                Format.orMissing(variant.capacity == null ? null : variant.capacity.load),
                Format.speedup(judged),
                Format.interval(interval),
                Format.hundredths(variant.specAcceptLength),
                comparison
                        .map(c -> c.quality)
                        .map(q -> Format.share(q.exactMatchShare))
                        .orElse(Format.MISSING),
                verdict(results, variant, speedup)
            });
        }
        return rows;
    }

    /**
     * What the variant came to: baseline, winner, the paired verdict at the judged stage, quality suspect; or the phase
     * of a variant that did not finish.
     */
    private static String verdict(ExperimentResults results, VariantResult variant, Optional<StageSpeedup> speedup) {
        if (variant.phase != VariantPhase.Succeeded) {
            Optional<String> reason = Optional.ofNullable(variant.diagnosis).map(d -> d.reason);
            return variant.phase == null
                    ? Format.MISSING
                    : variant.phase.name().toLowerCase(Locale.ROOT)
                            + reason.map(r -> ": " + r).orElse("");
        }
        List<String> verdict = new ArrayList<>();
        Winner winner = results.experiment().getStatus().winner;
        if (winner != null && variant.name != null && variant.name.equals(winner.name)) {
            verdict.add("winner");
        }
        if (results.baseline().filter(b -> b.equals(variant.name)).isPresent()) {
            verdict.add("baseline");
        } else if (results.objective() != ObjectiveType.Capacity) {
            speedup.map(s -> s.verdict).map(Verdicts::label).ifPresent(verdict::add);
        }
        if (Boolean.TRUE.equals(variant.qualitySuspect)) {
            verdict.add("quality suspect");
        }
        return verdict.isEmpty() ? Format.MISSING : String.join(", ", verdict);
    }

    /** What makes a variant the winner: the objective and the stage it is judged at. */
    static String objective(ExperimentResults results) {
        return results.objective().name()
                + results.judgedStage().map(stage -> " at " + stage).orElse("");
    }

    /** The winner in one sentence, or why there is none. */
    static String winner(ExperimentResults results) {
        ServingExperimentStatus status = results.experiment().getStatus();
        Winner winner = status.winner;
        if (winner == null) {
            boolean ended = status.phase != null
                    && switch (status.phase) {
                        case Succeeded, Incomplete, Failed -> true;
                        case Pending, Running -> false;
                    };
            return ended ? "No winner: no variant succeeded." : "No winner yet.";
        }
        StringBuilder line = new StringBuilder("Winner ")
                .append(Format.orMissing(winner.name))
                .append(": ")
                .append(value(results.objective(), winner.value));
        if (winner.stage != null) {
            line.append(" at ").append(winner.stage);
        }
        if (winner.speedup != null) {
            line.append(", ")
                    .append(Format.speedup(winner.speedup))
                    .append(" the baseline ")
                    .append(results.baseline().orElse(Format.MISSING));
            if (winner.speedupInterval != null) {
                line.append(" (95 % interval ")
                        .append(Format.interval(winner.speedupInterval))
                        .append(')');
            }
        }
        line.append('.');
        if (winner.reason != null && !winner.reason.isBlank()) {
            line.append(' ').append(winner.reason);
        }
        return line.toString();
    }

    private static String value(ObjectiveType objective, Double value) {
        return switch (objective) {
            case Throughput -> Format.number(value) + " output tok/s";
            case TPOT -> Format.number(value) + " ms per output token (p50)";
            case Capacity -> "capacity " + Format.number(value);
        };
    }

    /** The variants that failed, with their ModelServer's diagnosis, else what the experiment said of them. */
    static List<Failure> failures(ExperimentResults results) {
        List<Failure> failures = new ArrayList<>();
        for (VariantResult variant : results.variants()) {
            if (variant.phase == VariantPhase.Failed) {
                Diagnosis d = Optional.ofNullable(variant.diagnosis).orElseGet(Diagnosis::new);
                failures.add(new Failure(
                        Format.orMissing(variant.name),
                        Format.orMissing(d.reason),
                        Format.orMissing(d.message == null ? variant.message : d.message),
                        Format.orMissing(d.hint)));
            }
        }
        return failures;
    }

    /** One curve per variant whose run measured a stage, coloured by the variant's place in the experiment. */
    static List<SvgCurveChart.Curve> curves(ExperimentResults results) {
        List<SvgCurveChart.Curve> curves = new ArrayList<>();
        List<VariantResult> variants = results.variants();
        for (int index = 0; index < variants.size(); index++) {
            VariantResult variant = variants.get(index);
            int colour = index;
            results.run(variant.name)
                    .map(run -> Goodput.curve(run, variant.name, colour))
                    .filter(curve -> !curve.points().isEmpty())
                    .ifPresent(curves::add);
        }
        return curves;
    }

    /** Why the report has no curves: the experiment's status holds figures, its runs hold the stages. */
    static String curvesNeedRuns(ExperimentResults results) {
        return "The latency–throughput curves need the variants' BenchmarkRuns, which hold every stage: save them with "
                + "kubectl get benchmarkruns -l " + Labels.EXPERIMENT + "=" + results.name()
                + " -o yaml and pass them with --runs.";
    }
}
