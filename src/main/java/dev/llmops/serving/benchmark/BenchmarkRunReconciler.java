package dev.llmops.serving.benchmark;

import dev.llmops.serving.api.v1alpha1.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.ModelServer;
import dev.llmops.serving.config.OperatorConfig;
import dev.llmops.serving.config.ProgressPoll;
import dev.llmops.serving.runner.CompactSummary;
import dev.llmops.serving.status.Conditions;
import dev.llmops.serving.status.EventRecorder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.quarkiverse.operatorsdk.annotations.RBACRule;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Workflow;
import io.javaoperatorsdk.operator.api.reconciler.dependent.Dependent;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Drives a BenchmarkRun: waits for its ModelServer to be inference-ready, runs the benchmark Job, and copies the runner's
 * summary into the status with provenance, the SLO verdict and the comparison with a baseline run.
 * The rules below are the API calls it makes beyond those its workflow and informers imply.
 */
@ControllerConfiguration(name = BenchmarkRunReconciler.NAME)
@RBACRule(apiGroups = "batch", resources = {"jobs"}, verbs = {"get"})
@RBACRule(apiGroups = "", resources = {"pods"}, verbs = {"get", "list"})
@RBACRule(apiGroups = "", resources = {"pods/log"}, verbs = {"get"})
@RBACRule(apiGroups = "", resources = {"nodes"}, verbs = {"get"})
@RBACRule(apiGroups = "", resources = {"events"}, verbs = {"create"})
@Workflow(explicitInvocation = true,
        dependents = @Dependent(type = BenchmarkJobDependent.class, reconcilePrecondition = TargetReadyOrJobExists.class))
public class BenchmarkRunReconciler implements Reconciler<BenchmarkRun> {

    public static final String NAME = "benchmarkrun";
    public static final String READY = "Ready";
    public static final String SUCCEEDED = "Succeeded";
    public static final String RECONCILING = "Reconciling";
    public static final String STALLED = "Stalled";
    public static final String SLO_MET = "SLOMet";
    public static final String BASELINE_COMPARED = "BaselineCompared";
    static final String TARGET_SOURCE = "target-modelserver";
    static final String BASELINE_SOURCE = "baseline-run";
    private static final String BY_TARGET = "benchmarkrun-by-target";
    private static final String BY_BASELINE = "benchmarkrun-by-baseline";

    private final OperatorConfig config;
    private final ProgressPoll progressPoll;
    private final BenchmarkMetrics metrics;
    private final JobObserver jobs;
    private final ProvenanceCollector provenance;
    private final EventRecorder events;
    private final KubernetesSerialization serialization;
    private final Conditions conditions = Conditions.systemUtc();

    /** A controller that polls progress as configured, for an operator built without CDI. */
    public BenchmarkRunReconciler(KubernetesClient client, OperatorConfig config, BenchmarkMetrics metrics) {
        this(client, config, metrics, new ProgressPoll(config));
    }

    @Inject
    public BenchmarkRunReconciler(KubernetesClient client, OperatorConfig config, BenchmarkMetrics metrics, ProgressPoll progressPoll) {
        this.config = config;
        this.progressPoll = progressPoll;
        this.metrics = metrics;
        this.jobs = new JobObserver(client);
        this.provenance = new ProvenanceCollector(client);
        this.events = new EventRecorder(client);
        this.serialization = client.getKubernetesSerialization();
    }

    /**
     * Wakes a run when its target ModelServer or its baseline run changes, found through indexes of the run cache; drops
     * a deleted run's gauges.
     */
    @Override
    public List<EventSource<?, BenchmarkRun>> prepareEventSources(EventSourceContext<BenchmarkRun> context) {
        IndexerResourceCache<BenchmarkRun> runs = context.getPrimaryCache();
        runs.addIndexer(BY_TARGET, run -> keys(run, run.getSpec().target.modelServer));
        runs.addIndexer(BY_BASELINE, run -> keys(run, run.getSpec().baseline));
        var target = new InformerEventSource<>(InformerEventSourceConfiguration.from(ModelServer.class, BenchmarkRun.class)
                .withName(TARGET_SOURCE)
                .withSecondaryToPrimaryMapper(server -> referrers(runs, BY_TARGET, server))
                .withPrimaryToSecondaryMapper((BenchmarkRun run) -> referenced(run, run.getSpec().target.modelServer))
                .build(), context);
        var baseline = new InformerEventSource<>(InformerEventSourceConfiguration.from(BenchmarkRun.class, BenchmarkRun.class)
                .withName(BASELINE_SOURCE)
                .withSecondaryToPrimaryMapper(base -> referrers(runs, BY_BASELINE, base))
                .withPrimaryToSecondaryMapper((BenchmarkRun run) -> referenced(run, run.getSpec().baseline))
                .build(), context);
        return List.of(target, baseline, new DeletedRunMetrics(metrics));
    }

