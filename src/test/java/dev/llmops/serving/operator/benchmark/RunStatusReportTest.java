package dev.llmops.serving.operator.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.contract.SampleSet;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.Provenance;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.BenchmarkTarget;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.SloSpec;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.comparison.SamplesRead;
import dev.llmops.serving.operator.benchmark.comparison.SampleStore;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Every phase and transition of a BenchmarkRun's status, computed from observations alone: no API server. */
class RunStatusReportTest {

    private static final Duration RECHECK = Duration.ofMinutes(2);

    private static final Instant CREATED = Instant.parse("2026-12-01T10:00:00Z");
    private static final Duration POLL = Duration.ofSeconds(30);
    private static final String SUMMARY = """
            {"v":1,"model":"kimi-k2","stages":[
            {"n":"single","c":1,"ok":3,"fail":0,"otps":48.0,"ttft":[120,121,125,130,131],"tpot":[20,20,20,21,22]},
            {"n":"c8","c":8,"ok":32,"fail":0,"otps":380.0,"ttft":[130,131,140,150,151],"tpot":[20,20,20,21,22]},
            {"n":"c16","c":16,"ok":64,"fail":0,"otps":750.5,"ttft":[140,141,150,160,161],"tpot":[20,20,20,21,22]}],
            "sum":{"sstps":48.0,"peak":750.5,"peakc":16,"fail":0}}""";

    @Test
    void aNewRunWaitsForItsServerUntilTheWaitTimeout() {
        RunStatusReport.Report report = at(CREATED.plusSeconds(10)).build(run("kimi", null), notReady());

        BenchmarkRunStatus status = report.status();
        assertThat(status.phase).isEqualTo(BenchmarkRunPhase.WaitingForServer);
        assertThat(status.target).isEqualTo("kimi");
        assertThat(status.observedGeneration).isEqualTo(3L);
        assertThat(conditions(status))
                .containsEntry("Ready", "False/WaitingForServer")
                .containsEntry("Succeeded", "Unknown/WaitingForServer")
                .containsEntry("Reconciling", "True/WaitingForServer")
                .containsEntry("Stalled", "False/WaitingForServer");
        assertThat(condition(status, "Ready").getMessage())
                .isEqualTo("ModelServer kimi does not exist. Waiting until 2026-12-01T10:01:40Z "
                        + "(spec.waitTimeoutSeconds).");
        assertThat(condition(status, "Ready").getObservedGeneration()).isEqualTo(3L);
        assertThat(report.recheckAfter()).contains(Duration.ofSeconds(91));
    }

    @Test
    void aRunWhoseServerIsNotReadyInTimeFailsWithServerNotReadyAndIsNotLookedAtAgain() {
        RunStatusReport.Report report = at(CREATED.plusSeconds(100)).build(run("kimi", null), notReady());

        BenchmarkRunStatus status = report.status();
        assertThat(status.phase).isEqualTo(BenchmarkRunPhase.Failed);
        assertThat(conditions(status))
                .containsEntry("Ready", "False/ServerNotReady")
                .containsEntry("Succeeded", "False/ServerNotReady")
                .containsEntry("Reconciling", "False/ServerNotReady")
                .containsEntry("Stalled", "True/ServerNotReady");
        assertThat(condition(status, "Stalled").getMessage())
                .isEqualTo("Gave up after waitTimeoutSeconds (100 s): ModelServer kimi does not exist");
        assertThat(status.completionTime).isEqualTo("2026-12-01T10:01:40Z");
        assertThat(report.recheckAfter()).isEmpty();
    }

    @Test
    void aReadyTargetWithoutAJobYetIsRunningWhileTheJobIsCreated() {
        RunStatusReport.Report report = at(CREATED.plusSeconds(5)).build(run("kimi", null), ready(Optional.empty()));

        assertThat(report.status().phase).isEqualTo(BenchmarkRunPhase.Running);
        assertThat(conditions(report.status()))
                .containsEntry("Ready", "False/CreatingJob")
                .containsEntry("Reconciling", "True/CreatingJob");
        assertThat(condition(report.status(), "Ready").getMessage()).isEqualTo("Creating Job kimi-run-bench.");
        assertThat(report.recheckAfter()).contains(POLL);
    }

