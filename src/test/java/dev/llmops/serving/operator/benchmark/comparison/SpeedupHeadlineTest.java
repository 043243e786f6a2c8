package dev.llmops.serving.operator.benchmark.comparison;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BaselineComparison;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkSummary;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.ConfidenceInterval;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageSpeedup;
import dev.llmops.serving.operator.toolkit.Conditions;
import org.junit.jupiter.api.Test;

/**
 * The Speedup column names one figure: the paired per-stream speedup at the run's peak stage with its interval, the
 * aggregate throughput ratio only without one, and "(suspect)" on either while the outputs diverge.
 */
class SpeedupHeadlineTest {

    private final BenchmarkRunStatus run = run();
    private final BaselineComparison comparison = new BaselineComparison();

    @Test
    void thePairedSpeedupAtThePeakStageWithItsInterval() {
        comparison.peakThroughputSpeedup = 2.073;
        comparison.stages.add(paired("c8", 2.6, 2.5, 2.7));
        comparison.stages.add(paired("c64", 2.2, 2.1, 2.31));
        comparison.stages.add(paired("c32", 2.4, 2.3, 2.5));

        assertThat(SpeedupHeadline.of(comparison, run)).isEqualTo("2.20x [2.10, 2.31] at c64");
    }

    @Test
    void theDescriptionEndsWithTheCapacitiesWhenBothRunsSearched() {
        comparison.baseline = "ar";
        comparison.peakThroughputSpeedup = 1.5;
        comparison.capacitySpeedup = 1.5;
        comparison.baselineCapacity = "24 streams";

        assertThat(SpeedupHeadline.describe(comparison, run))
                .startsWith("Compared with the baseline ar without paired samples")
                .endsWith("capacity 1.5× the baseline's 24 streams");
    }

    @Test
    void thePeakStageIsTheOneTheSummaryNamesNotTheHighestThroughput() {
        run.summary = new BenchmarkSummary();
        run.summary.peakConcurrency = 32;
        comparison.stages.add(paired("c64", 2.2, 2.1, 2.31));
        comparison.stages.add(paired("c32", 2.4, 2.3, 2.5));

        assertThat(SpeedupHeadline.of(comparison, run)).isEqualTo("2.40x [2.30, 2.50] at c32");
    }

    @Test
    void theAggregateThroughputRatioSaysSoWhenThePeakStageIsNotPaired() {
        comparison.peakThroughputSpeedup = 2.073;
        StageSpeedup unpaired = new StageSpeedup();
        unpaired.name = "c64";
        unpaired.throughputSpeedup = 2.1;
        comparison.stages.add(unpaired);

        assertThat(SpeedupHeadline.of(comparison, run)).isEqualTo("2.07x aggregate");
    }

    @Test
    void aQualitySuspectRunsSpeedupIsMarked() {
        comparison.stages.add(paired("c64", 3.0, 2.9, 3.1));
        Conditions.systemUtc()
                .set(run.conditions, ConditionTypes.QUALITY_SUSPECT, Conditions.TRUE, "OutputsDiverge", "m", 1L);

        assertThat(SpeedupHeadline.of(comparison, run)).isEqualTo("3.00x [2.90, 3.10] at c64 (suspect)");
    }

    @Test
    void noFigureNoHeadline() {
        assertThat(SpeedupHeadline.of(comparison, run)).isNull();
    }

    private static BenchmarkRunStatus run() {
        BenchmarkRunStatus status = new BenchmarkRunStatus();
        status.stages.add(stage("c8", 900.0));
        status.stages.add(stage("c32", 2500.0));
        status.stages.add(stage("c64", 2600.0));
        return status;
    }

    private static StageResult stage(String name, double outputTokensPerSecond) {
        StageResult stage = new StageResult();
        stage.name = name;
        stage.outputTokensPerSecond = outputTokensPerSecond;
        return stage;
    }

    private static StageSpeedup paired(String name, double speedup, double low, double high) {
        StageSpeedup stage = new StageSpeedup();
        stage.name = name;
        stage.throughputSpeedup = speedup;
        stage.throughputSpeedupInterval = new ConfidenceInterval();
        stage.throughputSpeedupInterval.low = low;
        stage.throughputSpeedupInterval.high = high;
        return stage;
    }
}
