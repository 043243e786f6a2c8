package dev.llmops.serving.comparison;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.contract.CapacityMode;
import dev.llmops.serving.api.contract.CapacityOutcome;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BaselineComparison;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkSummary;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.CapacityResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.LatencyStats;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import org.junit.jupiter.api.Test;

class BaselineComparatorTest {

    @Test
    void speedupIsThisRunOverTheBaselineForThroughputAndTheBaselineOverThisRunForTtft() {
        BenchmarkRunStatus eagle = status(
                150.0, 3000.0, stage("single", 150.0, 100.0), stage("c8", 900.0, 200.0), stage("c64", 3000.0, 800.0));
        BenchmarkRunStatus autoregressive = status(
                60.0, 2000.0, stage("single", 60.0, 120.0), stage("c8", 450.0, 300.0), stage("c32", 1900.0, 500.0));

        BaselineComparison comparison = BaselineComparator.compare("ar", eagle, autoregressive);

        assertThat(comparison.baseline).isEqualTo("ar");
        assertThat(comparison.singleStreamSpeedup).isEqualTo(2.5);
        assertThat(comparison.peakThroughputSpeedup).isEqualTo(1.5);
        assertThat(comparison.stages).extracting(s -> s.name).containsExactly("single", "c8");
        assertThat(comparison.stages.get(0).throughputSpeedup).isEqualTo(2.5);
        assertThat(comparison.stages.get(0).ttftP50Speedup).isEqualTo(1.2);
        assertThat(comparison.stages.get(1).throughputSpeedup).isEqualTo(2.0);
        assertThat(comparison.stages.get(1).ttftP50Speedup).isEqualTo(1.5);
    }

    @Test
    void ratiosAreRoundedToThreeDecimals() {
        BaselineComparison comparison = BaselineComparator.compare("ar", status(100.0, 1000.0), status(30.0, 700.0));

        assertThat(comparison.singleStreamSpeedup).isEqualTo(3.333);
        assertThat(comparison.peakThroughputSpeedup).isEqualTo(1.429);
    }

    @Test
    void missingOrZeroFiguresGiveNoRatioInsteadOfInfinity() {
        StageResult noLatency = stage("c8", 900.0, 200.0);
        noLatency.ttftMillis = null;
        BenchmarkRunStatus run = status(null, 3000.0, noLatency);
        BenchmarkRunStatus baseline = status(60.0, 0.0, stage("c8", 0.0, 300.0));

        BaselineComparison comparison = BaselineComparator.compare("ar", run, baseline);

        assertThat(comparison.singleStreamSpeedup).isNull();
        assertThat(comparison.peakThroughputSpeedup).isNull();
        assertThat(comparison.stages.get(0).throughputSpeedup).isNull();
        assertThat(comparison.stages.get(0).ttftP50Speedup).isNull();
    }

    @Test
    void capacitiesAreComparedWhenBothRunsSearchedInTheSameMode() {
        BenchmarkRunStatus eagle = status(150.0, 3000.0);
        eagle.capacity = capacity(CapacityMode.Concurrency, 36, null, CapacityOutcome.Found, "36 streams");
        BenchmarkRunStatus autoregressive = status(60.0, 2000.0);
        autoregressive.capacity = capacity(CapacityMode.Concurrency, 24, null, CapacityOutcome.Found, "24 streams");

        BaselineComparison comparison = BaselineComparator.compare("ar", eagle, autoregressive);

        assertThat(comparison.capacitySpeedup).isEqualTo(1.5);
        assertThat(comparison.baselineCapacity).isEqualTo("24 streams");

        eagle.capacity = capacity(CapacityMode.Rate, null, 6.0, CapacityOutcome.BudgetExhausted, ">=6 req/s");
        autoregressive.capacity = capacity(CapacityMode.Rate, null, 2.5, CapacityOutcome.Found, "2.5 req/s");
        assertThat(BaselineComparator.compare("ar", eagle, autoregressive).capacitySpeedup)
                .as("a lower bound compared as it stands")
                .isEqualTo(2.4);
    }

    @Test
    void capacitiesOfDifferentModesOrNeverMetGiveNoRatio() {
        BenchmarkRunStatus run = status(150.0, 3000.0);
        run.capacity = capacity(CapacityMode.Rate, null, 6.0, CapacityOutcome.Found, "6 req/s");
        BenchmarkRunStatus baseline = status(60.0, 2000.0);
        baseline.capacity = capacity(CapacityMode.Concurrency, 24, null, CapacityOutcome.Found, "24 streams");

        assertThat(BaselineComparator.compare("ar", run, baseline).capacitySpeedup)
                .isNull();
        assertThat(BaselineComparator.compare("ar", run, baseline).baselineCapacity)
                .isEqualTo("24 streams");

        baseline.capacity = capacity(CapacityMode.Rate, null, null, CapacityOutcome.NeverMet, "none");
        assertThat(BaselineComparator.compare("ar", run, baseline).capacitySpeedup)
                .isNull();
        assertThat(BaselineComparator.compare("ar", run, status(60.0, 2000.0)).baselineCapacity)
                .isNull();
    }

    private static CapacityResult capacity(
            CapacityMode mode, Integer concurrency, Double rate, CapacityOutcome outcome, String load) {
        CapacityResult capacity = new CapacityResult();
        capacity.mode = mode;
        capacity.concurrency = concurrency;
        capacity.requestRate = rate;
        capacity.outcome = outcome;
        capacity.load = load;
        return capacity;
    }

    private static BenchmarkRunStatus status(Double singleStream, Double peak, StageResult... stages) {
        BenchmarkRunStatus status = new BenchmarkRunStatus();
        status.summary = new BenchmarkSummary();
        status.summary.singleStreamTokensPerSecond = singleStream;
        status.summary.peakTokensPerSecond = peak;
        status.stages.addAll(java.util.List.of(stages));
        return status;
    }

    private static StageResult stage(String name, double outputTokensPerSecond, double ttftP50) {
        StageResult stage = new StageResult();
        stage.name = name;
        stage.outputTokensPerSecond = outputTokensPerSecond;
        stage.ttftMillis = new LatencyStats();
        stage.ttftMillis.p50 = ttftP50;
        return stage;
    }
}
