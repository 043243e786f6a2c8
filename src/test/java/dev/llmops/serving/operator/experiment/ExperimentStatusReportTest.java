package dev.llmops.serving.operator.experiment;

import static dev.llmops.serving.operator.experiment.ExperimentFixtures.T0;
import static dev.llmops.serving.operator.experiment.ExperimentFixtures.run;
import static dev.llmops.serving.operator.experiment.ExperimentFixtures.server;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.ConditionReasons;
import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerPhase;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperimentPhase;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantPhase;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantResult;
import dev.llmops.serving.operator.toolkit.Conditions;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ExperimentStatusReportTest {

    private final ExperimentTimeline timeline = new ExperimentTimeline();
    private final ServingExperiment experiment = timeline.experiment;
    private final Map<String, ModelServer> servers = timeline.servers;
    private final Map<String, BenchmarkRun> runs = timeline.runs;
    private final Set<String> holdingPool = timeline.holdingPool;

    private ExperimentStatusReport.Report observe(Instant at) {
        return timeline.observe(at);
    }

    private VariantResult variant(String name) {
        return timeline.variant(name);
    }

    private void benchmarked(String variant, Instant created, int loadMinutes, double tokensPerSecond, double low) {
        timeline.benchmarked(variant, created, loadMinutes, tokensPerSecond, low);
    }

    private void released(String variant) {
        timeline.released(variant);
    }

    @Test
    void startsTheBaselineFirstAloneAndNothingElse() {
        ExperimentStatusReport.Report report = observe(T0);

        assertThat(report.serving()).containsExactly("autoregressive");
        assertThat(report.benchmarking()).isEmpty();
        assertThat(experiment.getStatus().phase).isEqualTo(ServingExperimentPhase.Running);
        assertThat(experiment.getStatus().progress).isEqualTo("0/4 autoregressive");
        assertThat(experiment.getStatus().startTime).isEqualTo(T0.toString());
        assertThat(variant("autoregressive").phase).isEqualTo(VariantPhase.Deploying);
        assertThat(variant("autoregressive").modelServer).isEqualTo("kimi-autoregressive");
        assertThat(variant("eagle3").phase).isEqualTo(VariantPhase.Pending);
        assertThat(Conditions.find(experiment.getStatus().conditions, ConditionTypes.RECONCILING)
                        .orElseThrow()
                        .getReason())
                .isEqualTo("Deploying");
    }

    @Test
    void aBaselineNamedLaterStillGoesFirst() {
        experiment.getSpec().baseline = "eagle3";

        assertThat(observe(T0).serving()).containsExactly("eagle3");
    }

    @Test
    void benchmarksAReadyServerAndRecordsItsTimeToReady() {
        observe(T0);
        servers.put(
                "autoregressive",
                server("kimi-autoregressive", ModelServerPhase.Ready, T0.plusSeconds(5), T0.plusSeconds(725)));

        ExperimentStatusReport.Report report = observe(T0.plusSeconds(730));

        assertThat(report.benchmarking()).containsExactly("autoregressive");
        assertThat(report.serving()).containsExactly("autoregressive");
        assertThat(variant("autoregressive").phase).isEqualTo(VariantPhase.Benchmarking);
        assertThat(variant("autoregressive").timeToReadySeconds).isEqualTo(720.0);
        assertThat(variant("autoregressive").benchmarkRun).isEqualTo("kimi-autoregressive");
    }

    @Test
    void aServerStillLoadingKeepsItsVariantDeployingAndTheOthersWaiting() {
        observe(T0);
        servers.put("autoregressive", server("kimi-autoregressive", ModelServerPhase.Loading, T0, T0));
        holdingPool.add("autoregressive");

        ExperimentStatusReport.Report report = observe(T0.plusSeconds(300));

        assertThat(variant("autoregressive").phase).isEqualTo(VariantPhase.Deploying);
        assertThat(report.serving()).containsExactly("autoregressive");
        assertThat(report.benchmarking()).isEmpty();
    }

    @Test
    void theNextVariantStartsOnlyOnceThePreviousServingPodsAreGone() {
        observe(T0);
        benchmarked("autoregressive", T0, 12, 1000, 0);
        assertThat(variant("autoregressive").phase).isEqualTo(VariantPhase.Succeeded);

        ExperimentStatusReport.Report finishedButHolding = observe(T0.plusSeconds(1400));
        assertThat(finishedButHolding.serving()).isEmpty();
        assertThat(finishedButHolding.keptRuns()).containsExactly("autoregressive");
        assertThat(variant("eagle3").phase).isEqualTo(VariantPhase.Pending);
        assertThat(experiment.getStatus().progress).isEqualTo("1/4");

        released("autoregressive");
        ExperimentStatusReport.Report freed = observe(T0.plusSeconds(1410));
        assertThat(freed.serving()).containsExactly("eagle3");
        assertThat(variant("eagle3").startTime).isEqualTo(T0.plusSeconds(1410).toString());
        assertThat(experiment.getStatus().progress).isEqualTo("1/4 eagle3");
    }

    @Test
    void twoVariantsAtOnceWhenThePoolHoldsTwo() {
        experiment.getSpec().parallelVariants = 2;

        assertThat(observe(T0).serving()).containsExactly("autoregressive", "eagle3");
    }

    @Test
    void aServerThatFailsToStartFailsItsVariantWithItsDiagnosisAndTheNextGoesOn() {
        experiment.getSpec().variants.add(0, experiment.getSpec().variants.remove(3));
        experiment.getSpec().baseline = "autoregressive";
        observe(T0);
        benchmarked("autoregressive", T0, 10, 1000, 0);
        released("autoregressive");
        observe(T0.plusSeconds(1300));
        assertThat(variant("broken").phase).isEqualTo(VariantPhase.Deploying);
        servers.put(
                "broken", server("kimi-broken", ModelServerPhase.Failed, T0.plusSeconds(1300), T0.plusSeconds(1500)));
        holdingPool.add("broken");

        ExperimentStatusReport.Report report = observe(T0.plusSeconds(1540));

        VariantResult broken = variant("broken");
        assertThat(broken.phase).isEqualTo(VariantPhase.Failed);
        assertThat(broken.timeToFailureSeconds).isEqualTo(240.0);
        assertThat(broken.diagnosis.reason).isEqualTo("CudaHeadersMissing");
        assertThat(broken.message).contains("did not start", "CudaHeadersMissing", "cuda_runtime.h");
        assertThat(report.serving()).doesNotContain("broken");
        assertThat(report.keptRuns()).doesNotContain("broken");

        released("broken");
        assertThat(observe(T0.plusSeconds(1560)).serving()).containsExactly("eagle3");
    }

    @Test
    void theFastestVariantBeyondNoiseWinsWithItsIntervalAndAgreement() {
        runThrough(1.25, 1.8);

        assertThat(experiment.getStatus().phase).isEqualTo(ServingExperimentPhase.Succeeded);
        assertThat(experiment.getStatus().winner.name).isEqualTo("dflash-b8");
        assertThat(experiment.getStatus().winner.stage).isEqualTo("c32");
        assertThat(experiment.getStatus().winner.speedup).isEqualTo(1.9);
        assertThat(experiment.getStatus().winner.speedupInterval.low).isEqualTo(1.8);
        assertThat(experiment.getStatus().winner.reason)
                .isEqualTo("dflash-b8: 1.90x [1.80, 2.00] throughput at c32 over autoregressive; outputs agree 100 %");
        assertThat(experiment.getStatus().speedup).isEqualTo("1.90x [1.80, 2.00]");
        assertThat(experiment.getStatus().progress).isEqualTo("4/4");
        assertThat(variant("dflash-b8").specAcceptLength).isEqualTo(3.1);
        assertThat(Conditions.find(experiment.getStatus().conditions, ConditionTypes.READY)
                        .orElseThrow()
                        .getStatus())
                .isEqualTo("True");
    }

    @Test
    void aVariantWithSuspectOutputsNeverWins() {
        runThrough(1.25, 1.8, "dflash-b8");

        assertThat(variant("dflash-b8").qualitySuspect).isTrue();
        assertThat(experiment.getStatus().winner.name).isEqualTo("eagle3");
    }

    @Test
    void theBaselineWinsWhenNoVariantBeatsItBeyondNoise() {
        runThrough(0.9, 0.95);

        assertThat(experiment.getStatus().winner.name).isEqualTo("autoregressive");
        assertThat(experiment.getStatus().speedup).isEqualTo("baseline");
        assertThat(experiment.getStatus().winner.reason)
                .startsWith("autoregressive: no variant beat the baseline's throughput at c32 beyond noise")
                .contains("closest: dflash-b8, 1.05x [0.95, 1.15]");
    }

    @Test
    void whenTheBaselineFailsTheOthersAreBenchmarkedAndComparedWithNothing() {
        experiment.getSpec().variants.subList(2, 4).clear();
        observe(T0);
        servers.put("autoregressive", server("kimi-autoregressive", ModelServerPhase.Failed, T0, T0.plusSeconds(60)));
        observe(T0.plusSeconds(60));
        released("autoregressive");
        observe(T0.plusSeconds(70));
        benchmarked("eagle3", T0.plusSeconds(70), 10, 1300, 0);

        assertThat(variant("autoregressive").phase).isEqualTo(VariantPhase.Failed);
        assertThat(experiment.getStatus().winner.name).isEqualTo("eagle3");
        assertThat(experiment.getStatus().winner.speedup).isNull();
        assertThat(experiment.getStatus().winner.reason).contains("the baseline autoregressive has no result");
    }

    @Test
    void theBudgetRunningOutStopsTheVariantInProgressAndSkipsTheRest() {
        experiment.getSpec().maxDurationMinutes = 60;
        ExperimentStatusReport.Report started = observe(T0);
        assertThat(started.recheckAfter()).contains(Duration.ofMinutes(60));
        benchmarked("autoregressive", T0, 10, 1000, 0);
        released("autoregressive");
        observe(T0.plusSeconds(1300));
        servers.put(
                "eagle3", server("kimi-eagle3", ModelServerPhase.Ready, T0.plusSeconds(1300), T0.plusSeconds(2000)));
        observe(T0.plusSeconds(2000));
        runs.put("eagle3", run("kimi-eagle3", BenchmarkRunPhase.Running, 0, null));

        ExperimentStatusReport.Report report = observe(T0.plus(Duration.ofMinutes(60)));

        assertThat(experiment.getStatus().phase).isEqualTo(ServingExperimentPhase.Incomplete);
        assertThat(variant("eagle3").phase).isEqualTo(VariantPhase.Skipped);
        assertThat(variant("eagle3").message).startsWith("Stopped: spec.maxDurationMinutes (60) ran out");
        assertThat(variant("dflash-b8").phase).isEqualTo(VariantPhase.Skipped);
        assertThat(variant("dflash-b8").message).startsWith("Not tried");
        assertThat(report.serving()).isEmpty();
        assertThat(report.benchmarking()).isEmpty();
        assertThat(report.keptRuns()).containsExactly("autoregressive");
        assertThat(report.recheckAfter()).isEmpty();
        assertThat(experiment.getStatus().winner.name).isEqualTo("autoregressive");
        assertThat(Conditions.find(experiment.getStatus().conditions, ConditionTypes.STALLED)
                        .orElseThrow()
                        .getReason())
                .isEqualTo(ConditionReasons.BUDGET_EXHAUSTED);

        released("eagle3");
        observe(T0.plus(Duration.ofMinutes(61)));
        assertThat(experiment.getStatus().phase).isEqualTo(ServingExperimentPhase.Incomplete);
        assertThat(variant("dflash-b8").phase).isEqualTo(VariantPhase.Skipped);
    }

    @Test
    void aRestartMidBenchmarkResumesTheSameVariantAndStartsNoOther() {
        observe(T0);
        benchmarked("autoregressive", T0, 10, 1000, 0);
        released("autoregressive");
        observe(T0.plusSeconds(1300));
        servers.put(
                "eagle3", server("kimi-eagle3", ModelServerPhase.Ready, T0.plusSeconds(1300), T0.plusSeconds(2000)));
        observe(T0.plusSeconds(2000));
        runs.put("eagle3", run("kimi-eagle3", BenchmarkRunPhase.Running, 0, null));
        holdingPool.add("eagle3");

        ServingExperiment restarted = ExperimentFixtures.experiment();
        restarted.setStatus(experiment.getStatus());
        ExperimentStatusReport.Report report = new ExperimentStatusReport(Clock.systemUTC())
                .build(
                        restarted,
                        new ExperimentStatusReport.Observation(servers, runs, holdingPool, T0.plusSeconds(2600)));

        assertThat(report.serving()).containsExactly("eagle3");
        assertThat(report.benchmarking()).containsExactly("eagle3");
        assertThat(report.keptRuns()).containsExactly("autoregressive");
        assertThat(report.status().variants)
                .extracting(v -> v.phase)
                .containsExactly(
                        VariantPhase.Succeeded, VariantPhase.Benchmarking, VariantPhase.Pending, VariantPhase.Pending);
    }

    @Test
    void aFinishedVariantWhoseRunWasDeletedIsNotBenchmarkedAgain() {
        observe(T0);
        benchmarked("autoregressive", T0, 10, 1000, 0);
        runs.remove("autoregressive");

        ExperimentStatusReport.Report report = observe(T0.plusSeconds(1400));

        assertThat(variant("autoregressive").phase).isEqualTo(VariantPhase.Succeeded);
        assertThat(report.benchmarking()).isEmpty();
        assertThat(report.keptRuns()).isEmpty();
    }

    @Test
    void everyVariantFailingFailsTheExperimentNamingEach() {
        for (String name : new String[] {"autoregressive", "eagle3", "dflash-b8", "broken"}) {
            observe(T0);
            servers.put(name, server("kimi-" + name, ModelServerPhase.Failed, T0, T0));
            observe(T0);
            released(name);
        }
        observe(T0);

        assertThat(experiment.getStatus().phase).isEqualTo(ServingExperimentPhase.Failed);
        assertThat(experiment.getStatus().winner).isNull();
        assertThat(Conditions.find(experiment.getStatus().conditions, ConditionTypes.STALLED)
                        .orElseThrow()
                        .getMessage())
                .startsWith("No variant succeeded: autoregressive (Its server did not start: CudaHeadersMissing")
                .contains("broken (");
    }

    @Test
    void theWinnerStaysWhenARunIsDeletedAfterTheEnd() {
        runThrough(1.25, 1.8);
        runs.remove("dflash-b8");

        observe(T0.plus(Duration.ofHours(3)));

        assertThat(experiment.getStatus().winner.name).isEqualTo("dflash-b8");
        assertThat(experiment.getStatus().speedup).isEqualTo("1.90x [1.80, 2.00]");
    }

    @Test
    void keepWinnerServesTheWinnerUnderTheExperimentsNameOnceItEnds() {
        experiment.getSpec().keepWinner = true;
        runThrough(1.25, 1.8);

        ExperimentStatusReport.Report report = observe(T0.plus(Duration.ofHours(3)));

        assertThat(report.keptWinner()).contains("dflash-b8");
        assertThat(experiment.getStatus().winner.modelServer).isEqualTo("kimi");

        experiment.getSpec().keepWinner = false;
        assertThat(observe(T0.plus(Duration.ofHours(4))).keptWinner()).isEmpty();
        assertThat(experiment.getStatus().winner.modelServer).isNull();
    }

    @Test
    void aVariantRunThatFailsFailsTheVariantWithTheRunsReason() {
        observe(T0);
        servers.put("autoregressive", server("kimi-autoregressive", ModelServerPhase.Ready, T0, T0.plusSeconds(60)));
        observe(T0.plusSeconds(60));
        BenchmarkRun failed = run("kimi-autoregressive", BenchmarkRunPhase.Failed, 0, null);
        failed.getStatus()
                .conditions
                .add(new ConditionBuilder()
                        .withType(ConditionTypes.READY)
                        .withStatus("False")
                        .withReason("JobFailed")
                        .withMessage("the runner exited 3: the server refused every request")
                        .build());
        runs.put("autoregressive", failed);

        observe(T0.plusSeconds(600));

        assertThat(variant("autoregressive").phase).isEqualTo(VariantPhase.Failed);
        assertThat(variant("autoregressive").message)
                .isEqualTo("Its benchmark failed: the runner exited 3: the server refused every request");
    }

    /**
     * Runs every variant: the baseline at 1000 tokens/s, eagle3 and dflash-b8 with speedup intervals starting at the
     * given lows, broken failing to start; the named variants' outputs diverge.
     */
    private void runThrough(double eagleLow, double dflashLow, String... suspect) {
        observe(T0);
        Instant at = T0;
        for (String name : new String[] {"autoregressive", "eagle3", "dflash-b8"}) {
            double low = name.equals("autoregressive") ? 0 : name.equals("eagle3") ? eagleLow : dflashLow;
            benchmarked(name, at, 10, 1000 * Math.max(1, low + 0.1), low);
            if (Set.of(suspect).contains(name)) {
                runs.get(name)
                        .getStatus()
                        .conditions
                        .add(new ConditionBuilder()
                                .withType(ConditionTypes.QUALITY_SUSPECT)
                                .withStatus("True")
                                .build());
            }
            released(name);
            at = at.plus(Duration.ofMinutes(30));
            observe(at);
        }
        servers.put("broken", server("kimi-broken", ModelServerPhase.Failed, at, at.plusSeconds(200)));
        observe(at.plusSeconds(200));
        released("broken");
        observe(at.plusSeconds(210));
    }
}