    @Test
    void aRunningJobShowsItsProgressAndTheProvenanceIsReadOnce() {
        AtomicInteger provenanceReads = new AtomicInteger();
        BenchmarkRun run = run("kimi", null);
        var observation = new RunStatusReport.Observation(
                readyTarget(),
                Optional.of(job(new JobOutcome.Running("2/5 c16"))),
                () -> {
                    provenanceReads.incrementAndGet();
                    return provenance();
                },
                Optional.empty(),
                Optional.empty(),
                RunStatusReportTest::noSamples,
                RunStatusReportTest::keep);

        run.setStatus(at(CREATED.plusSeconds(5)).build(run, observation).status());
        BenchmarkRunStatus status =
                at(CREATED.plusSeconds(40)).build(run, observation).status();

        assertThat(status.phase).isEqualTo(BenchmarkRunPhase.Running);
        assertThat(status.jobName).isEqualTo("kimi-run-bench");
        assertThat(status.progress).isEqualTo("2/5 c16");
        assertThat(status.startTime).isEqualTo("2026-12-01T10:00:05Z");
        assertThat(status.provenance.gpuProduct).isEqualTo("NVIDIA-RTX-PRO-6000");
        assertThat(provenanceReads).hasValue(1);
        assertThat(condition(status, "Ready").getMessage())
                .isEqualTo("Job kimi-run-bench is running (progress 2/5 c16).");
        assertThat(condition(status, "Ready").getLastTransitionTime())
                .as("unchanged status keeps its transition time")
                .isEqualTo("2026-12-01T10:00:05Z");
    }

    @Test
    void aRunnerPodLostOnTheWayIsRecordedOnceAndStaysInTheFinishedRunsStatus() {
        BenchmarkRun run = run("kimi", null);
        String deleted = "Runner pod kimi-run-bench-x7k2p was lost before it finished: deleted.";
        String sameWhenGone = "Runner pod kimi-run-bench-x7k2p was lost before it finished: failed, exit code 137.";

        run.setStatus(at(CREATED.plusSeconds(30))
                .build(run, ready(Optional.of(lost(new JobOutcome.Running("1/3 c4"), List.of(deleted)))))
                .status());
        assertThat(run.getStatus().warnings).containsExactly(deleted);
        run.setStatus(at(CREATED.plusSeconds(35))
                .build(run, ready(Optional.of(lost(new JobOutcome.Running(null), List.of(sameWhenGone)))))
                .status());
        BenchmarkRunStatus finished = at(CREATED.plusSeconds(90))
                .build(run, ready(Optional.of(job(new JobOutcome.Completed(SUMMARY, null, null)))))
                .status();

        assertThat(finished.phase).isEqualTo(BenchmarkRunPhase.Succeeded);
        assertThat(finished.warnings).first().isEqualTo(deleted);
        assertThat(finished.warnings).filteredOn(w -> w.contains("x7k2p")).hasSize(1);
        assertThat(condition(finished, "Ready").getMessage())
                .endsWith(" The runner pod was lost once and the benchmark ran again from the start; the figures are"
                        + " the last pod's (see status.warnings).");
    }

    @Test
    void theHeadlineOfARunThatLostRequestsSaysHowTheyFailed() {
        String lostServer = """
                {"v":1,"model":"kimi-k2","stages":[{"n":"c4","c":4,"ok":0,"fail":96,"otps":0.0}],\
                "fails":{"connect":92,"disconnect":4},"sum":{"peak":0.0,"peakc":4,"fail":96}}""";

        BenchmarkRunStatus status = at(CREATED.plusSeconds(60))
                .build(run("kimi", null), ready(Optional.of(job(new JobOutcome.Completed(lostServer, null, null)))))
                .status();

        assertThat(condition(status, "Ready").getMessage())
                .endsWith(", 96 failed requests (connect=92, disconnect=4).");
    }

