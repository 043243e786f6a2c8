package dev.llmops.serving.operator.experiment;

import dev.llmops.serving.api.v1alpha1.ConditionReasons;
import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperimentStatus;
import dev.llmops.serving.operator.config.OperatorConfig;
import dev.llmops.serving.operator.toolkit.ConditionMetrics;
import dev.llmops.serving.operator.toolkit.Conditions;
import dev.llmops.serving.operator.toolkit.EventRecorder;
import dev.llmops.serving.operator.toolkit.Owners;
import dev.llmops.serving.operator.toolkit.ReconcileErrors;
import dev.llmops.serving.operator.toolkit.StatusWrite;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
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
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.quarkiverse.operatorsdk.annotations.RBACRule;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Runs a ServingExperiment: deploys its variants' ModelServers as the pool has room, benchmarks each once it is
 * inference-ready, removes it when done, and writes the status, the winner included. The status is written before the
 * objects it implies are created or deleted, so a restart resumes where the status says and never starts a variant
 * twice. The rules below are the API calls it makes beyond those its workflow and informers imply.
 */
@ControllerConfiguration(name = ServingExperimentReconciler.NAME)
@RBACRule(
        apiGroups = "serving.llmops.dev",
        resources = {"modelservers", "benchmarkruns"},
        verbs = {"get"})
@RBACRule(
        apiGroups = "",
        resources = {"pods"},
        verbs = {"get", "list", "watch"})
@RBACRule(
        apiGroups = "",
        resources = {"events"},
        verbs = {"create"})
@Workflow(
        explicitInvocation = true,
        dependents = {
            @Dependent(
                    name = "model-cache",
                    type = SharedModelCacheDependent.class,
                    reconcilePrecondition = SharedModelCacheRequested.class),
            @Dependent(name = "variant-servers", type = VariantServersDependent.class),
            @Dependent(name = "variant-runs", type = VariantRunsDependent.class)
        })
public class ServingExperimentReconciler implements Reconciler<ServingExperiment> {

    public static final String NAME = "servingexperiment";

    private final KubernetesClient client;
    private final OperatorConfig config;
    private final ConditionMetrics conditionMetrics;
    private final ExperimentTransitionEvents transitions;
    private final Clock clock = Clock.systemUTC();
    private final ExperimentStatusReport statusReport = new ExperimentStatusReport(clock);
    private final Conditions conditions = new Conditions(clock);

    public ServingExperimentReconciler(
            KubernetesClient client, OperatorConfig config, ConditionMetrics conditionMetrics) {
        this.client = client;
        this.config = config;
        this.conditionMetrics = conditionMetrics;
        this.transitions = new ExperimentTransitionEvents(new EventRecorder(client));
    }

    @Override
    public List<EventSource<?, ServingExperiment>> prepareEventSources(EventSourceContext<ServingExperiment> context) {
        return ExperimentEventSources.of(context, conditionMetrics);
    }

    @Override
    public UpdateControl<ServingExperiment> reconcile(
            ServingExperiment experiment, Context<ServingExperiment> context) {
        Map<String, ModelServer> servers = byVariant(context.getSecondaryResourcesAsStream(ModelServer.class)
                .filter(server -> !server.getMetadata().getName().equals(VariantObjects.winnerServerName(experiment))));
        Map<String, BenchmarkRun> runs = byVariant(context.getSecondaryResourcesAsStream(BenchmarkRun.class));
        Set<String> holdingPool = Stream.concat(
                        servers.keySet().stream(),
                        experiment.getSpec().variants.stream()
                                .map(v -> v.name)
                                .filter(name -> hasPods(context, VariantObjects.childName(experiment, name))))
                .collect(Collectors.toSet());
        ServingExperimentStatus before = experiment.getStatus();
        ExperimentStatusReport.Report report = statusReport.build(
                experiment, new ExperimentStatusReport.Observation(servers, runs, holdingPool, clock.instant()));
        ServingExperimentStatus status = report.status();
        Optional<String> taken = takenName(experiment, report, servers, runs);
        taken.ifPresent(message -> conditions.set(
                status.conditions,
                ConditionTypes.STALLED,
                Conditions.TRUE,
                ConditionReasons.NAME_TAKEN,
                message,
                experiment.getMetadata().getGeneration()));
        experiment.setStatus(status);
        if (!status.equals(before) && !StatusWrite.apply(experiment, context)) {
            return UpdateControl.<ServingExperiment>noUpdate().rescheduleAfter(StatusWrite.STALE_COPY_RECHECK);
        }
        transitions.record(experiment, before, status);
        if (taken.isEmpty()) {
            report.handTo(context);
            context.managedWorkflowAndDependentResourceContext()
                    .reconcileManagedWorkflow()
                    .throwAggregateExceptionIfErrorsPresent();
        }
        UpdateControl<ServingExperiment> control = UpdateControl.noUpdate();
        report.recheckAfter().or(() -> taken.map(t -> config.stalledRecheck())).ifPresent(control::rescheduleAfter);
        return control;
    }

