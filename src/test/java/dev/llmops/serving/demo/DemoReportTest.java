package dev.llmops.serving.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BaselineComparison;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.ConfidenceInterval;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.LatencyStats;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.QualityComparison;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.SpeedVerdict;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageSpeedup;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerPhase;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The demo's progress lines show each resource's phase and a run's status.progress, once per change. */
class DemoReportTest {

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final DemoReport report =
            new DemoReport(new PrintStream(printed, true, StandardCharsets.UTF_8), System.nanoTime());

    @Test
    void aRunningRunShowsItsProgressAsTheStatusHoldsIt() {
        ModelServer server = server("llm-eagle3", ModelServerPhase.Ready);

        report.progress(List.of(server), List.of(run("eagle3", BenchmarkRunPhase.Running, "2/5 c16")));
        report.progress(List.of(server), List.of(run("eagle3", BenchmarkRunPhase.Running, "2/5 c16")));
        report.progress(List.of(server), List.of(run("eagle3", BenchmarkRunPhase.Running, "3/5 c32")));
        report.progress(List.of(server), List.of(run("eagle3", BenchmarkRunPhase.Succeeded, "5/5")));

        assertThat(lines())
                .satisfiesExactly(
                        l -> assertThat(l)
                                .matches("\\[ +\\d+\\.\\ds] ms/llm-eagle3 Ready  \\|  br/eagle3 Running 2/5 c16"),
                        l -> assertThat(l).endsWith("] ms/llm-eagle3 Ready  |  br/eagle3 Running 3/5 c32"),
                        l -> assertThat(l).endsWith("] ms/llm-eagle3 Ready  |  br/eagle3 Succeeded 5/5"));
    }

    @Test
    void resourcesWithoutStatusShowADash() {
        report.progress(List.of(server("llm-eagle3", null)), List.of(run("eagle3", null, null)));

        assertThat(lines()).singleElement().satisfies(l -> assertThat(l).endsWith("] ms/llm-eagle3 -  |  br/eagle3 -"));
    }

    @Test
    void aComparisonShowsEachStagesVerdictIntervalsAndAcceptanceThenTheOutputsAgreement() {
        BenchmarkRun run = run("eagle3", BenchmarkRunPhase.Succeeded, "6/6");
        BaselineComparison comparison = new BaselineComparison();
        comparison.baseline = "autoregressive";
        StageSpeedup c8 = new StageSpeedup();
        c8.name = "c8";
        c8.pairs = 16;
        c8.verdict = SpeedVerdict.Faster;
        c8.throughputSpeedup = 2.2;
        c8.throughputSpeedupInterval = interval(2.16, 2.25);
        c8.tpotP50Speedup = 2.37;
        c8.ttftP50Speedup = 1.01;
        c8.ttftP50SpeedupInterval = interval(0.99, 1.02);
        c8.specAcceptLength = 2.85;
        c8.baselineSpecAcceptLength = 1.0;
        comparison.stages.add(c8);
        comparison.message = "stage single has 3 paired requests, fewer than 5: no interval or verdict.";
        comparison.quality = new QualityComparison();
        comparison.quality.prompts = 3;
        comparison.quality.exactMatchShare = 2.0 / 3;
        comparison.quality.prefixAgreement = 0.8;
        comparison.quality.meanSharedPrefixTokens = 204.8;
        run.getStatus().comparison = comparison;

        report.benchmarkRuns(List.of(run));

        assertThat(printed.toString(StandardCharsets.UTF_8))
                .contains(
                        "Speedup of eagle3 over autoregressive (above 1 is faster; 95 % interval):",
                        "c8      Faster    16      2.20x [2.16, 2.25]   2.37x      1.01x [0.99, 1.02]   1.00 -> 2.85",
                        "  stage single has 3 paired requests, fewer than 5: no interval or verdict.",
                        "Greedy outputs against autoregressive: 67% of 3 prompts identical, 80% agreement (shared "
                                + "prefix 205 tokens on average)");
    }

    @Test
    void latenciesReadInMillisecondsBelowASecondAndInSecondsFromOne() {
        LatencyStats stats = new LatencyStats();
        stats.p50 = 121.66;
        stats.p99 = 2664.0;
        stats.max = 1000.0;

        assertThat(DemoReport.millis(stats, s -> s.p50)).isEqualTo("121.7 ms");
        assertThat(DemoReport.millis(stats, s -> s.p99)).isEqualTo("2.66 s");
        assertThat(DemoReport.millis(stats, s -> s.max)).isEqualTo("1.00 s");
        assertThat(DemoReport.millis(stats, s -> s.mean)).isEmpty();
        assertThat(DemoReport.millis(null, s -> s.p50)).isEmpty();
    }

    private static ConfidenceInterval interval(double low, double high) {
        ConfidenceInterval interval = new ConfidenceInterval();
        interval.low = low;
        interval.high = high;
        return interval;
    }

    private List<String> lines() {
        return printed.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private static ModelServer server(String name, ModelServerPhase phase) {
        ModelServer server = new ModelServer();
        server.setMetadata(new ObjectMetaBuilder()
                .withName(name)
                .withNamespace(DemoScenario.NAMESPACE)
                .build());
        if (phase != null) {
            server.setStatus(new ModelServerStatus());
            server.getStatus().phase = phase;
        }
        return server;
    }

    private static BenchmarkRun run(String name, BenchmarkRunPhase phase, String progress) {
        BenchmarkRun run = new BenchmarkRun();
        run.setMetadata(new ObjectMetaBuilder()
                .withName(name)
                .withNamespace(DemoScenario.NAMESPACE)
                .build());
        if (phase != null) {
            run.setStatus(new BenchmarkRunStatus());
            run.getStatus().phase = phase;
            run.getStatus().progress = progress;
        }
        return run;
    }
}
