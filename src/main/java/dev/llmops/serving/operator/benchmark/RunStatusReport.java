package dev.llmops.serving.operator.benchmark;

import dev.llmops.serving.api.contract.CompactSummary;
import dev.llmops.serving.api.contract.SampleSet;
import dev.llmops.serving.api.v1alpha1.ConditionReasons;
import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.Provenance;
import dev.llmops.serving.comparison.SamplesRead;
import dev.llmops.serving.operator.benchmark.comparison.RunComparisons;
import dev.llmops.serving.operator.benchmark.comparison.SampleDecoding;
import dev.llmops.serving.operator.benchmark.comparison.SampleStore;
import dev.llmops.serving.operator.toolkit.Conditions;
import dev.llmops.serving.operator.toolkit.ReconcileErrors;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Turns what the reconciler observed of a BenchmarkRun into its whole status (phase, conditions, results, comparison)
 * and says when to look again. It makes no API call and reads the clock it is given, so every phase and transition is
 * tested on its own.
 */
public final class RunStatusReport {

    /** A benchmark Job as observed: its name, where it stands, and its pods lost so far (see {@link RunnerLosses}). */
    public record ObservedJob(String name, JobOutcome outcome, List<String> lostRunners) {

        public ObservedJob(String name, JobOutcome outcome) {
            this(name, outcome, List.of());
        }
    }

    /**
     * Everything the status is computed from: the target, the Job once it exists, the provenance (asked for once, when
     * the Job first appears), the baseline and reference runs when the spec names ones that exist, a reader of the
     * samples ConfigMap a run's status names, this run's or another's (asked only when a comparison is made), and the
     * keeper of the samples a finished Job's log holds (asked once, before the status that names them is written).
     */
    public record Observation(
            TargetState target,
            Optional<ObservedJob> job,
            Supplier<Provenance> provenance,
            Optional<BenchmarkRun> baseline,
            Optional<BenchmarkRun> reference,
            Function<BenchmarkRunStatus, SamplesRead> samples,
            Function<SampleSet, SampleStore.Kept> keepSamples) {}

    /** The new status, and when to reconcile again if no event is expected to wake the run. */
    public record Report(BenchmarkRunStatus status, Optional<Duration> recheckAfter) {}

    public static final String NO_SAMPLES_WARNING = "No per-request samples";

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private final Clock clock;
    private final Conditions conditions;
    private final Supplier<Duration> progressPoll;
    private final RunComparisons comparisons;

    /** {@code progressPoll}: how long to wait before reading a running Job's progress again. */
    public RunStatusReport(Clock clock, Supplier<Duration> progressPoll) {
        this.clock = clock;
        this.conditions = new Conditions(clock);
        this.progressPoll = progressPoll;
        this.comparisons = new RunComparisons(conditions);
    }

    public Report build(BenchmarkRun run, Observation observed) {
        BenchmarkRunStatus status = copyOfStatus(run);
        Long generation = run.getMetadata().getGeneration();
        Optional<Duration> recheck = Optional.empty();
        NewSamples fresh = new NewSamples();
        if (!isFinished(status.phase)) {
            recheck = advance(run, status, observed, fresh, generation);
        }
        if (status.phase == BenchmarkRunPhase.Succeeded) {
            Supplier<SamplesRead> own = () -> fresh.samples != null
                    ? SamplesRead.of(fresh.samples)
                    : status.samples != null
                            ? observed.samples().apply(status)
                            : SamplesRead.missing("it recorded none (see status.warnings)");
            comparisons.apply(
                    run, status, observed.baseline(), observed.reference(), own, observed.samples(), generation);
        }
        status.observedGeneration = generation;
        return new Report(status, recheck);
    }

    /**
     * The status after a reconcile failed with {@code error}: Reconciling with the error, Stalled once retries end; an
     * unfinished run fails outright when the API server refused an object it needs as invalid (its spec cannot change,
     * so nothing else would ever make it work); {@code recheck}: when a stalled run is reconciled again.
     */
    public BenchmarkRunStatus reconcileFailed(
            BenchmarkRun run, Exception error, boolean lastAttempt, Duration recheck) {
        BenchmarkRunStatus status = copyOfStatus(run);
        if (status.phase == null) {
            status.target = targetName(run);
            transition(
                    status,
                    BenchmarkRunPhase.Pending,
                    ConditionReasons.PENDING,
                    "The run has been accepted.",
                    run.getMetadata().getGeneration());
        }
        Long generation = run.getMetadata().getGeneration();
        boolean stalled = conditions.reconcileFailed(status.conditions, error, lastAttempt, generation, recheck);
        if (stalled && ReconcileErrors.isPermanent(error) && !isFinished(status.phase)) {
            String why = Conditions.find(status.conditions, ConditionTypes.STALLED)
                    .map(Condition::getMessage)
                    .orElseThrow();
            fail(status, ConditionReasons.RECONCILE_ERROR, why, generation);
        }
        return status;
    }

