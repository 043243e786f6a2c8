package dev.llmops.serving.report;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BaselineComparison;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkSummary;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.ConfidenceInterval;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.QualityComparison;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.SpeedVerdict;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageSpeedup;
import java.util.List;
import java.util.Optional;

/**
 * A candidate run against its baseline (or its reference): headline speedups and each stage both runs measured. Above
 * 1 means the candidate is better (more tokens per second, or a sooner first token). What the operator derived from
 * both runs' per-request samples (intervals, verdicts, output agreement) comes from the candidate's status.
 *
 * @param workloadMatched whether both runs sent the same requests; null when the status does not say
 * @param message why the comparison has no intervals or verdicts, when it has none
 * @param quality agreement of both runs' greedy outputs, null when not compared
 */
public record Comparison(
        String baseline,
        Double singleStreamSpeedup,
        Double peakThroughputSpeedup,
        List<Stage> stages,
        Boolean workloadMatched,
        String message,
        QualityComparison quality) {

    /**
     * One stage of both runs. Only the speedups and the candidate's throughput are known when they come from the
     * status; {@code paired} is null unless the status holds the paired comparison of this stage.
     */
    public record Stage(
            String name,
            Integer concurrency,
            Double baselineTokensPerSecond,
            Double candidateTokensPerSecond,
            Double throughputSpeedup,
            Double baselineTtftP50,
            Double candidateTtftP50,
            Double ttftP50Speedup,
            Double baselineTpotP50,
            Double candidateTpotP50,
            Double baselineAcceptLength,
            Double candidateAcceptLength,
            Paired paired) {}

    /** The paired bootstrap's figures of one stage: speedups with their 95 % intervals and the verdict. */
    public record Paired(
            Integer pairs,
            SpeedVerdict verdict,
            Double throughputSpeedup,
            ConfidenceInterval throughputInterval,
            Double tpotP50Speedup,
            ConfidenceInterval tpotP50Interval,
            Double ttftP50Speedup,
            ConfidenceInterval ttftP50Interval) {

        static Paired of(StageSpeedup speedup) {
            if (speedup.pairs == null
                    && speedup.verdict == null
                    && speedup.throughputSpeedupInterval == null
                    && speedup.tpotP50Speedup == null) {
                return null;
            }
            return new Paired(
                    speedup.pairs,
                    speedup.verdict,
                    speedup.throughputSpeedup,
                    speedup.throughputSpeedupInterval,
                    speedup.tpotP50Speedup,
                    speedup.tpotP50SpeedupInterval,
                    speedup.ttftP50Speedup,
                    speedup.ttftP50SpeedupInterval);
        }
    }

    /** Whether the baseline's own figures are known, not only the speedups the status recorded. */
    public boolean baselineMeasured() {
        return stages.stream().anyMatch(s -> s.baselineTokensPerSecond() != null);
    }

    /** Whether any stage has figures of the paired comparison. */
    public boolean paired() {
        return stages.stream().anyMatch(s -> s.paired() != null);
    }

    /** Whether either run reported an acceptance length for any stage. */
    public boolean acceptanceMeasured() {
        return stages.stream().anyMatch(s -> s.baselineAcceptLength() != null || s.candidateAcceptLength() != null);
    }

    /**
     * Compares with the given baseline run, or else as the candidate's status already did, if it did; nothing when the
     * two share no measured stage, as when either run failed before its first.
     */
    public static Optional<Comparison> of(BenchmarkRun candidate, Optional<BenchmarkRun> baseline) {
        return baseline.map(b -> between(candidate, b))
                .or(() -> fromStatus(candidate, candidate.getStatus().comparison))
                .filter(c -> !c.stages().isEmpty());
    }

    /**
     * The comparison with spec.reference the operator wrote into the status, if it did; shown even without stages, as
     * its message then says why.
     */
    public static Optional<Comparison> reference(BenchmarkRun candidate) {
        return fromStatus(candidate, candidate.getStatus().referenceComparison);
    }

    /**
     * Compares two full runs stage by stage, matching stages by name; the paired figures come from the candidate's
     * status when it compared with the same run.
     */
    public static Comparison between(BenchmarkRun candidate, BenchmarkRun baseline) {
        String name = baseline.getMetadata().getName();
        BaselineComparison status = candidate.getStatus().comparison;
        BaselineComparison paired = status != null && name.equals(status.baseline) ? status : null;
        List<Stage> stages = Stages.ordered(candidate).stream()
                .flatMap(c -> Stages.named(baseline, c.name).map(b -> stage(c, b, speedup(paired, c.name))).stream())
                .toList();
        BenchmarkSummary cs = candidate.getStatus().summary;
        BenchmarkSummary bs = baseline.getStatus().summary;
        return new Comparison(
                name,
                cs == null || bs == null ? null : ratio(cs.singleStreamTokensPerSecond, bs.singleStreamTokensPerSecond),
                cs == null || bs == null ? null : ratio(cs.peakTokensPerSecond, bs.peakTokensPerSecond),
                stages,
                paired == null ? null : paired.workloadMatched,
                paired == null ? null : paired.message,
                paired == null ? null : paired.quality);
    }

    private static Optional<Comparison> fromStatus(BenchmarkRun candidate, BaselineComparison status) {
        if (status == null) {
            return Optional.empty();
        }
        List<Stage> stages =
                status.stages.stream().map(s -> fromSpeedup(candidate, s)).toList();
        return Optional.of(new Comparison(
                status.baseline,
                status.singleStreamSpeedup,
                status.peakThroughputSpeedup,
                stages,
                status.workloadMatched,
                status.message,
                status.quality));
    }

    private static StageSpeedup speedup(BaselineComparison status, String stage) {
        if (status == null) {
            return null;
        }
        return status.stages.stream()
                .filter(s -> s.name != null && s.name.equals(stage))
                .findFirst()
                .orElse(null);
    }

    private static Stage stage(StageResult candidate, StageResult baseline, StageSpeedup speedup) {
        Double baselineTtft = Stages.percentile(baseline.ttftMillis, Stages.Percentile.P50);
        Double candidateTtft = Stages.percentile(candidate.ttftMillis, Stages.Percentile.P50);
        return new Stage(
                candidate.name,
                candidate.concurrency,
                baseline.outputTokensPerSecond,
                candidate.outputTokensPerSecond,
                ratio(candidate.outputTokensPerSecond, baseline.outputTokensPerSecond),
                baselineTtft,
                candidateTtft,
                ratio(baselineTtft, candidateTtft),
                Stages.percentile(baseline.tpotMillis, Stages.Percentile.P50),
                Stages.percentile(candidate.tpotMillis, Stages.Percentile.P50),
                baseline.specAcceptLength,
                candidate.specAcceptLength,
                speedup == null ? null : Paired.of(speedup));
    }

    private static Stage fromSpeedup(BenchmarkRun candidate, StageSpeedup speedup) {
        Optional<StageResult> stage = Stages.named(candidate, speedup.name);
        return new Stage(
                speedup.name,
                stage.map(s -> s.concurrency).orElse(null),
                null,
                stage.map(s -> s.outputTokensPerSecond).orElse(null),
                speedup.throughputSpeedup,
                null,
                null,
                speedup.ttftP50Speedup,
                null,
                null,
                speedup.baselineSpecAcceptLength,
                speedup.specAcceptLength != null
                        ? speedup.specAcceptLength
                        : stage.map(s -> s.specAcceptLength).orElse(null),
                Paired.of(speedup));
    }

    static Double ratio(Double numerator, Double denominator) {
        if (numerator == null || denominator == null || denominator == 0) {
            return null;
        }
        return numerator / denominator;
    }
}
