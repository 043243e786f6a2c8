package dev.llmops.serving.benchmark;

import dev.llmops.serving.api.v1alpha1.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.CapacityOutcome;
import dev.llmops.serving.api.v1alpha1.ConditionReasons;
import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.ModelServer;
import dev.llmops.serving.config.OperatorConfig;
import dev.llmops.serving.config.ProgressPoll;
import dev.llmops.serving.status.ConditionMetrics;
import dev.llmops.serving.status.Conditions;
import dev.llmops.serving.status.EventRecorder;
import dev.llmops.serving.status.ReconcileErrors;
import dev.llmops.serving.status.StatusWrite;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
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
import io.quarkiverse.operatorsdk.annotations.RBACRule;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Drives a BenchmarkRun: waits for its ModelServer to be inference-ready, runs the benchmark Job, and copies the
 * runner's summary into the status with provenance, the SLO verdict and the comparisons with the baseline and reference
 * runs, keeping the runner's per-request samples in a ConfigMap for them. The rules below are the API calls it makes
 * beyond those its workflow and informers imply.
 */
@ControllerConfiguration(name = BenchmarkRunReconciler.NAME)
@RBACRule(
        apiGroups = "batch",
        resources = {"jobs"},
        verbs = {"get"})
@RBACRule(
        apiGroups = "",
        resources = {"pods"},
        verbs = {"get", "list", "watch"})
@RBACRule(
        apiGroups = "",
        resources = {"pods/log"},
        verbs = {"get"})
@RBACRule(
        apiGroups = "",
        resources = {"nodes"},
        verbs = {"get"})
@RBACRule(
        apiGroups = "",
        resources = {"events"},
        verbs = {"create"})
@RBACRule(
        apiGroups = "",
        resources = {"configmaps"},
        verbs = {"get", "create"})
@Workflow(
        explicitInvocation = true,
        dependents =
                @Dependent(
                        name = "job",
                        type = BenchmarkJobDependent.class,
                        reconcilePrecondition = TargetReadyOrJobExists.class))
public class BenchmarkRunReconciler implements Reconciler<BenchmarkRun> {

    public static final String NAME = "benchmarkrun";
    static final String TARGET_SOURCE = "target-modelserver";
    private static final String BY_TARGET = "benchmarkrun-by-target";
    private static final String BY_COMPARED = "benchmarkrun-by-compared-run";
    private static final String BY_JOB = "benchmarkrun-by-job";
    private static final String PODS_SOURCE = "benchmark-pods";
    /** Reason of the capacity event: CapacityFound, CapacityBudgetExhausted or CapacityNeverMet. */
    static final String CAPACITY_EVENT_PREFIX = "Capacity";

    private static final Set<String> BASELINE_UNAVAILABLE =
            Set.of(ConditionReasons.BASELINE_NOT_FOUND, ConditionReasons.BASELINE_FAILED);
    /** Phases a run only passes through on its way to a result: the status says all there is, no Event. */
    private static final Set<BenchmarkRunPhase> MOMENTARY =
            EnumSet.of(BenchmarkRunPhase.Pending, BenchmarkRunPhase.WaitingForServer);

    private final OperatorConfig config;
    private final BenchmarkMetrics metrics;
    private final JobObserver jobs;
    private final ProvenanceCollector provenance;
    private final EventRecorder events;
    private final RunStatusReport statusReport;
    private final SampleStore samples;
    private final ServingPodMetrics servingPods;
    private final ApiKeyHosts apiKeyHosts;
    private final ConditionMetrics conditionMetrics;
    private final Clock clock = Clock.systemUTC();

    @Inject
    public BenchmarkRunReconciler(
            KubernetesClient client,
            OperatorConfig config,
            BenchmarkMetrics metrics,
            ProgressPoll progressPoll,
            ConditionMetrics conditionMetrics) {
        this.config = config;
        this.conditionMetrics = conditionMetrics;
        this.metrics = metrics;
        this.jobs = new JobObserver(client);
        this.provenance = new ProvenanceCollector(client);
        this.events = new EventRecorder(client);
        this.statusReport = new RunStatusReport(clock, progressPoll::interval);
        this.samples = new SampleStore(client);
        this.servingPods = new ServingPodMetrics(client);
        this.apiKeyHosts = new ApiKeyHosts(config.benchmark().apiKeyHosts().orElse(List.of()));
    }

