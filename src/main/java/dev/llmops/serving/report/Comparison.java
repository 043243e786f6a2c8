package dev.llmops.serving.report;

import dev.llmops.serving.api.v1alpha1.BaselineComparison;
import dev.llmops.serving.api.v1alpha1.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.BenchmarkSummary;
import dev.llmops.serving.api.v1alpha1.StageResult;
import dev.llmops.serving.api.v1alpha1.StageSpeedup;
import java.util.List;
import java.util.Optional;

/**
 * A candidate run against its baseline: headline speedups and each stage both runs measured. Above 1 means the
 * candidate is better (more tokens per second, or a sooner first token).
 */
public record Comparison(
        String baseline, Double singleStreamSpeedup, Double peakThroughputSpeedup, List<Stage> stages) {

    /**
     * One stage of both runs. Only the speedups and the candidate's throughput are known when they come from the
     * status.
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
            Double candidateTpotP50) {}

    /** Whether the baseline's own figures are known, not only the speedups the status recorded. */
    public boolean baselineMeasured() {
        return stages.stream().anyMatch(s -> s.baselineTokensPerSecond() != null);
    }

    /**
     * Compares with the given baseline run, or else as the candidate's status already did, if it did; nothing when the
     * two share no measured stage, as when either run failed before its first.
     */
    public static Optional<Comparison> of(BenchmarkRun candidate, Optional<BenchmarkRun> baseline) {
        return baseline.map(b -> between(candidate, b))
                .or(() -> fromStatus(candidate))
                .filter(c -> !c.stages().isEmpty());
    }

    /** Compares two full runs stage by stage, matching stages by name. */
    public static Comparison between(BenchmarkRun candidate, BenchmarkRun baseline) {
        List<Stage> stages = Stages.ordered(candidate).stream()
                .flatMap(c -> Stages.named(baseline, c.name).map(b -> stage(c, b)).stream())
                .toList();
        BenchmarkSummary cs = candidate.getStatus().summary;
        BenchmarkSummary bs = baseline.getStatus().summary;
        return new Comparison(
                baseline.getMetadata().getName(),
                cs == null || bs == null ? null : ratio(cs.singleStreamTokensPerSecond, bs.singleStreamTokensPerSecond),
                cs == null || bs == null ? null : ratio(cs.peakTokensPerSecond, bs.peakTokensPerSecond),
                stages);
    }

    /** The comparison the operator already wrote into the candidate's status, if it has one. */
    public static Optional<Comparison> fromStatus(BenchmarkRun candidate) {
        BaselineComparison status = candidate.getStatus().comparison;
        if (status == null) {
            return Optional.empty();
        }
        List<Stage> stages =
                status.stages.stream().map(s -> fromSpeedup(candidate, s)).toList();
        return Optional.of(
                new Comparison(status.baseline, status.singleStreamSpeedup, status.peakThroughputSpeedup, stages));
    }

    private static Stage stage(StageResult candidate, StageResult baseline) {
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
                Stages.percentile(candidate.tpotMillis, Stages.Percentile.P50));
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
                null);
    }

    static Double ratio(Double numerator, Double denominator) {
        if (numerator == null || denominator == null || denominator == 0) {
            return null;
        }
        return numerator / denominator;
    }
}