    @Override
    public UpdateControl<BenchmarkRun> reconcile(BenchmarkRun run, Context<BenchmarkRun> context) {
        String before = serialization.asJson(run.getStatus());
        BenchmarkRunStatus status = statusOf(run);
        Optional<Duration> recheck = Optional.empty();
        if (!isFinished(status.phase)) {
            recheck = advance(run, status, context);
        }
        if (status.phase == BenchmarkRunPhase.Succeeded) {
            compareWithBaseline(run, status, context);
            metrics.publish(run);
        }
        status.observedGeneration = run.getMetadata().getGeneration();
        UpdateControl<BenchmarkRun> control = before.equals(serialization.asJson(status))
                ? UpdateControl.noUpdate() : UpdateControl.patchStatus(run);
        recheck.ifPresent(control::rescheduleAfter);
        return control;
    }

    @Override
    public ErrorStatusUpdateControl<BenchmarkRun> updateErrorStatus(BenchmarkRun run, Context<BenchmarkRun> context, Exception e) {
        BenchmarkRunStatus status = statusOf(run);
        String message = "Reconciliation failed, retrying: " + e.getMessage();
        conditions.set(status.conditions, RECONCILING, Conditions.TRUE, "ReconcileError", message, run.getMetadata().getGeneration());
        if (context.getRetryInfo().map(RetryInfo::isLastAttempt).orElse(false)) {
            conditions.set(status.conditions, STALLED, Conditions.TRUE, "ReconcileError",
                    "Reconciliation failed and the retries are used up: " + e.getMessage(), run.getMetadata().getGeneration());
        }
        return ErrorStatusUpdateControl.patchStatus(run);
    }

    /** Moves an unfinished run on; returns when to look again if no event is expected to wake it. */
    private Optional<Duration> advance(BenchmarkRun run, BenchmarkRunStatus status, Context<BenchmarkRun> context) {
        Optional<ModelServer> server = context.getSecondaryResource(ModelServer.class, TARGET_SOURCE);
        TargetState target = TargetState.of(run, server);
        status.target = target.description();
        var workflow = context.managedWorkflowAndDependentResourceContext();
        workflow.put(BenchmarkJobDependent.Inputs.KEY, new BenchmarkJobDependent.Inputs(target, config.runner().image()));
        workflow.reconcileManagedWorkflow().throwAggregateExceptionIfErrorsPresent();
        Optional<Job> job = context.getSecondaryResource(Job.class);
        if (job.isPresent()) {
            return observe(run, status, target, job.get());
        }
        if (target.ready()) {
            transition(run, status, BenchmarkRunPhase.Running, "CreatingJob",
                    "Creating Job " + BenchmarkJobDependent.jobName(run.getMetadata().getName()) + ".");
            return Optional.of(progressPoll.interval());
        }
        return waitForServer(run, status, target);
    }

    private Optional<Duration> waitForServer(BenchmarkRun run, BenchmarkRunStatus status, TargetState target) {
        long timeout = run.getSpec().waitTimeoutSeconds;
        Instant giveUp = Instant.parse(run.getMetadata().getCreationTimestamp()).plusSeconds(timeout);
        Duration left = Duration.between(Instant.now(), giveUp);
        if (left.isNegative() || left.isZero()) {
            fail(run, status, "ServerNotReady", "Gave up after waitTimeoutSeconds (" + timeout + " s): " + target.notReadyReason());
            return Optional.empty();
        }
        transition(run, status, BenchmarkRunPhase.WaitingForServer, "WaitingForServer",
                target.notReadyReason() + ". Waiting until " + giveUp + " (spec.waitTimeoutSeconds).");
        return Optional.of(left.plusSeconds(1));
    }

    private Optional<Duration> observe(BenchmarkRun run, BenchmarkRunStatus status, TargetState target, Job job) {
        status.jobName = job.getMetadata().getName();
        if (status.startTime == null) {
            status.startTime = conditions.now();
            status.provenance = provenance.collect(target);
        }
        JobOutcome outcome = jobs.observe(job);
        if (outcome instanceof JobOutcome.Completed completed) {
            finish(run, status, completed);
        } else if (outcome instanceof JobOutcome.Failed failed) {
            fail(run, status, failedReason(failed), failedMessage(job, failed));
        } else if (run.getSpec().target.modelServer != null && target.modelServer().isEmpty()) {
            fail(run, status, "TargetDeleted", "ModelServer " + run.getSpec().target.modelServer
                    + " was deleted while Job " + status.jobName + " was running; its results would not describe one server.");
        } else {
            String progress = ((JobOutcome.Running) outcome).progress();
            status.progress = progress != null ? progress : status.progress;
            transition(run, status, BenchmarkRunPhase.Running, "JobRunning", "Job " + status.jobName + " is running"
                    + (status.progress == null ? "." : ", " + status.progress + " stages done."));
            return Optional.of(progressPoll.interval());
        }
        return Optional.empty();
    }

