package dev.llmops.serving.operator.modelserver;

import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerPhase;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerStatus;
import dev.llmops.serving.common.SecretArgs;
import dev.llmops.serving.operator.compatibility.CompatibilityCheck;
import dev.llmops.serving.operator.compatibility.CompatibilityTable;
import dev.llmops.serving.operator.config.OperatorConfig;
import dev.llmops.serving.operator.toolkit.ConditionMetrics;
import dev.llmops.serving.operator.toolkit.Conditions;
import dev.llmops.serving.operator.toolkit.EventRecorder;
import dev.llmops.serving.operator.toolkit.ReconcileErrors;
import dev.llmops.serving.operator.toolkit.StatusWrite;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
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
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.quarkiverse.operatorsdk.annotations.RBACRule;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Runs a ModelServer: validates the spec, keeps the owned objects as desired (only while the spec is valid, so bad
 * input changes nothing that runs), probes the serving pods with real generations, opens their inference-ready gates,
 * diagnoses pods that do not serve, and writes the status. Only pods its own workload runs are probed, gated or
 * diagnosed ({@link OwnedPods}); the label that maps a pod to the server is only a hint. The RBAC rules below are
 * everything it uses.
 */
@Workflow(
        explicitInvocation = true,
        dependents = {
            @Dependent(
                    name = "model-cache",
                    type = ModelCacheClaimDependent.class,
                    reconcilePrecondition = ModelCacheRequested.class),
            @Dependent(
                    name = "deployment",
                    type = ServerDeploymentDependent.class,
                    reconcilePrecondition = SingleNodeReplicas.class),
            @Dependent(
                    name = "leaderworkerset",
                    type = LeaderWorkerSetDependent.class,
                    reconcilePrecondition = MultiNodeReplicas.class,
                    activationCondition = LeaderWorkerSetInstalled.class),
            @Dependent(name = "service", type = ServerServiceDependent.class),
            @Dependent(
                    name = "replica-networkpolicy",
                    type = ReplicaNetworkPolicyDependent.class,
                    reconcilePrecondition = ReplicaNetworkPolicyWanted.class,
                    activationCondition = NetworkPoliciesEnabled.class)
        })
@ControllerConfiguration(name = "modelserver")
@RBACRule(
        apiGroups = "serving.llmops.dev",
        resources = {"modelservers"},
        verbs = {"get", "list", "watch", "patch", "update"})
@RBACRule(
        apiGroups = "serving.llmops.dev",
        resources = {"modelservers/status"},
        verbs = {"get", "patch", "update"})
@RBACRule(
        apiGroups = "serving.llmops.dev",
        resources = {"modelservers/finalizers"},
        verbs = {"update"})
@RBACRule(
        apiGroups = "apps",
        resources = {"deployments"},
        verbs = {"get", "list", "watch", "create", "patch", "update", "delete"})
@RBACRule(
        apiGroups = "apps",
        resources = {"replicasets", "statefulsets"},
        verbs = {"get"})
@RBACRule(
        apiGroups = LeaderWorkerSet.GROUP,
        resources = {"leaderworkersets"},
        verbs = {"get", "list", "watch", "create", "patch", "update", "delete"})
@RBACRule(
        apiGroups = "",
        resources = {"services"},
        verbs = {"get", "list", "watch", "create", "patch", "update", "delete"})
@RBACRule(
        apiGroups = "networking.k8s.io",
        resources = {"networkpolicies"},
        verbs = {"get", "list", "watch", "create", "patch", "update", "delete"})
@RBACRule(
        apiGroups = "",
        resources = {"persistentvolumeclaims"},
        verbs = {"get", "list", "watch", "create", "delete"})
@RBACRule(
        apiGroups = "",
        resources = {"pods"},
        verbs = {"get", "list", "watch"})
@RBACRule(
        apiGroups = "",
        resources = {"pods/status"},
        verbs = {"patch"})
@RBACRule(
        apiGroups = "",
        resources = {"pods/log"},
        verbs = {"get"})
@RBACRule(
        apiGroups = "",
        resources = {"events"},
        verbs = {"create", "list"})
@RBACRule(
        apiGroups = "",
        resources = {"secrets"},
        verbs = {"get"})
public class ModelServerReconciler implements Reconciler<ModelServer> {

    private final KubernetesClient client;
    private final OperatorConfig config;
    private final LeaderWorkerSetInstalled leaderWorkerSetInstalled;
    private final InferenceProbes probes;
    private final OwnedPods ownedPods;
    private final ServerApiKey apiKeys;
    private final InferenceReadyGate gate;
    private final PodDiagnoser diagnoser;
    private final ServerTransitionEvents transitions;
    private final Conditions conditions = Conditions.systemUtc();
    private final ConditionMetrics conditionMetrics;
    private final CompatibilityCheck compatibility = new CompatibilityCheck(CompatibilityTable.bundled());

    public ModelServerReconciler(
            KubernetesClient client,
            OperatorConfig config,
            InferenceClient inferenceClient,
            LeaderWorkerSetInstalled leaderWorkerSetInstalled,
            ConditionMetrics conditionMetrics) {
        this.client = client;
        this.conditionMetrics = conditionMetrics;
        this.config = config;
        this.leaderWorkerSetInstalled = leaderWorkerSetInstalled;
        this.probes = new InferenceProbes(inferenceClient);
        this.ownedPods = new OwnedPods(client);
        this.apiKeys = new ServerApiKey(client);
        this.gate = new InferenceReadyGate(client);
        this.diagnoser = new PodDiagnoser(client);
        this.transitions = new ServerTransitionEvents(new EventRecorder(client));
    }

