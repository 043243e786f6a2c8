package dev.llmops.serving.report;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.QualityComparison;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.SpeedVerdict;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a comparison concludes, worded once for both formats: each stage's verdict, the columns of the paired table,
 * the agreement of the greedy outputs, and the run's Regressed, Improved and QualitySuspect conditions.
 */
final class Verdicts {

    /** The condition types the operator sets from comparisons, in the order a reader wants them. */
    static final List<String> CONDITION_TYPES = List.of("Regressed", "Improved", "QualitySuspect");

    private Verdicts() {}

    static String label(SpeedVerdict verdict) {
        if (verdict == null) {
            return Format.MISSING;
        }
        return switch (verdict) {
            case Faster -> "faster";
            case Slower -> "slower";
            case NoSignificantDifference -> "no significant difference";
        };
    }

    /** The run's verdict conditions, Regressed first. */
    static List<Condition> conditions(BenchmarkRun run) {
        List<Condition> verdicts = new ArrayList<>();
        for (String type : CONDITION_TYPES) {
            run.getStatus().conditions.stream()
                    .filter(c -> type.equals(c.getType()))
                    .forEach(verdicts::add);
        }
        return verdicts;
    }

    /** The headers of the paired table: the paired figures and the acceptance lengths, each when known. */
    static List<String> pairedHeaders(Comparison comparison) {
        List<String> headers = new ArrayList<>(List.of("Stage"));
        if (comparison.paired()) {
            headers.addAll(List.of(
                    "Verdict",
                    "Pairs",
                    "Paired per-stream speedup",
                    "95 % interval",
                    "TPOT p50 speedup",
                    "95 % interval",
                    "TTFT p50 speedup",
                    "95 % interval"));
        }
        if (comparison.acceptanceMeasured()) {
            headers.addAll(List.of("Acceptance baseline", "Acceptance candidate"));
        }
        return headers;
    }

    /** One row of the paired table, matching {@link #pairedHeaders}. */
    static String[] pairedRow(Comparison comparison, Comparison.Stage stage) {
        List<String> cells = new ArrayList<>(List.of(stage.name()));
        if (comparison.paired()) {
            Comparison.Paired p = stage.paired();
            if (p == null) {
                cells.addAll(List.of(
                        Format.MISSING,
                        Format.MISSING,
                        Format.MISSING,
                        Format.MISSING,
                        Format.MISSING,
                        Format.MISSING,
                        Format.MISSING,
                        Format.MISSING));
            } else {
                cells.addAll(List.of(
                        label(p.verdict()),
                        Format.integer(p.pairs()),
                        Format.speedup(p.throughputSpeedup()),
                        Format.interval(p.throughputInterval()),
                        Format.speedup(p.tpotP50Speedup()),
                        Format.interval(p.tpotP50Interval()),
                        Format.speedup(p.ttftP50Speedup()),
                        Format.interval(p.ttftP50Interval())));
            }
        }
        if (comparison.acceptanceMeasured()) {
            cells.add(Format.hundredths(stage.baselineAcceptLength()));
            cells.add(Format.hundredths(stage.candidateAcceptLength()));
        }
        return cells.toArray(String[]::new);
    }

    /** The stages whose throughput speedup has an interval, for the error-bar chart. */
    static List<SvgSpeedupChart.Bar> bars(Comparison comparison) {
        List<SvgSpeedupChart.Bar> bars = new ArrayList<>();
        for (Comparison.Stage stage : comparison.stages()) {
            Comparison.Paired p = stage.paired();
            if (p != null
                    && p.throughputSpeedup() != null
                    && p.throughputInterval() != null
                    && p.throughputInterval().low != null
                    && p.throughputInterval().high != null) {
                bars.add(new SvgSpeedupChart.Bar(
                        stage.name(),
                        p.throughputSpeedup(),
                        p.throughputInterval().low,
                        p.throughputInterval().high,
                        p.verdict()));
            }
        }
        return bars;
    }

    /** One sentence on the greedy outputs' agreement. */
    static String quality(QualityComparison quality) {
        return String.format(
                Locale.ROOT,
                "Greedy outputs of %s prompts: %s identical, mean shared prefix %s tokens, prefix agreement %s.",
                Format.integer(quality.prompts),
                Format.share(quality.exactMatchShare),
                Format.number(quality.meanSharedPrefixTokens),
                Format.share(quality.prefixAgreement));
    }
}