    private void finish(BenchmarkRun run, BenchmarkRunStatus status, JobOutcome.Completed completed) {
        CompactSummary summary;
        try {
            if (completed.terminationMessage() == null) {
                throw new InvalidSummaryException(completed.missing());
            }
            summary = SummaryParser.parse(completed.terminationMessage());
        } catch (InvalidSummaryException e) {
            fail(run, status, "ResultsInvalid", "Job " + status.jobName + " finished but its results cannot be used: " + e.getMessage());
            return;
        }
        BenchmarkResults.apply(summary, status);
        if (summary.model() != null) {
            status.provenance.model = summary.model();
        }
        // Every stage ran, also when the pod's log (its PROGRESS lines) could never be read.
        status.progress = status.stages.size() + "/" + status.stages.size();
        if (run.getSpec().slo != null) {
            SloEvaluation slo = SloEvaluation.evaluate(run.getSpec().slo, status.stages);
            status.sloBrokenAtConcurrency = slo.brokenAtConcurrency();
            String verdict = switch (slo.verdict()) {
                case MET -> Conditions.TRUE;
                case BROKEN -> Conditions.FALSE;
                case UNKNOWN -> Conditions.UNKNOWN;
            };
            conditions.set(status.conditions, SLO_MET, verdict, slo.reason(), slo.message(), run.getMetadata().getGeneration());
        }
        status.completionTime = conditions.now();
        transition(run, status, BenchmarkRunPhase.Succeeded, "Succeeded", headline(status));
    }

    private static String headline(BenchmarkRunStatus status) {
        var summary = status.summary;
        StringBuilder text = new StringBuilder("Benchmark finished");
        if (summary.peakTokensPerSecond != null) {
            text.append(String.format(": peak %.1f output tok/s at concurrency %s", summary.peakTokensPerSecond, summary.peakConcurrency));
        }
        if (summary.singleStreamTokensPerSecond != null) {
            text.append(String.format(", single stream %.1f tok/s", summary.singleStreamTokensPerSecond));
        }
        return text.append(", ").append(summary.failedRequests).append(" failed requests.").toString();
    }

    private static String failedReason(JobOutcome.Failed failed) {
        return Optional.ofNullable(failed.exitCode()).flatMap(RunnerExit::of).map(RunnerExit::reason)
                .orElse(failed.jobReason() != null ? failed.jobReason() : "JobFailed");
    }

    private static String failedMessage(Job job, JobOutcome.Failed failed) {
        StringBuilder text = new StringBuilder("Job ").append(job.getMetadata().getName()).append(" failed: ");
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
        return SummaryParser.readFailure(output).map(summary -> {
            List<String> words = new ArrayList<>(summary.warnings() == null ? List.of() : summary.warnings());
            if (summary.failuresByClass() != null && !summary.failuresByClass().isEmpty()) {
                words.add("failed requests by class: " + BenchmarkResults.failureClasses(summary));
            }
            return words.isEmpty() ? "The runner left no explanation." : "Runner: " + String.join("; ", words) + ".";
        }).orElseGet(() -> "Runner output: " + SummaryParser.abbreviate(output, 400));
    }

    private void compareWithBaseline(BenchmarkRun run, BenchmarkRunStatus status, Context<BenchmarkRun> context) {
        String name = run.getSpec().baseline;
        if (name == null || status.comparison != null) {
            return;
        }
        Optional<BenchmarkRun> baseline = context.getSecondaryResource(BenchmarkRun.class, BASELINE_SOURCE);
        BenchmarkRunPhase phase = baseline.map(b -> b.getStatus() == null ? null : b.getStatus().phase).orElse(null);
        if (baseline.isEmpty()) {
            baselineUnavailable(run, status, "BaselineNotFound", "Baseline BenchmarkRun " + name
                    + " does not exist in this namespace: no comparison.");
        } else if (phase == BenchmarkRunPhase.Failed) {
            baselineUnavailable(run, status, "BaselineFailed", "Baseline BenchmarkRun " + name + " failed: no comparison.");
        } else if (phase == BenchmarkRunPhase.Succeeded) {
            status.comparison = BaselineComparator.compare(name, status, baseline.get().getStatus());
            conditions.set(status.conditions, BASELINE_COMPARED, Conditions.TRUE, "Compared",
                    "This run reached " + BaselineComparator.describe(status.comparison) + ".", run.getMetadata().getGeneration());
        } else {
            conditions.set(status.conditions, BASELINE_COMPARED, Conditions.FALSE, "BaselinePending", "Waiting for baseline BenchmarkRun "
                    + name + " to finish (phase " + (phase == null ? "none yet" : phase) + ").", run.getMetadata().getGeneration());
        }
    }