    /** The samples read from the log of a Job that finished in this reconcile, if any. */
    private static final class NewSamples {
        private SampleSet samples;
    }

    private Optional<Duration> advance(
            BenchmarkRun run, BenchmarkRunStatus status, Observation observed, NewSamples fresh, Long generation) {
        TargetState target = observed.target();
        status.target = target.description();
        if (observed.job().isPresent()) {
            return observe(run, status, observed, observed.job().get(), fresh, generation);
        }
        if (target.refusal().isPresent()) {
            fail(status, target.refusal().get().reason(), target.refusal().get().message(), generation);
            return Optional.empty();
        }
        if (target.ready()) {
            transition(
                    status,
                    BenchmarkRunPhase.Running,
                    ConditionReasons.CREATING_JOB,
                    "Creating Job "
                            + BenchmarkJobDependent.jobName(run.getMetadata().getName()) + ".",
                    generation);
            return Optional.of(progressPoll.get());
        }
        long timeout = run.getSpec().waitTimeoutSeconds;
        Instant giveUp = Instant.parse(run.getMetadata().getCreationTimestamp()).plusSeconds(timeout);
        Duration left = Duration.between(clock.instant(), giveUp);
        if (left.isNegative() || left.isZero()) {
            fail(
                    status,
                    ConditionReasons.SERVER_NOT_READY,
                    "Gave up after waitTimeoutSeconds (" + timeout + " s): " + target.notReadyReason(),
                    generation);
            return Optional.empty();
        }
        transition(
                status,
                BenchmarkRunPhase.WaitingForServer,
                ConditionReasons.WAITING_FOR_SERVER,
                target.notReadyReason() + ". Waiting until " + giveUp + " (spec.waitTimeoutSeconds).",
                generation);
        return Optional.of(left.plusSeconds(1));
    }

    private Optional<Duration> observe(
            BenchmarkRun run,
            BenchmarkRunStatus status,
            Observation observed,
            ObservedJob job,
            NewSamples fresh,
            Long generation) {
        status.jobName = job.name();
        status.warnings =
                RunnerLosses.withLosses(status.warnings, RunnerLosses.merge(status.warnings, job.lostRunners()));
        if (status.startTime == null) {
            status.startTime = conditions.now();
            status.provenance = observed.provenance().get();
        }
        if (job.outcome() instanceof JobOutcome.Completed completed) {
            finish(run, status, completed, observed.keepSamples(), fresh, generation);
        } else if (job.outcome() instanceof JobOutcome.Failed failed) {
            fail(status, failedReason(failed), failedMessage(job.name(), failed), generation);
        } else if (job.outcome() instanceof JobOutcome.SamplesLogUnread unread) {
            transition(
                    status,
                    BenchmarkRunPhase.Running,
                    ConditionReasons.JOB_RUNNING,
                    "Job " + status.jobName + " completed, but the log of pod " + unread.pod()
                            + " with the per-request samples could not be read (" + unread.failedReads() + " of "
                            + JobObserver.SAMPLES_LOG_READS + " reads): reading it again.",
                    generation);
            return Optional.of(JobObserver.SAMPLES_LOG_RETRY);
        } else if (run.getSpec().target.modelServer != null
                && observed.target().modelServer().isEmpty()) {
            fail(
                    status,
                    ConditionReasons.TARGET_DELETED,
                    "ModelServer " + run.getSpec().target.modelServer + " was deleted while Job " + status.jobName
                            + " was running; its results would not describe one server.",
                    generation);
        } else {
            String progress = ((JobOutcome.Running) job.outcome()).progress();
            status.progress = progress != null ? progress : status.progress;
            transition(
                    status,
                    BenchmarkRunPhase.Running,
                    ConditionReasons.JOB_RUNNING,
                    "Job " + status.jobName + " is running"
                            + (status.progress == null ? "." : " (progress " + status.progress + ")."),
                    generation);
            return Optional.of(progressPoll.get());
        }
        return Optional.empty();
    }

