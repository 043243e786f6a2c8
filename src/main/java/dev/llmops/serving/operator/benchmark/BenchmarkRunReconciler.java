package dev.llmops.serving.operator.benchmark;

import dev.llmops.serving.api.v1alpha1.ApiGroup;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.archive.ArchiveLocation;
import dev.llmops.serving.archive.RunArchive;
import dev.llmops.serving.comparison.SamplesRead;
import dev.llmops.serving.operator.benchmark.archive.ArchivedRuns;
import dev.llmops.serving.operator.benchmark.archive.RunArchiver;
import dev.llmops.serving.operator.benchmark.comparison.SampleStore;
import dev.llmops.serving.operator.config.OperatorConfig;
import dev.llmops.serving.operator.config.ProgressPoll;
import dev.llmops.serving.operator.toolkit.ConditionMetrics;
import dev.llmops.serving.operator.toolkit.Conditions;
import dev.llmops.serving.operator.toolkit.EventRecorder;
import dev.llmops.serving.operator.toolkit.ReconcileErrors;
import dev.llmops.serving.operator.toolkit.StatusWrite;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
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
import io.quarkiverse.operatorsdk.annotations.RBACRule;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Drives a BenchmarkRun: waits for its ModelServer to be inference-ready, runs the benchmark Job, and copies the
 * runner's summary into the status with provenance, the SLO verdict and the comparisons with the baseline and reference
 * runs, keeping the runner's per-request samples in a ConfigMap for them; archives the finished run when the operator
 * has an archive, and deletes it when its retention says so. The rules below are the API calls it makes beyond those
 * its workflow and informers imply.
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
@RBACRule(
        apiGroups = ApiGroup.GROUP,
        resources = {"benchmarkruns"},
        verbs = {"delete"})
@Workflow(
        explicitInvocation = true,
        dependents = {
            @Dependent(
                    name = "job",
                    type = BenchmarkJobDependent.class,
                    reconcilePrecondition = TargetReadyOrJobExists.class),
            @Dependent(name = "shards", type = ShardServiceDependent.class, reconcilePrecondition = ShardedRun.class)
        })
public class BenchmarkRunReconciler implements Reconciler<BenchmarkRun> {

    public static final String NAME = "benchmarkrun";

    /** How soon after the reconcile that finished a run its record is written, its results written first. */
    static final Duration ARCHIVE_AFTER_FINISH = Duration.ofSeconds(1);

