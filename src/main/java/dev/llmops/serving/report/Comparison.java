package dev.llmops.serving.report;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BaselineComparison;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.ConfidenceInterval;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.QualityComparison;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.SpeedVerdict;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageSpeedup;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A comparison the operator wrote into a run's status (status.comparison or status.referenceComparison), as the
 * reports show it. Every speedup, interval and verdict is the status's own, so a report never disagrees with kubectl
 * get; when the compared run was given too, its measured figures stand next to the run's. Above 1 means the run whose
 * status holds the comparison was better (more tokens per second, or a sooner first token).
 *
 * @param run the run whose status holds the comparison, called the candidate below
 * @param ofCandidate whether that run is the report's candidate, not the run given to compare with
 * @param reference whether the comparison is with spec.reference rather than spec.baseline
 * @param baseline the run compared with, as the status names it
 * @param baselineGiven whether that run was given too, so its own figures are shown
 * @param message why the comparison has no intervals or verdicts, when it has none
 * @param quality agreement of both runs' greedy outputs, null when not compared
 */
record Comparison(
        String run,
        boolean ofCandidate,
        boolean reference,
        String baseline,
        boolean baselineGiven,
        Double singleStreamSpeedup,
        Double peakThroughputSpeedup,
        Double capacitySpeedup,
        String baselineCapacity,
        List<Stage> stages,
        String message,
        QualityComparison quality) {

    /**
     * One stage of the comparison: the speedups the status recorded, the candidate's figures, and the baseline's when
     * the baseline run was given; {@code paired} is null unless the status holds the paired comparison of this stage.
     */
    record Stage(
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
            Double tpotP50Speedup,
            Double baselineAcceptLength,
            Double candidateAcceptLength,
            Paired paired) {}

    /** The paired bootstrap's figures of one stage: speedups with their 95 % intervals and the verdict. */
    record Paired(
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
                    && speedup.tpotP50SpeedupInterval == null
                    && speedup.ttftP50SpeedupInterval == null) {
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

    /** Whether any stage has figures of the paired comparison. */
    boolean paired() {
        return stages.stream().anyMatch(s -> s.paired() != null);
    }

    /**
     * The name of the stages' throughput figure, the same as in the status and kubectl: paired request by request
     * where the samples allowed, else the ratio of the two stages' tokens/s.
     */
    String throughputFigureName() {
        return paired() ? "Paired per-stream speedup" : "Aggregate throughput ratio";
    }

    /** Whether either run reported an acceptance length for any stage. */
    boolean acceptanceMeasured() {
        return stages.stream().anyMatch(s -> s.baselineAcceptLength() != null || s.candidateAcceptLength() != null);
    }

    /**
     * The comparisons the report shows: the candidate's with its baseline and its reference, as its status holds them;
     * then, when a second run was given that the candidate's status did not compare with, that run's comparisons with
     * the candidate, if its status holds any.
     */
    static List<Comparison> recorded(BenchmarkRun candidate, Optional<BenchmarkRun> other) {
        List<Comparison> comparisons = new ArrayList<>();
        add(comparisons, candidate, true, false, candidate.getStatus().comparison, other);
        add(comparisons, candidate, true, true, candidate.getStatus().referenceComparison, other);
        if (other.isPresent() && comparisons.stream().noneMatch(Comparison::baselineGiven)) {
            BenchmarkRun second = other.get();
            Optional<BenchmarkRun> back = Optional.of(candidate);
            if (compares(second.getStatus().comparison, second, candidate)) {
                add(comparisons, second, false, false, second.getStatus().comparison, back);
            }
            if (compares(second.getStatus().referenceComparison, second, candidate)) {
                add(comparisons, second, false, true, second.getStatus().referenceComparison, back);
            }
        }
        return comparisons;
    }

    /**
     * Why the report shows no comparison of the candidate with the other run given, when neither status holds one. The
     * report divides no figures itself: without both runs' per-request samples it could only divide the statuses'
     * figures, which is not what the operator records for runs that have samples, so its numbers would disagree.
     */
    static Optional<String> notRecorded(BenchmarkRun candidate, BenchmarkRun other, List<Comparison> recorded) {
        if (recorded.stream().anyMatch(Comparison::baselineGiven)) {
            return Optional.empty();
        }
        return Optional.of("Neither " + HtmlReport.name(candidate) + " nor " + HtmlReport.name(other)
                + " records a comparison with the other, so no speedups are shown, only each run's own figures. The"
                + " operator compares a run with the runs its spec.baseline and spec.reference name, once both"
                + " succeeded.");
    }

    /**
     * Whether the status's comparison is with the other run: a status names that run only by name, in the namespace of
     * the run that holds it, so a saved run of another namespace is a different run.
     */
    private static boolean compares(BaselineComparison status, BenchmarkRun holder, BenchmarkRun other) {
        String namespace = holder.getMetadata().getNamespace();
        String otherNamespace = other.getMetadata().getNamespace();
        return status != null
                && HtmlReport.name(other).equals(status.baseline)
                && (namespace == null || otherNamespace == null || namespace.equals(otherNamespace));
    }

    private static void add(
            List<Comparison> comparisons,
            BenchmarkRun holder,
            boolean ofCandidate,
            boolean reference,
            BaselineComparison status,
            Optional<BenchmarkRun> other) {
        if (status == null) {
            return;
        }
        Optional<BenchmarkRun> compared = other.filter(o -> compares(status, holder, o));
        comparisons.add(new Comparison(
                HtmlReport.name(holder),
                ofCandidate,
                reference,
                status.baseline,
                compared.isPresent(),
                status.singleStreamSpeedup,
                status.peakThroughputSpeedup,
                status.capacitySpeedup,
                status.baselineCapacity,
                status.stages.stream().map(s -> stage(holder, compared, s)).toList(),
                status.message,
                status.quality));
    }

    private static Stage stage(BenchmarkRun holder, Optional<BenchmarkRun> compared, StageSpeedup speedup) {
        Optional<StageResult> candidate = Stages.named(holder, speedup.name);
        Optional<StageResult> baseline = compared.flatMap(b -> Stages.named(b, speedup.name));
        return new Stage(
                speedup.name,
                candidate.map(s -> s.concurrency).orElse(null),
                baseline.map(s -> s.outputTokensPerSecond).orElse(null),
                candidate.map(s -> s.outputTokensPerSecond).orElse(null),
                speedup.throughputSpeedup,
                baseline.map(s -> Stages.percentile(s.ttftMillis, Stages.Percentile.P50))
                        .orElse(null),
                candidate
                        .map(s -> Stages.percentile(s.ttftMillis, Stages.Percentile.P50))
                        .orElse(null),
                speedup.ttftP50Speedup,
                baseline.map(s -> Stages.percentile(s.tpotMillis, Stages.Percentile.P50))
                        .orElse(null),
                candidate
                        .map(s -> Stages.percentile(s.tpotMillis, Stages.Percentile.P50))
                        .orElse(null),
                speedup.tpotP50Speedup,
                speedup.baselineSpecAcceptLength != null
                        ? speedup.baselineSpecAcceptLength
                        : baseline.map(s -> s.specAcceptLength).orElse(null),
                speedup.specAcceptLength != null
                        ? speedup.specAcceptLength
                        : candidate.map(s -> s.specAcceptLength).orElse(null),
                Paired.of(speedup));
    }
}