    private void finish(
            BenchmarkRun run,
            BenchmarkRunStatus status,
            JobOutcome.Completed completed,
            Function<SampleSet, SampleStore.Kept> keepSamples,
            NewSamples fresh,
            Long generation) {
        CompactSummary summary;
        try {
            if (completed.terminationMessage() == null) {
                throw new InvalidSummaryException(completed.missing());
            }
            summary = SummaryParser.parse(completed.terminationMessage());
        } catch (InvalidSummaryException e) {
            fail(
                    status,
                    ConditionReasons.RESULTS_INVALID,
                    "Job " + status.jobName + " finished but its results cannot be used: " + e.getMessage(),
                    generation);
            return;
        }
        List<String> losses = RunnerLosses.recorded(status.warnings);
        BenchmarkResults.apply(summary, status);
        status.warnings = RunnerLosses.withLosses(status.warnings, losses);
        SamplesRead samples = samples(completed.samplesLog());
        if (samples.rejected()) {
            fail(
                    status,
                    ConditionReasons.RESULTS_INVALID,
                    "Job " + status.jobName + " finished but its per-request samples cannot be used: "
                            + samples.problem(),
                    generation);
            return;
        }
        if (samples.present()) {
            SampleStore.Kept kept = keepSamples.apply(samples.samples());
            if (kept.refusal() != null) {
                fail(status, ConditionReasons.SAMPLES_CONFLICT, kept.refusal(), generation);
                return;
            }
            fresh.samples = samples.samples();
            status.samples = kept.configMap();
            status.samplesSha256 = kept.sha256();
        } else {
            status.warnings.add(NO_SAMPLES_WARNING + " (" + samples.problem()
                    + "): comparisons with this run give ratios without confidence intervals, verdicts or quality "
                    + "agreement.");
        }
        if (summary.model() != null) {
            status.provenance.model = summary.model();
        }
        status.progress = status.stages.size() + "/" + status.stages.size();
        if (run.getSpec().slo != null) {
            SloEvaluation slo = SloEvaluation.evaluate(run.getSpec().slo, status.stages);
            status.sloBrokenAtConcurrency = slo.brokenAtConcurrency();
            String verdict = switch (slo.verdict()) {
                case MET -> Conditions.TRUE;
                case BROKEN -> Conditions.FALSE;
                case UNKNOWN -> Conditions.UNKNOWN;
            };
            conditions.set(status.conditions, ConditionTypes.SLO_MET, verdict, slo.reason(), slo.message(), generation);
        }
        status.completionTime = conditions.now();
        transition(status, BenchmarkRunPhase.Succeeded, ConditionReasons.SUCCEEDED, headline(status), generation);
    }

    /** The samples line of the finished pod's log tail, or why there is none. */
    static SamplesRead samples(String logTail) {
        if (logTail == null) {
            return SamplesRead.missing("the benchmark pod's log could not be read");
        }
        try {
            SampleSet samples = SampleDecoding.decode(() -> SampleSet.fromLog(logTail));
            return samples == null
                    ? SamplesRead.missing("the benchmark pod's log ends without a samples line")
                    : SamplesRead.of(samples);
        } catch (IllegalArgumentException e) {
            return SamplesRead.rejected(SummaryParser.abbreviate(e.getMessage(), 200));
        }
    }

    private static String headline(BenchmarkRunStatus status) {
        var summary = status.summary;
        StringBuilder text = new StringBuilder("Benchmark finished");
        if (summary.peakTokensPerSecond != null) {
            text.append(String.format(
                    Locale.ROOT,
                    ": peak %.1f output tok/s at concurrency %s",
                    summary.peakTokensPerSecond,
                    summary.peakConcurrency));
        }
        if (summary.singleStreamTokensPerSecond != null) {
            text.append(String.format(Locale.ROOT, ", single stream %.1f tok/s", summary.singleStreamTokensPerSecond));
        }
        if (status.capacity != null) {
            text.append(", capacity ").append(status.capacity.load);
        }
        text.append(", ").append(summary.failedRequests).append(" failed requests");
        status.warnings.stream()
                .filter(w -> w.startsWith(BenchmarkResults.FAILURE_CLASSES_WARNING))
                .findFirst()
                .ifPresent(w -> text.append(" (")
                        .append(w.substring(BenchmarkResults.FAILURE_CLASSES_WARNING.length()))
                        .append(")"));
        text.append(".");
        int lost = RunnerLosses.recorded(status.warnings).size();
        if (lost > 0) {
            text.append(" The runner pod was lost ")
                    .append(lost == 1 ? "once" : lost + " times")
                    .append(" and the benchmark ran again from the start; the figures are the last pod's (see"
                            + " status.warnings).");
        }
        return text.toString();
    }