    private void baselineUnavailable(BenchmarkRun run, BenchmarkRunStatus status, String reason, String message) {
        boolean changed = Conditions.find(status.conditions, BASELINE_COMPARED).map(c -> !reason.equals(c.getReason())).orElse(true);
        conditions.set(status.conditions, BASELINE_COMPARED, Conditions.FALSE, reason, message, run.getMetadata().getGeneration());
        if (changed) {
            events.record(run, EventRecorder.WARNING, reason, message);
        }
    }

    private void fail(BenchmarkRun run, BenchmarkRunStatus status, String reason, String message) {
        status.completionTime = conditions.now();
        transition(run, status, BenchmarkRunPhase.Failed, reason, message);
    }

    /** Sets the phase and the conditions that follow from it; records an event when the phase changes. */
    private void transition(BenchmarkRun run, BenchmarkRunStatus status, BenchmarkRunPhase phase, String reason, String message) {
        BenchmarkRunPhase before = status.phase;
        status.phase = phase;
        Long generation = run.getMetadata().getGeneration();
        switch (phase) {
            case Succeeded -> {
                conditions.set(status.conditions, READY, Conditions.TRUE, reason, message, generation);
                conditions.set(status.conditions, SUCCEEDED, Conditions.TRUE, reason, message, generation);
                conditions.set(status.conditions, RECONCILING, Conditions.FALSE, reason, message, generation);
                conditions.set(status.conditions, STALLED, Conditions.FALSE, reason, message, generation);
            }
            case Failed -> {
                conditions.set(status.conditions, READY, Conditions.FALSE, reason, message, generation);
                conditions.set(status.conditions, SUCCEEDED, Conditions.FALSE, reason, message, generation);
                conditions.set(status.conditions, RECONCILING, Conditions.FALSE, reason, message, generation);
                conditions.set(status.conditions, STALLED, Conditions.TRUE, reason, message, generation);
            }
            default -> {
                conditions.set(status.conditions, READY, Conditions.FALSE, reason, message, generation);
                conditions.set(status.conditions, SUCCEEDED, Conditions.UNKNOWN, reason, message, generation);
                conditions.set(status.conditions, RECONCILING, Conditions.TRUE, reason, message, generation);
                conditions.set(status.conditions, STALLED, Conditions.FALSE, reason, message, generation);
            }
        }
        if (before != phase) {
            events.record(run, phase == BenchmarkRunPhase.Failed ? EventRecorder.WARNING : EventRecorder.NORMAL, reason, message);
        }
    }

    /** The run's status, created on the first reconcile with phase Pending and Ready=False. */
    private BenchmarkRunStatus statusOf(BenchmarkRun run) {
        if (run.getStatus() == null) {
            run.setStatus(new BenchmarkRunStatus());
        }
        BenchmarkRunStatus status = run.getStatus();
        if (status.phase == null) {
            status.target = run.getSpec().target.modelServer != null ? run.getSpec().target.modelServer : run.getSpec().target.url;
            transition(run, status, BenchmarkRunPhase.Pending, "Pending", "The run has been accepted.");
        }
        return status;
    }

    private static boolean isFinished(BenchmarkRunPhase phase) {
        return phase == BenchmarkRunPhase.Succeeded || phase == BenchmarkRunPhase.Failed;
    }

    private static List<String> keys(BenchmarkRun run, String referenced) {
        return referenced == null ? List.of() : List.of(run.getMetadata().getNamespace() + "/" + referenced);
    }

    private static Set<ResourceID> referrers(IndexerResourceCache<BenchmarkRun> runs, String index, HasMetadata referenced) {
        return runs.byIndex(index, referenced.getMetadata().getNamespace() + "/" + referenced.getMetadata().getName()).stream()
                .map(ResourceID::fromResource).collect(Collectors.toSet());
    }

    private static Set<ResourceID> referenced(BenchmarkRun run, String name) {
        return name == null ? Set.of() : Set.of(new ResourceID(name, run.getMetadata().getNamespace()));
    }
}