    /**
     * Wakes a run when its target ModelServer, its baseline or reference run or its benchmark pod changes, found
     * through indexes of the run cache (baseline and reference runs are read from that cache too, not from a second
     * one); caches the benchmark pods the run reads its outcome from; drops a deleted run's gauges.
     */
    @Override
    public List<EventSource<?, BenchmarkRun>> prepareEventSources(EventSourceContext<BenchmarkRun> context) {
        IndexerResourceCache<BenchmarkRun> runs = context.getPrimaryCache();
        runs.addIndexer(BY_TARGET, run -> keys(run, run.getSpec().target.modelServer));
        runs.addIndexer(BY_COMPARED, run -> comparedKeys(run));
        runs.addIndexer(
                BY_JOB,
                run -> keys(run, BenchmarkJobDependent.jobName(run.getMetadata().getName())));
        var pods = new InformerEventSource<>(
                InformerEventSourceConfiguration.from(Pod.class, BenchmarkRun.class)
                        .withName(PODS_SOURCE)
                        .withLabelSelector(Labels.BENCHMARK_JOBS)
                        .withSecondaryToPrimaryMapper(pod -> runs
                                .byIndex(
                                        BY_JOB,
                                        pod.getMetadata().getNamespace() + "/"
                                                + pod.getMetadata().getLabels().get(Labels.INSTANCE))
                                .stream()
                                .map(ResourceID::fromResource)
                                .collect(Collectors.toSet()))
                        .build(),
                context);
        var target = new InformerEventSource<>(
                InformerEventSourceConfiguration.from(ModelServer.class, BenchmarkRun.class)
                        .withName(TARGET_SOURCE)
                        .withSecondaryToPrimaryMapper(server -> referrers(runs, BY_TARGET, server))
                        .withPrimaryToSecondaryMapper(
                                (BenchmarkRun run) -> referenced(run, run.getSpec().target.modelServer))
                        .build(),
                context);
        return List.of(
                target,
                new ComparedRunEvents(runs, BY_COMPARED),
                pods,
                new DeletedRunMetrics(metrics),
                conditionMetrics.eventSource(
                        BenchmarkRun.class, run -> run.getStatus() == null ? null : run.getStatus().conditions));
    }

    @Override
    public UpdateControl<BenchmarkRun> reconcile(BenchmarkRun run, Context<BenchmarkRun> context) {
        TargetState target =
                TargetState.of(run, context.getSecondaryResource(ModelServer.class, TARGET_SOURCE), apiKeyHosts);
        Optional<Duration> firstStatusWait = FirstStatusWait.remaining(
                run, target, context.getSecondaryResource(Job.class).isPresent(), clock.instant());
        if (firstStatusWait.isPresent()) {
            return UpdateControl.<BenchmarkRun>noUpdate().rescheduleAfter(firstStatusWait.get());
        }
        BenchmarkRunStatus before = run.getStatus();
        RunStatusReport.Observation observation = observe(run, target, context);
        RunStatusReport.Report report = statusReport.build(run, observation);
        BenchmarkRunStatus status = report.status();
        run.setStatus(status);
        if (!status.equals(before) && !StatusWrite.apply(run, context)) {
            return UpdateControl.<BenchmarkRun>noUpdate().rescheduleAfter(StatusWrite.STALE_COPY_RECHECK);
        }
        recordTransitions(run, before, status);
        if (status.phase == BenchmarkRunPhase.Succeeded) {
            metrics.publish(run);
            metrics.publishComparisons(run);
        }
        UpdateControl<BenchmarkRun> control = UpdateControl.noUpdate();
        report.recheckAfter().ifPresent(control::rescheduleAfter);
        return control;
    }

    @Override
    public ErrorStatusUpdateControl<BenchmarkRun> updateErrorStatus(
            BenchmarkRun run, Context<BenchmarkRun> context, Exception e) {
        boolean lastAttempt =
                context.getRetryInfo().map(RetryInfo::isLastAttempt).orElse(false);
        run.setStatus(statusReport.reconcileFailed(run, e, lastAttempt, config.stalledRecheck()));
        return ReconcileErrors.afterFailure(run, e, lastAttempt, config.stalledRecheck());
    }

    /**
     * Gathers what the status is computed from; while the run is unfinished, first lets the workflow create the Job
     * once the target is ready.
     */
    private RunStatusReport.Observation observe(BenchmarkRun run, TargetState target, Context<BenchmarkRun> context) {
        boolean finished = run.getStatus() != null && RunStatusReport.isFinished(run.getStatus().phase);
        Optional<RunStatusReport.ObservedJob> job = Optional.empty();
        if (!finished) {
            List<String> metricsUrls =
                    target.ready() && context.getSecondaryResource(Job.class).isEmpty()
                            ? servingPods.of(target.modelServer())
                            : List.of();
            var workflow = context.managedWorkflowAndDependentResourceContext();
            workflow.put(
                    BenchmarkJobDependent.Inputs.KEY,
                    new BenchmarkJobDependent.Inputs(
                            target, metricsUrls, config.runner().image()));
            workflow.reconcileManagedWorkflow().throwAggregateExceptionIfErrorsPresent();
            Set<Pod> pods = context.getSecondaryResources(Pod.class);
            job = context.getSecondaryResource(Job.class)
                    .map(j -> new RunStatusReport.ObservedJob(
                            j.getMetadata().getName(), jobs.observe(j, pods), JobObserver.lostRunners(j, pods)));
        }
        String namespace = run.getMetadata().getNamespace();
        Map<String, SamplesRead> read = new HashMap<>();
        return new RunStatusReport.Observation(
                target,
                job,
                () -> provenance.collect(target, context.getSecondaryResource(Job.class)),
                named(context, namespace, run.getSpec().baseline),
                named(context, namespace, run.getSpec().reference == null ? null : run.getSpec().reference.name),
                status -> read.computeIfAbsent(
                        status.samples, name -> samples.read(namespace, name, status.samplesSha256)),
                set -> samples.store(run, set));
    }