    private static String failedReason(JobOutcome.Failed failed) {
        return Optional.ofNullable(failed.exitCode())
                .flatMap(RunnerExit::of)
                .map(RunnerExit::reason)
                .orElse(failed.jobReason() != null ? failed.jobReason() : ConditionReasons.JOB_FAILED);
    }

    private static String failedMessage(String jobName, JobOutcome.Failed failed) {
        StringBuilder text = new StringBuilder("Job ").append(jobName).append(" failed: ");
        Optional<RunnerExit> exit = Optional.ofNullable(failed.exitCode()).flatMap(RunnerExit::of);
        if (exit.isPresent()) {
            text.append(exit.get().meaning());
        } else if (failed.exitCode() != null) {
            text.append("the runner exited with code ").append(failed.exitCode());
        } else {
            text.append(failed.jobMessage() != null ? failed.jobMessage() : "no pod terminated");
        }
        if (failed.exitCode() != null && failed.jobReason() != null) {
            text.append(" [").append(failed.jobReason()).append("]");
        }
        String output = failed.terminationMessage();
        if (output != null && !output.isBlank()) {
            text.append(". ").append(describeOutput(output));
        }
        return text.toString();
    }

    /** The runner's last words: the warnings and failure classes of the summary it left, else the end of its log. */
    private static String describeOutput(String output) {
        return SummaryParser.readFailure(output)
                .map(summary -> {
                    List<String> words = new ArrayList<>(summary.warnings() == null ? List.of() : summary.warnings());
                    if (summary.failuresByClass() != null
                            && !summary.failuresByClass().isEmpty()) {
                        words.add("failed requests by class: " + BenchmarkResults.failureClasses(summary));
                    }
                    return words.isEmpty()
                            ? "The runner left no explanation."
                            : "Runner: " + String.join("; ", words) + ".";
                })
                .orElseGet(() -> "Runner output: " + SummaryParser.abbreviate(output, 400));
    }

    private void fail(BenchmarkRunStatus status, String reason, String message, Long generation) {
        status.completionTime = conditions.now();
        transition(status, BenchmarkRunPhase.Failed, reason, message, generation);
    }

    /** Sets the phase and the four conditions that follow from it, all with the same reason and message. */
    private void transition(
            BenchmarkRunStatus status, BenchmarkRunPhase phase, String reason, String message, Long generation) {
        status.phase = phase;
        boolean succeeded = phase == BenchmarkRunPhase.Succeeded;
        boolean failed = phase == BenchmarkRunPhase.Failed;
        String outcome = succeeded ? Conditions.TRUE : failed ? Conditions.FALSE : Conditions.UNKNOWN;
        conditions.set(status.conditions, ConditionTypes.READY, Conditions.of(succeeded), reason, message, generation);
        conditions.set(status.conditions, ConditionTypes.SUCCEEDED, outcome, reason, message, generation);
        conditions.set(
                status.conditions,
                ConditionTypes.RECONCILING,
                Conditions.of(!succeeded && !failed),
                reason,
                message,
                generation);
        conditions.set(status.conditions, ConditionTypes.STALLED, Conditions.of(failed), reason, message, generation);
    }

    private static String targetName(BenchmarkRun run) {
        return run.getSpec().target.modelServer != null ? run.getSpec().target.modelServer : run.getSpec().target.url;
    }

    static boolean isFinished(BenchmarkRunPhase phase) {
        return phase == BenchmarkRunPhase.Succeeded || phase == BenchmarkRunPhase.Failed;
    }

    /** The run's status to change, leaving the run's own untouched so the reconciler can tell whether it changed. */
    private static BenchmarkRunStatus copyOfStatus(BenchmarkRun run) {
        return run.getStatus() == null ? new BenchmarkRunStatus() : SERIALIZATION.clone(run.getStatus());
    }
}