    @Override
    public List<EventSource<?, ModelServer>> prepareEventSources(EventSourceContext<ModelServer> context) {
        var pods = InformerEventSourceConfiguration.from(Pod.class, ModelServer.class)
                .withName("pods")
                .withLabelSelector(Labels.MODEL_SERVER)
                .withSecondaryToPrimaryMapper(pod -> Set.of(new ResourceID(
                        pod.getMetadata().getLabels().get(Labels.MODEL_SERVER),
                        pod.getMetadata().getNamespace())))
                .build();
        return List.of(
                new InformerEventSource<>(pods, context),
                probes,
                conditionMetrics.eventSource(
                        ModelServer.class,
                        server -> server.getStatus() == null ? null : server.getStatus().conditions));
    }

    @Override
    public UpdateControl<ModelServer> reconcile(ModelServer server, Context<ModelServer> context) {
        String image = SglangPodTemplate.image(server.getSpec(), config);
        CompatibilityCheck.Result compatible = compatibility.check(server, image);
        List<SpecValidator.Problem> problems = new ArrayList<>(SpecValidator.incompatibilities(compatible.breaches()));
        problems.addAll(SpecValidator.validate(server.getSpec()));
        leaderWorkerSetInstalled.missingFor(server.getSpec(), client).ifPresent(problems::add);
        if (problems.isEmpty()) {
            context.managedWorkflowAndDependentResourceContext().reconcileManagedWorkflow();
        }

        List<Pod> labelled = context.getSecondaryResourcesAsStream(Pod.class).toList();
        List<Pod> pods = ownedPods.of(server, workloads(context), labelled).stream()
                .filter(pod -> pod.getMetadata().getDeletionTimestamp() == null)
                .toList();
        List<Pod> servingPods = pods.stream()
                .filter(pod ->
                        Labels.SERVER.equals(pod.getMetadata().getLabels().get(Labels.COMPONENT)))
                .toList();
        List<Pod> workerPods = pods.stream()
                .filter(pod ->
                        Labels.WORKER.equals(pod.getMetadata().getLabels().get(Labels.COMPONENT)))
                .toList();
        ServerApiKey.Lookup apiKey = servingPods.isEmpty() ? ServerApiKey.Lookup.NONE : apiKeys.of(server);
        apiKey.missing().ifPresent(problems::add);
        Optional<Duration> nextProbe = probes.probeDue(server, servingPods, apiKey.key());
        Map<String, PodInference> inference = context.getSecondaryResourcesAsStream(PodInference.class)
                .collect(Collectors.toMap(PodInference::podUid, Function.identity()));

        List<PodDiagnoser.Finding> findings = new ArrayList<>();
        for (Pod pod : pods) {
            PodInference probe = inference.get(pod.getMetadata().getUid());
            if (probe != null) {
                gate.sync(pod, probe);
            }
            diagnoser
                    .diagnose(server, pod)
                    .or(() -> probe == null ? Optional.empty() : PodDiagnoser.notGenerating(pod, probe))
                    .ifPresent(findings::add);
        }

        List<String> args = new ArrayList<>(SglangCommand.COMMAND);
        args.addAll(SglangCommand.args(server.getSpec()));
        ModelServerPhase before = server.getStatus() == null ? null : server.getStatus().phase;
        ModelServerStatus status = StatusReport.build(
                server,
                new StatusReport.Observation(
                        problems, servingPods, workerPods, inference, findings, image, SecretArgs.redact(args)),
                conditions);
        status.allowedIncompatibilities = compatible.allowed().isEmpty() ? null : compatible.allowed();
        boolean changed = !status.equals(server.getStatus());
        server.setStatus(status);
        if (changed && !StatusWrite.apply(server, context)) {
            return UpdateControl.<ModelServer>noUpdate().rescheduleAfter(StatusWrite.STALE_COPY_RECHECK);
        }
        transitions.record(server, before, status);
        UpdateControl<ModelServer> update = UpdateControl.noUpdate();
        Optional<Duration> eventRecheck = findings.stream().anyMatch(PodDiagnoser.Finding::eventPending)
                ? Optional.of(PodDiagnoser.EVENT_RECHECK)
                : Optional.empty();
        return Stream.of(nextProbe, eventRecheck)
                .flatMap(Optional::stream)
                .min(Comparator.naturalOrder())
                .map(update::rescheduleAfter)
                .orElse(update);
    }

    @Override
    public ErrorStatusUpdateControl<ModelServer> updateErrorStatus(
            ModelServer server, Context<ModelServer> context, Exception e) {
        if (server.getStatus() == null) {
            server.setStatus(new ModelServerStatus());
        }
        ModelServerStatus status = server.getStatus();
        boolean lastAttempt =
                context.getRetryInfo().map(RetryInfo::isLastAttempt).orElse(false);
        Long generation = server.getMetadata().getGeneration();
        boolean stalled =
                conditions.reconcileFailed(status.conditions, e, lastAttempt, generation, config.stalledRecheck());
        if (stalled && status.phase == null) {
            StatusReport.stalledBeforeAnyPhase(status, conditions, generation);
        }
        return ReconcileErrors.afterFailure(server, e, lastAttempt, config.stalledRecheck());
    }

    /** The Deployments and LeaderWorkerSets the dependents' informers hold for the server. */
    private static List<HasMetadata> workloads(Context<ModelServer> context) {
        return Stream.concat(
                        context.getSecondaryResourcesAsStream(Deployment.class),
                        context.getSecondaryResourcesAsStream(LeaderWorkerSet.class))
                .map(HasMetadata.class::cast)
                .toList();
    }
}