    @Override
    public ErrorStatusUpdateControl<ServingExperiment> updateErrorStatus(
            ServingExperiment experiment, Context<ServingExperiment> context, Exception e) {
        if (experiment.getStatus() == null) {
            experiment.setStatus(new ServingExperimentStatus());
        }
        boolean lastAttempt =
                context.getRetryInfo().map(RetryInfo::isLastAttempt).orElse(false);
        conditions.reconcileFailed(
                experiment.getStatus().conditions,
                e,
                lastAttempt,
                experiment.getMetadata().getGeneration(),
                config.stalledRecheck());
        return ReconcileErrors.afterFailure(experiment, e, lastAttempt, config.stalledRecheck());
    }

    /**
     * A ModelServer or BenchmarkRun the experiment is about to create whose name another object already holds: the
     * experiment never adopts or overwrites what it did not create.
     */
    private Optional<String> takenName(
            ServingExperiment experiment,
            ExperimentStatusReport.Report report,
            Map<String, ModelServer> servers,
            Map<String, BenchmarkRun> runs) {
        String namespace = experiment.getMetadata().getNamespace();
        Stream<HasMetadata> serversToCreate = Stream.concat(
                        report.serving().stream()
                                .filter(v -> !servers.containsKey(v))
                                .map(v -> VariantObjects.childName(experiment, v)),
                        report.keptWinner().map(w -> VariantObjects.winnerServerName(experiment)).stream())
                .map(name -> client.resources(ModelServer.class)
                        .inNamespace(namespace)
                        .withName(name)
                        .get());
        Stream<HasMetadata> runsToCreate = report.benchmarking().stream()
                .filter(v -> !runs.containsKey(v))
                .map(v -> client.resources(BenchmarkRun.class)
                        .inNamespace(namespace)
                        .withName(VariantObjects.childName(experiment, v))
                        .get());
        return Stream.concat(serversToCreate, runsToCreate)
                .filter(existing -> existing != null && !Owners.isControlledBy(existing, experiment))
                .findFirst()
                .map(existing -> ("%s %s exists and is not this experiment's: the experiment would need its name for a "
                                + "variant. Rename or delete it, or create the experiment under another name")
                        .formatted(existing.getKind(), existing.getMetadata().getName()));
    }

    private static boolean hasPods(Context<ServingExperiment> context, String serverName) {
        return context.getSecondaryResourcesAsStream(Pod.class)
                .anyMatch(pod -> serverName.equals(pod.getMetadata().getLabels().get(Labels.MODEL_SERVER)));
    }

    private static <R extends HasMetadata> Map<String, R> byVariant(Stream<R> owned) {
        return owned.filter(r -> r.getMetadata().getLabels() != null
                        && r.getMetadata().getLabels().containsKey(Labels.VARIANT))
                .collect(Collectors.toMap(
                        r -> r.getMetadata().getLabels().get(Labels.VARIANT), Function.identity(), (a, b) -> a));
    }
}
