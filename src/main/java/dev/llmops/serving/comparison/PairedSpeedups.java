package dev.llmops.serving.comparison;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BaselineComparison;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.ConfidenceInterval;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.QualityComparison;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.SpeedVerdict;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageSpeedup;
import dev.llmops.serving.runner.statistics.PairedComparison;

/**
 * A comparison of two runs for the status: the ratios of their statuses' figures, replaced, when both runs left
 * per-request samples of one workload, by {@link PairedComparison}'s paired estimates with intervals and verdicts, and
 * the agreement of their greedy outputs. Says in {@code message} why anything is missing.
 */
public final class PairedSpeedups {

    /** Fixes the bootstrap's resampling: the same two runs always get the same figures, so the status never flaps. */
    public static final long SEED = 17;
    /** Longest message the status takes, in characters. */
    static final int MAX_MESSAGE_CHARS = 600;

    private PairedSpeedups() {}

    /** {@code tolerance}: the share a throughput must move by to count as faster or slower (0.05 for 5 %). */
    public static BaselineComparison compare(
            String otherName,
            BenchmarkRunStatus run,
            BenchmarkRunStatus other,
            SamplesRead runSamples,
            SamplesRead otherSamples,
            double tolerance) {
        BaselineComparison comparison = BaselineComparator.compare(otherName, run, other);
        if (!runSamples.present() || !otherSamples.present()) {
            String why = !runSamples.present()
                    ? "this run: " + runSamples.problem()
                    : "run " + otherName + ": " + otherSamples.problem();
            comparison.message = bounded("No confidence intervals, verdicts or quality agreement, only the ratios of "
                    + "the two statuses: no per-request samples of " + why + ".");
            return comparison;
        }
        PairedComparison.Result result =
                PairedComparison.compare(runSamples.samples(), otherSamples.samples(), tolerance, SEED);
        comparison.workloadMatched = result.sameWorkload();
        comparison.message = result.message() == null ? null : bounded(result.message() + ".");
        for (PairedComparison.StageComparison stage : result.stages()) {
            StageSpeedup speedup = comparison.stages.stream()
                    .filter(s -> s.name.equals(stage.name()))
                    .findFirst()
                    .orElseGet(() -> {
                        StageSpeedup added = new StageSpeedup();
                        added.name = stage.name();
                        comparison.stages.add(added);
                        return added;
                    });
            speedup.pairs = stage.pairs();
            speedup.verdict = verdict(stage.verdict());
            if (stage.throughputSpeedup() != null) {
                speedup.throughputSpeedup = round(stage.throughputSpeedup().estimate());
                speedup.throughputSpeedupInterval = interval(stage.throughputSpeedup());
            }
            if (stage.ttftP50Speedup() != null) {
                speedup.ttftP50Speedup = round(stage.ttftP50Speedup().estimate());
                speedup.ttftP50SpeedupInterval = interval(stage.ttftP50Speedup());
            }
            if (stage.tpotP50Speedup() != null) {
                speedup.tpotP50Speedup = round(stage.tpotP50Speedup().estimate());
                speedup.tpotP50SpeedupInterval = interval(stage.tpotP50Speedup());
            }
        }
        comparison.quality = quality(result.quality());
        return comparison;
    }

    public static String bounded(String text) {
        return text.length() <= MAX_MESSAGE_CHARS ? text : text.substring(0, MAX_MESSAGE_CHARS - 1) + "…";
    }

    private static SpeedVerdict verdict(PairedComparison.Verdict verdict) {
        if (verdict == null) {
            return null;
        }
        return switch (verdict) {
            case FASTER -> SpeedVerdict.Faster;
            case SLOWER -> SpeedVerdict.Slower;
            case NO_SIGNIFICANT_DIFFERENCE -> SpeedVerdict.NoSignificantDifference;
        };
    }

    private static ConfidenceInterval interval(PairedComparison.Interval interval) {
        Double low = round(interval.low());
        Double high = round(interval.high());
        if (low == null || high == null) {
            return null;
        }
        ConfidenceInterval result = new ConfidenceInterval();
        result.low = low;
        result.high = high;
        return result;
    }

    private static QualityComparison quality(PairedComparison.QualityAgreement agreement) {
        if (agreement == null) {
            return null;
        }
        QualityComparison quality = new QualityComparison();
        quality.prompts = agreement.prompts();
        quality.exactMatchShare = round(agreement.exactMatchShare());
        quality.meanSharedPrefixTokens = round(agreement.meanSharedPrefixTokens());
        quality.prefixAgreement = round(agreement.prefixAgreement());
        return quality;
    }

    /** Three decimals, as the status shows ratios; null for a figure JSON cannot hold. */
    private static Double round(double value) {
        return Double.isFinite(value) ? Math.round(value * 1000.0) / 1000.0 : null;
    }
}