    @Test
    void aCompletedJobPutsItsResultsTheSloVerdictAndAHeadlineInTheStatus() {
        BenchmarkRun run = run("kimi", null);
        run.getSpec().slo = new SloSpec();
        run.getSpec().slo.ttftP99Millis = 155;

        RunStatusReport.Report report = at(CREATED.plusSeconds(60))
                .build(run, ready(Optional.of(job(new JobOutcome.Completed(SUMMARY, null, null)))));

        BenchmarkRunStatus status = report.status();
        assertThat(status.phase).isEqualTo(BenchmarkRunPhase.Succeeded);
        assertThat(status.stages).extracting(s -> s.name).containsExactly("single", "c8", "c16");
        assertThat(status.progress).isEqualTo("3/3");
        assertThat(status.summary.peakTokensPerSecond).isEqualTo(750.5);
        assertThat(status.summary.peakConcurrency).isEqualTo(16);
        assertThat(status.provenance.model).isEqualTo("kimi-k2");
        assertThat(status.sloBrokenAtConcurrency).isEqualTo(16);
        assertThat(conditions(status))
                .containsEntry("Ready", "True/Succeeded")
                .containsEntry("Succeeded", "True/Succeeded")
                .containsEntry("Reconciling", "False/Succeeded")
                .containsEntry("Stalled", "False/Succeeded")
                .containsKey("SLOMet");
        assertThat(condition(status, "SLOMet").getStatus()).isEqualTo("False");
        assertThat(condition(status, "Ready").getMessage())
                .isEqualTo("Benchmark finished: peak 750.5 output tok/s at concurrency 16, single stream 48.0 tok/s, 0 "
                        + "failed requests.");
        assertThat(status.completionTime).isEqualTo("2026-12-01T10:01:00Z");
        assertThat(report.recheckAfter()).isEmpty();
    }

    @Test
    void aCompletedJobWithoutASummaryFailsWithResultsInvalid() {
        BenchmarkRunStatus status = at(CREATED.plusSeconds(60))
                .build(
                        run("kimi", null),
                        ready(Optional.of(
                                job(new JobOutcome.Completed(null, "the pod left no termination message", null)))))
                .status();

        assertThat(status.phase).isEqualTo(BenchmarkRunPhase.Failed);
        assertThat(conditions(status)).containsEntry("Stalled", "True/ResultsInvalid");
        assertThat(condition(status, "Ready").getMessage())
                .isEqualTo("Job kimi-run-bench finished but its results cannot be used: the pod left no termination "
                        + "message");
    }

    @Test
    void aFailedJobSaysWhatTheRunnersExitCodeMeans() {
        BenchmarkRunStatus status = at(CREATED.plusSeconds(60))
                .build(
                        run("kimi", null),
                        ready(Optional.of(job(new JobOutcome.Failed(3, "BackoffLimitExceeded", null, "no tokens")))))
                .status();

        assertThat(status.phase).isEqualTo(BenchmarkRunPhase.Failed);
        assertThat(conditions(status)).containsEntry("Ready", "False/TargetNotInferenceReady");
        assertThat(condition(status, "Ready").getMessage())
                .isEqualTo("Job kimi-run-bench failed: the target was unreachable"
                        + " or did not generate (exit code 3) [BackoffLimitExceeded]. Runner output: no tokens");
    }

    @Test
    void aJobThatFailedWithoutAnyPodTerminatingQuotesTheJob() {
        BenchmarkRunStatus status = at(CREATED.plusSeconds(60))
                .build(
                        run("kimi", null),
                        ready(Optional.of(job(new JobOutcome.Failed(
                                null, "DeadlineExceeded", "Job was active longer than specified", null)))))
                .status();

        assertThat(conditions(status)).containsEntry("Stalled", "True/DeadlineExceeded");
        assertThat(condition(status, "Ready").getMessage())
                .isEqualTo("Job kimi-run-bench failed: Job was active longer than specified");
    }