    private final OperatorConfig config;
    private final BenchmarkMetrics metrics;
    private final JobObserver jobs;
    private final ProvenanceCollector provenance;
    private final RunTransitionEvents transitions;
    private final RunStatusReport statusReport;
    private final SampleStore samples;
    private final ServingPodMetrics servingPods;
    private final ApiKeyHosts apiKeyHosts;
    private final ConditionMetrics conditionMetrics;
    private final Optional<RunArchiver> archiver;
    private final Optional<ArchivedRuns> archivedRuns;
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
        this.transitions = new RunTransitionEvents(new EventRecorder(client));
        this.statusReport = new RunStatusReport(clock, progressPoll::interval);
        this.samples = new SampleStore(client);
        this.servingPods = new ServingPodMetrics(client);
        this.apiKeyHosts = new ApiKeyHosts(config.benchmark().apiKeyHosts().orElse(List.of()));
        OperatorConfig.Results.S3 s3 = config.results().s3();
        Optional<RunArchive> archive = s3.bucket()
                .map(bucket -> new RunArchive(
                        new ArchiveLocation(s3.endpoint(), bucket, s3.prefix(), s3.region(), s3.pathStyle()),
                        s3.timeout()));
        this.archiver = archive.map(store -> new RunArchiver(store, samples, Conditions.systemUtc(), clock));
        this.archivedRuns = archive.map(ArchivedRuns::new);
    }

    /** What wakes a run: its target, the runs it compares with, its pods ({@link RunEventSources}). */
    @Override
    public List<EventSource<?, BenchmarkRun>> prepareEventSources(EventSourceContext<BenchmarkRun> context) {
        return RunEventSources.of(context, metrics, conditionMetrics);
    }

    @Override
    public UpdateControl<BenchmarkRun> reconcile(BenchmarkRun run, Context<BenchmarkRun> context) {
        TargetState target = TargetState.of(
                run, context.getSecondaryResource(ModelServer.class, RunEventSources.TARGET_SOURCE), apiKeyHosts);
        BenchmarkRunStatus before = run.getStatus();
        RunStatusReport.Observation observation = observe(run, target, context);
        RunStatusReport.Report report = statusReport.build(run, observation);
        BenchmarkRunStatus status = report.status();
        run.setStatus(status);
        boolean finished = RunStatusReport.isFinished(status.phase);
        boolean finishedBefore = before != null && RunStatusReport.isFinished(before.phase);
        Optional<Duration> archiveAgain = finished ? archive(run, finishedBefore) : Optional.empty();
        List<BenchmarkRun> runs = finished ? namespaceRuns(run, context) : List.of();
        Optional<RunRetention.Decision> retention = finished ? retention(run, runs, context) : Optional.empty();
        status.retention = retention.map(RunRetention.Decision::status).orElse(null);
        if (!status.equals(before) && !StatusWrite.apply(run, context)) {
            return UpdateControl.<BenchmarkRun>noUpdate().rescheduleAfter(StatusWrite.STALE_COPY_RECHECK);
        }
        transitions.record(run, before, status);
        if (status.phase == BenchmarkRunPhase.Succeeded) {
            metrics.publish(run);
            metrics.publishComparisons(run);
        }
        if (retention.map(RunRetention.Decision::delete).orElse(false)) {
            expire(run, retention.get().reason(), context);
            return UpdateControl.noUpdate();
        }
        boolean firstRetentionDecision = retention.isPresent() && (before == null || before.retention == null);
        if (finished && (!finishedBefore || firstRetentionDecision)) {
            expireOthersOfTheNamespace(run, runs, context);
        }
        UpdateControl<BenchmarkRun> control = UpdateControl.noUpdate();
        report.recheckAfter()
                .or(() -> archiveAgain)
                .or(() -> retention.flatMap(RunRetention.Decision::recheckAfter))
                .ifPresent(control::rescheduleAfter);
        return control;
    }

    /**
     * Writes the finished run's record into the archive, if there is one and it is not written yet, and returns when
     * to try again; in the reconcile that finished the run, only asks to be called again, so its results are written
     * first.
     */
    private Optional<Duration> archive(BenchmarkRun run, boolean finishedBefore) {
        if (archiver.isEmpty() || !RunArchiver.pending(run.getStatus())) {
            return Optional.empty();
        }
        return finishedBefore ? archiver.get().archive(run) : Optional.of(ARCHIVE_AFTER_FINISH);
    }

    /**
     * What the finished run's retention decides now among the namespace's {@code runs}; empty without one. A run the
     * archive is yet to keep is not deleted.
     */
    private Optional<RunRetention.Decision> retention(
            BenchmarkRun run, List<BenchmarkRun> runs, Context<BenchmarkRun> context) {
        boolean awaitingArchive = archiver.isPresent() && RunArchiver.pending(run.getStatus());
        return RunRetention.policy(run, config.benchmark().retention())
                .map(policy -> RunRetention.decide(
                        policy, run, runs, RunEventSources.referrers(context.getPrimaryCache(), run), clock.instant()))
                .map(decision -> awaitingArchive ? decision.untilArchived() : decision);
    }

    /** The namespace's runs from the cache, {@code current} as this reconcile computed it rather than as cached. */
    private static List<BenchmarkRun> namespaceRuns(BenchmarkRun current, Context<BenchmarkRun> context) {
        String uid = current.getMetadata().getUid();
        return context.getPrimaryCache()
                .list(current.getMetadata().getNamespace())
                .map(cached -> cached.getMetadata().getUid().equals(uid) ? current : cached)
                .toList();
    }

    /**
     * A run that just finished may be the newer run that puts older ones of its group beyond their keepLast: they are
     * decided again now rather than at their next reconcile, which may be far off. So is a run whose retention is
     * decided for the first time, which finished without the operator seeing it finish (its status restored from a
     * backup, or written by another tool).
     */
    private void expireOthersOfTheNamespace(
            BenchmarkRun justFinished, List<BenchmarkRun> runs, Context<BenchmarkRun> context) {
        for (BenchmarkRun other : runs) {
            if (other != justFinished
                    && other.getStatus() != null
                    && RunStatusReport.isFinished(other.getStatus().phase)) {
                retention(other, runs, context)
                        .filter(RunRetention.Decision::delete)
                        .ifPresent(decision -> expire(other, decision.reason(), context));
            }
        }
    }

    /** Deletes the run; the garbage collector deletes its Job, pods and samples after it. */
    private void expire(BenchmarkRun run, String reason, Context<BenchmarkRun> context) {
        transitions.expired(run, reason);
        context.getClient()
                .resource(run)
                .withPropagationPolicy(DeletionPropagation.BACKGROUND)
                .delete();
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
        BenchmarkRunStatus before = run.getStatus();
        // A comparison is made once the Job completed; before that, a run missing from the cluster is not looked up.
        boolean comparing = finished
                || job.map(observed -> observed.outcome() instanceof JobOutcome.Completed)
                        .orElse(false);
        Map<String, SamplesRead> read = new HashMap<>();
        return new RunStatusReport.Observation(
                target,
                job,
                () -> provenance.collect(target, context.getSecondaryResource(Job.class)),
                compared(
                        context,
                        namespace,
                        run.getSpec().baseline,
                        comparing && (before == null || before.comparison == null)),
                compared(
                        context,
                        namespace,
                        run.getSpec().reference == null ? null : run.getSpec().reference.name,
                        comparing && (before == null || before.referenceComparison == null)),
                status -> read.computeIfAbsent(status.samples, name -> samplesOf(namespace, status)),
                set -> samples.store(run, set));
    }

    /**
     * The run named as baseline or reference: from the cache, else, when {@code fromArchive} (a comparison is about
     * to be made), the last one archived under that name.
     */
    private Optional<BenchmarkRun> compared(
            Context<BenchmarkRun> context, String namespace, String name, boolean fromArchive) {
        if (name == null) {
            return Optional.empty();
        }
        Optional<BenchmarkRun> inCluster = context.getPrimaryCache().get(new ResourceID(name, namespace));
        if (inCluster.isPresent() || !fromArchive) {
            return inCluster;
        }
        return archivedRuns.flatMap(archived -> archived.find(namespace, name));
    }

    /** A run's samples from its ConfigMap, else from its archived record. */
    private SamplesRead samplesOf(String namespace, BenchmarkRunStatus status) {
        SamplesRead inCluster = samples.read(namespace, status.samples, status.samplesSha256);
        if (inCluster.present() || inCluster.rejected() || archivedRuns.isEmpty()) {
            return inCluster;
        }
        return archivedRuns.get().samples(status, inCluster);
    }
}