    private static Optional<BenchmarkRun> named(Context<BenchmarkRun> context, String namespace, String name) {
        return name == null ? Optional.empty() : context.getPrimaryCache().get(new ResourceID(name, namespace));
    }

    /**
     * An event for each change of phase but into Pending and WaitingForServer (momentary: one API write per run for
     * nothing to act on), one when a capacity search's result arrives (a warning when no load met the SLO), a warning
     * when the baseline turns out to be missing or failed, and one when the run turns out to have regressed, improved
     * or changed its outputs.
     */
    private void recordTransitions(BenchmarkRun run, BenchmarkRunStatus before, BenchmarkRunStatus after) {
        if (after.capacity != null && (before == null || before.capacity == null)) {
            events.record(
                    run,
                    after.capacity.outcome == CapacityOutcome.NeverMet ? EventRecorder.WARNING : EventRecorder.NORMAL,
                    CAPACITY_EVENT_PREFIX + after.capacity.outcome,
                    CapacityResults.describe(after.capacity));
        }
        if ((before == null || before.phase != after.phase) && !MOMENTARY.contains(after.phase)) {
            Conditions.find(after.conditions, ConditionTypes.READY)
                    .ifPresent(ready -> events.record(
                            run,
                            after.phase == BenchmarkRunPhase.Failed ? EventRecorder.WARNING : EventRecorder.NORMAL,
                            ready.getReason(),
                            ready.getMessage()));
        }
        Optional<Condition> compared = Conditions.find(after.conditions, ConditionTypes.BASELINE_COMPARED)
                .filter(c -> BASELINE_UNAVAILABLE.contains(c.getReason()));
        String reasonBefore = before == null
                ? null
                : Conditions.find(before.conditions, ConditionTypes.BASELINE_COMPARED)
                        .map(Condition::getReason)
                        .orElse(null);
        compared.filter(c -> !c.getReason().equals(reasonBefore))
                .ifPresent(c -> events.record(run, EventRecorder.WARNING, c.getReason(), c.getMessage()));
        recordWhenTrue(run, before, after, ConditionTypes.QUALITY_SUSPECT, EventRecorder.WARNING);
        recordWhenTrue(run, before, after, ConditionTypes.REGRESSED, EventRecorder.WARNING);
        recordWhenTrue(run, before, after, ConditionTypes.IMPROVED, EventRecorder.NORMAL);
    }

    /** An event named after the condition when it turns True. */
    private void recordWhenTrue(
            BenchmarkRun run, BenchmarkRunStatus before, BenchmarkRunStatus after, String type, String eventType) {
        boolean wasTrue = before != null
                && Conditions.find(before.conditions, type)
                        .filter(c -> Conditions.TRUE.equals(c.getStatus()))
                        .isPresent();
        Conditions.find(after.conditions, type)
                .filter(c -> Conditions.TRUE.equals(c.getStatus()) && !wasTrue)
                .ifPresent(c -> events.record(run, eventType, type, c.getMessage()));
    }

    private static List<String> comparedKeys(BenchmarkRun run) {
        List<String> keys = new ArrayList<>(keys(run, run.getSpec().baseline));
        if (run.getSpec().reference != null) {
            keys.addAll(keys(run, run.getSpec().reference.name));
        }
        return keys;
    }

    private static List<String> keys(BenchmarkRun run, String referenced) {
        return referenced == null ? List.of() : List.of(run.getMetadata().getNamespace() + "/" + referenced);
    }

    private static Set<ResourceID> referrers(
            IndexerResourceCache<BenchmarkRun> runs, String index, HasMetadata referenced) {
        return runs
                .byIndex(
                        index,
                        referenced.getMetadata().getNamespace() + "/"
                                + referenced.getMetadata().getName())
                .stream()
                .map(ResourceID::fromResource)
                .collect(Collectors.toSet());
    }

    private static Set<ResourceID> referenced(BenchmarkRun run, String name) {
        return name == null
                ? Set.of()
                : Set.of(new ResourceID(name, run.getMetadata().getNamespace()));
    }
}