    @Test
    void aTargetDeletedWhileTheJobRunsFailsTheRun() {
        var observation = new RunStatusReport.Observation(
                TargetState.of(run("kimi", null), Optional.empty(), new ApiKeyHosts(List.of())),
                Optional.of(job(new JobOutcome.Running(null))),
                RunStatusReportTest::provenance,
                Optional.empty(),
                Optional.empty(),
                RunStatusReportTest::noSamples,
                RunStatusReportTest::keep);

        BenchmarkRunStatus status = at(CREATED.plusSeconds(60))
                .build(run("kimi", null), observation)
                .status();

        assertThat(conditions(status)).containsEntry("Stalled", "True/TargetDeleted");
        assertThat(condition(status, "Ready").getMessage())
                .isEqualTo("ModelServer kimi was deleted while Job kimi-run-bench"
                        + " was running; its results would not describe one server.");
    }

    @Test
    void aFinishedRunIsComparedWithItsBaselineOnceTheBaselineHasSucceeded() {
        BenchmarkRun run = succeeded(run("eagle3", "autoregressive"), 1500.0);

        BenchmarkRunStatus pending =
                compare(run, Optional.of(withPhase(run("autoregressive", null), BenchmarkRunPhase.Running)));
        BenchmarkRunStatus missing = compare(run, Optional.empty());
        BenchmarkRunStatus failed =
                compare(run, Optional.of(withPhase(run("autoregressive", null), BenchmarkRunPhase.Failed)));
        BenchmarkRunStatus compared = compare(run, Optional.of(succeeded(run("autoregressive", null), 750.0)));

        assertThat(conditions(pending)).containsEntry("BaselineCompared", "False/BaselinePending");
        assertThat(condition(pending, "BaselineCompared").getMessage())
                .isEqualTo("Waiting for baseline BenchmarkRun autoregressive to finish (phase Running).");
        assertThat(conditions(missing)).containsEntry("BaselineCompared", "False/BaselineNotFound");
        assertThat(conditions(failed)).containsEntry("BaselineCompared", "False/BaselineFailed");
        assertThat(conditions(compared)).containsEntry("BaselineCompared", "True/Compared");
        assertThat(compared.comparison.peakThroughputSpeedup).isEqualTo(2.0);
        assertThat(compared.phase).isEqualTo(BenchmarkRunPhase.Succeeded);
    }

    @Test
    void aFailedReconcileSaysSoAndStallsOnceTheRetriesAreUsedUp() {
        RunStatusReport report = at(CREATED);
        BenchmarkRun run = run("kimi", null);

        BenchmarkRunStatus retrying =
                report.reconcileFailed(run, new IllegalStateException("API down"), false, RECHECK);
        BenchmarkRunStatus exhausted =
                report.reconcileFailed(run, new IllegalStateException("API down"), true, RECHECK);

        assertThat(retrying.phase).isEqualTo(BenchmarkRunPhase.Pending);
        assertThat(conditions(retrying))
                .containsEntry("Reconciling", "True/ReconcileError")
                .containsEntry("Stalled", "False/Pending")
                .containsEntry("Ready", "False/Pending");
        assertThat(condition(retrying, "Reconciling").getMessage())
                .isEqualTo("Reconciliation failed, retrying: API down");
        assertThat(conditions(exhausted)).containsEntry("Stalled", "True/ReconcileError");
        assertThat(condition(exhausted, "Stalled").getMessage())
                .isEqualTo("Reconciliation failed and the retries are used up; tried again every 120 s and on any"
                        + " change: API down");
    }

    private static BenchmarkRunStatus compare(BenchmarkRun run, Optional<BenchmarkRun> baseline) {
        return at(CREATED.plusSeconds(300))
                .build(
                        run,
                        new RunStatusReport.Observation(
                                readyTarget(),
                                Optional.empty(),
                                RunStatusReportTest::provenance,
                                baseline,
                                Optional.empty(),
                                RunStatusReportTest::noSamples,
                                RunStatusReportTest::keep))
                .status();
    }

    private static BenchmarkRun succeeded(BenchmarkRun run, double peak) {
        String summary = SUMMARY.replace("750.5", Double.toString(peak));
        run.setStatus(at(CREATED.plusSeconds(60))
                .build(run, ready(Optional.of(job(new JobOutcome.Completed(summary, null, null)))))
                .status());
        return run;
    }

    private static BenchmarkRun withPhase(BenchmarkRun run, BenchmarkRunPhase phase) {
        run.setStatus(new BenchmarkRunStatus());
        run.getStatus().phase = phase;
        return run;
    }

    private static RunStatusReport at(Instant now) {
        return new RunStatusReport(Clock.fixed(now, ZoneOffset.UTC), () -> POLL);
    }

    private static BenchmarkRun run(String server, String baseline) {
        BenchmarkRun run = new BenchmarkRun();
        run.setMetadata(new ObjectMetaBuilder()
                .withName(server + "-run")
                .withNamespace("llm")
                .withGeneration(3L)
                .withCreationTimestamp(CREATED.toString())
                .build());
        BenchmarkRunSpec spec = new BenchmarkRunSpec();
        spec.target = new BenchmarkTarget();
        spec.target.modelServer = server;
        spec.waitTimeoutSeconds = 100;
        spec.baseline = baseline;
        run.setSpec(spec);
        return run;
    }

    private static RunStatusReport.Observation notReady() {
        return new RunStatusReport.Observation(
                TargetState.of(run("kimi", null), Optional.empty(), new ApiKeyHosts(List.of())),
                Optional.empty(),
                RunStatusReportTest::provenance,
                Optional.empty(),
                Optional.empty(),
                RunStatusReportTest::noSamples,
                RunStatusReportTest::keep);
    }

    private static RunStatusReport.Observation ready(Optional<RunStatusReport.ObservedJob> job) {
        return new RunStatusReport.Observation(
                readyTarget(),
                job,
                RunStatusReportTest::provenance,
                Optional.empty(),
                Optional.empty(),
                RunStatusReportTest::noSamples,
                RunStatusReportTest::keep);
    }

    private static SamplesRead noSamples(BenchmarkRunStatus status) {
        return SamplesRead.missing("ConfigMap " + status.samples + " does not exist");
    }

    /** Keeps samples as the operator would, in a ConfigMap named after the Job's run. */
    private static SampleStore.Kept keep(SampleSet samples) {
        return new SampleStore.Kept("kept-samples", "sha256-of-kept-samples", null);
    }

    private static TargetState readyTarget() {
        return new TargetState(
                "kimi", true, "http://kimi.llm.svc:30000", "kimi-k2", Optional.of(new ModelServer()), null);
    }

    private static RunStatusReport.ObservedJob job(JobOutcome outcome) {
        return new RunStatusReport.ObservedJob("kimi-run-bench", outcome);
    }

    private static RunStatusReport.ObservedJob lost(JobOutcome outcome, List<String> lostRunners) {
        return new RunStatusReport.ObservedJob("kimi-run-bench", outcome, lostRunners);
    }

    private static Provenance provenance() {
        Provenance provenance = new Provenance();
        provenance.model = "kimi-k2";
        provenance.gpuProduct = "NVIDIA-RTX-PRO-6000";
        return provenance;
    }

    private static Map<String, String> conditions(BenchmarkRunStatus status) {
        return status.conditions.stream()
                .collect(Collectors.toMap(Condition::getType, c -> c.getStatus() + "/" + c.getReason()));
    }

    private static Condition condition(BenchmarkRunStatus status, String type) {
        return status.conditions.stream()
                .filter(c -> type.equals(c.getType()))
                .findFirst()
                .orElseThrow();
    }
}
