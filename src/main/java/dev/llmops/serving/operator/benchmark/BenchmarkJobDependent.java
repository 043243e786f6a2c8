package dev.llmops.serving.operator.benchmark;

import dev.llmops.serving.api.v1alpha1.DerivedNames;
import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.SecretKeyReference;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.DatasetFile;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.RunnerPodSpec;
import dev.llmops.serving.operator.toolkit.Owners;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.GarbageCollected;
import io.javaoperatorsdk.operator.processing.dependent.Creator;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The benchmark Job of a run: the operator's image running {@code bench} against the target, CPU-only, off GPU nodes,
 * one pod per shard (an Indexed Job whose pods are spread over nodes and find each other through the run's
 * {@link ShardServiceDependent headless Service}),
 * under Pod Security "restricted" (a dataset file comes in as a read-only ConfigMap or claim volume), owned by the
 * run (controller reference, blocking the run's foreground deletion until the Job and its pods are gone). Created once
 * and never updated (a Job's pod template is immutable); its name is derived from the run, so after an operator
 * restart the existing Job is found and adopted instead of duplicated.
 */
@KubernetesDependent(
        createResourceOnlyIfNotExistingWithSSA = true,
        informer = @Informer(labelSelector = Labels.BENCHMARK_JOBS))
public class BenchmarkJobDependent extends KubernetesDependentResource<Job, BenchmarkRun>
        implements Creator<Job, BenchmarkRun>, GarbageCollected<BenchmarkRun> {

    public static final String CONTAINER = "bench";
    static final int BACKOFF_LIMIT = 1;
    static final int TTL_SECONDS_AFTER_FINISHED = 7 * 24 * 3600;
    static final String GPU_PRESENT_LABEL = "nvidia.com/gpu.present";
    private static final String SUFFIX = "-bench";
    private static final String TMP_VOLUME = "tmp";
    private static final String DATASET_VOLUME = "dataset";
    /** Room for {@code -<index>} after the Job's name in a shard pod's host name, a DNS label. */
    private static final int SHARD_HOSTNAME_SUFFIX = 3;

    static final String COMPLETION_INDEX_ENV = "JOB_COMPLETION_INDEX";
    static final String COMPLETION_INDEX_ANNOTATION = "batch.kubernetes.io/job-completion-index";

    /**
     * What the reconciler resolved before the workflow runs: the target, the Prometheus endpoints of its serving pods
     * and the runner image to use.
     */
    public record Inputs(TargetState target, List<String> metricsUrls, String runnerImage) {
        static final String KEY = Inputs.class.getName();
    }

    public BenchmarkJobDependent() {
        super(Job.class);
    }

    /**
     * {@code <run>-bench}; a run name too long for the 60 characters a Job name may have (it becomes a label value of
     * its pods, and an Indexed Job's pod is named {@code <job>-<index>} in DNS) is shortened and made unique with a
     * hash of the full name.
     */
    public static String jobName(String runName) {
        return DerivedNames.fit(runName, SUFFIX, DerivedNames.LABEL_MAX - SHARD_HOSTNAME_SUFFIX);
    }

    @Override
    protected ResourceID targetSecondaryResourceID(BenchmarkRun run, Context<BenchmarkRun> context) {
        return new ResourceID(
                jobName(run.getMetadata().getName()), run.getMetadata().getNamespace());
    }

    @Override
    protected Job desired(BenchmarkRun run, Context<BenchmarkRun> context) {
        Inputs inputs = context.managedWorkflowAndDependentResourceContext().getMandatory(Inputs.KEY, Inputs.class);
        BenchmarkRunSpec spec = run.getSpec();
        RunnerPodSpec pod = spec.runner;
        String name = jobName(run.getMetadata().getName());
        Map<String, String> labels = labels(name);
        int shards = pod.shardCount();
        return new JobBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(run.getMetadata().getNamespace())
                .withLabels(labels)
                .withOwnerReferences(Owners.controllerReference(run))
                .endMetadata()
                .withNewSpec()
                .withCompletionMode(shards > 1 ? "Indexed" : null)
                .withCompletions(shards > 1 ? shards : null)
                .withParallelism(shards > 1 ? shards : null)
                .withBackoffLimit(BACKOFF_LIMIT)
                .withActiveDeadlineSeconds(JobDeadline.seconds(spec))
                .withTtlSecondsAfterFinished(TTL_SECONDS_AFTER_FINISHED)
                .withNewPodFailurePolicy()
                .addNewRule()
                .withAction("FailJob")
                .withNewOnExitCodes()
                .withContainerName(CONTAINER)
                .withOperator("In")
                .withValues(RunnerExit.BAD_CONFIGURATION.code(), RunnerExit.SHARDS_APART.code())
                .endOnExitCodes()
                .endRule()
                .addNewRule()
                .withAction("Ignore")
                .addNewOnPodCondition()
                .withType("DisruptionTarget")
                .withStatus("True")
                .endOnPodCondition()
                .endRule()
                .endPodFailurePolicy()
                .withNewTemplate()
                .withNewMetadata()
                .withLabels(labels)
                .endMetadata()
                .withSpec(podSpec(
                        spec,
                        name,
                        inputs.target().url(),
                        inputs.target().model(),
                        inputs.metricsUrls(),
                        apiKey(spec, inputs.target()),
                        pod.image != null ? pod.image : inputs.runnerImage()))
                .endTemplate()
                .endSpec()
                .build();
    }

    /** Labels of the benchmark Job and its pod; the chart's NetworkPolicy selects runner pods by them. */
    public static Map<String, String> labels(String jobName) {
        return Map.of(
                Labels.NAME, Labels.OPERATOR,
                Labels.COMPONENT, Labels.BENCHMARK,
                Labels.MANAGED_BY, Labels.OPERATOR,
                Labels.INSTANCE, jobName);
    }

    /**
     * The runner pod: restricted Pod Security, a read-only root file system, the spec's command line, and the API key
     * (when not null) from its Secret; a shard's pod also has its DNS name under the Job's Service, the rendezvous
     * port, and a spread over nodes.
     */
    static PodSpec podSpec(
            BenchmarkRunSpec spec,
            String jobName,
            String url,
            String model,
            List<String> metricsUrls,
            SecretKeyReference apiKey,
            String image) {
        RunnerPodSpec pod = spec.runner;
        boolean sharded = pod.shardCount() > 1;
        List<EnvVar> env = new ArrayList<>(apiKeyEnv(apiKey));
        if (sharded) {
            env.add(new EnvVarBuilder()
                    .withName(COMPLETION_INDEX_ENV)
                    .withNewValueFrom()
                    .withNewFieldRef()
                    .withFieldPath("metadata.annotations['" + COMPLETION_INDEX_ANNOTATION + "']")
                    .endFieldRef()
                    .endValueFrom()
                    .build());
        }
        return new PodSpecBuilder()
                .withRestartPolicy("Never")
                .withSubdomain(sharded ? jobName : null)
                .withTopologySpreadConstraints(sharded ? List.of(spreadOverNodes(jobName)) : List.of())
                .withAutomountServiceAccountToken(false)
                .withEnableServiceLinks(false)
                .withNodeSelector(pod.nodeSelector.isEmpty() ? null : pod.nodeSelector)
                .withAffinity(pod.nodeSelector.isEmpty() ? offGpuNodes() : null)
                .withTolerations(pod.tolerations)
                .withNewSecurityContext()
                .withRunAsNonRoot(true)
                .withNewSeccompProfile()
                .withType("RuntimeDefault")
                .endSeccompProfile()
                .endSecurityContext()
                .addNewContainer()
                .withName(CONTAINER)
                .withImage(image)
                .withArgs(RunnerArguments.of(spec, url, model, metricsUrls, apiKey != null, jobName))
                .withEnv(env)
                .withPorts(
                        sharded
                                ? List.of(new ContainerPortBuilder()
                                        .withName(RunnerArguments.RENDEZVOUS_PORT_NAME)
                                        .withContainerPort(RunnerArguments.RENDEZVOUS_PORT)
                                        .withProtocol("TCP")
                                        .build())
                                : List.of())
                .withResources(pod.resources != null ? pod.resources : defaultResources())
                .withTerminationMessagePath(RunnerArguments.SUMMARY_FILE)
                .withTerminationMessagePolicy("FallbackToLogsOnError")
                .withNewSecurityContext()
                .withAllowPrivilegeEscalation(false)
                .withReadOnlyRootFilesystem(true)
                .withNewCapabilities()
                .withDrop("ALL")
                .endCapabilities()
                .endSecurityContext()
                .withVolumeMounts(volumeMounts(spec))
                .endContainer()
                .withVolumes(volumes(spec))
                .build();
    }

    /** Adopts a Job of this run that the cache did not show yet (just created, or a restart's cold cache). */
    @Override
    public Job create(Job desired, BenchmarkRun run, Context<BenchmarkRun> context) {
        try {
            return super.create(desired, run, context);
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
            Job existing = context.getClient()
                    .batch()
                    .v1()
                    .jobs()
                    .inNamespace(desired.getMetadata().getNamespace())
                    .withName(desired.getMetadata().getName())
                    .get();
            if (existing != null && Owners.isControlledBy(existing, run)) {
                return existing;
            }
            throw new IllegalStateException(
                    "Job " + desired.getMetadata().getName()
                            + " already exists and does not belong to this BenchmarkRun; delete it or rename the run",
                    e);
        }
    }

    /**
     * One shard pod per node while nodes are free, else several on one: the spread is a preference, so a run on fewer
     * nodes than shards still starts.
     */
    private static TopologySpreadConstraint spreadOverNodes(String jobName) {
        return new TopologySpreadConstraintBuilder()
                .withMaxSkew(1)
                .withTopologyKey("kubernetes.io/hostname")
                .withWhenUnsatisfiable("ScheduleAnyway")
                .withNewLabelSelector()
                .withMatchLabels(labels(jobName))
                .endLabelSelector()
                .build();
    }

    private static Affinity offGpuNodes() {
        return new AffinityBuilder()
                .withNewNodeAffinity()
                .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                .addNewNodeSelectorTerm()
                .addNewMatchExpression()
                .withKey(GPU_PRESENT_LABEL)
                .withOperator("DoesNotExist")
                .endMatchExpression()
                .endNodeSelectorTerm()
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .endNodeAffinity()
                .build();
    }

    /**
     * 2 CPUs and 1Gi requested, memory limited; no CPU limit, because throttling the client would inflate the latencies
     * it measures.
     */
    private static ResourceRequirements defaultResources() {
        return new ResourceRequirementsBuilder()
                .addToRequests("cpu", new Quantity("2"))
                .addToRequests("memory", new Quantity("1Gi"))
                .addToLimits("memory", new Quantity("1Gi"))
                .build();
    }

    /** A writable /tmp (the root file system is read-only) and, for a dataset with a file, the file, read-only. */
    private static List<VolumeMount> volumeMounts(BenchmarkRunSpec spec) {
        List<VolumeMount> mounts = new ArrayList<>();
        mounts.add(new VolumeMountBuilder()
                .withName(TMP_VOLUME)
                .withMountPath("/tmp")
                .build());
        if (RunnerArguments.datasetFile(spec.dataset) != null) {
            mounts.add(new VolumeMountBuilder()
                    .withName(DATASET_VOLUME)
                    .withMountPath(RunnerArguments.DATASET_MOUNT)
                    .withReadOnly(true)
                    .build());
        }
        return mounts;
    }

    private static List<Volume> volumes(BenchmarkRunSpec spec) {
        List<Volume> volumes = new ArrayList<>();
        volumes.add(new VolumeBuilder()
                .withName(TMP_VOLUME)
                .withNewEmptyDir()
                .endEmptyDir()
                .build());
        DatasetFile file = RunnerArguments.datasetFile(spec.dataset);
        if (file != null && file.configMap != null) {
            volumes.add(new VolumeBuilder()
                    .withName(DATASET_VOLUME)
                    .withNewConfigMap()
                    .withName(file.configMap.name)
                    .addNewItem()
                    .withKey(file.configMap.key)
                    .withPath(file.configMap.key)
                    .endItem()
                    .endConfigMap()
                    .build());
        } else if (file != null) {
            volumes.add(new VolumeBuilder()
                    .withName(DATASET_VOLUME)
                    .withNewPersistentVolumeClaim()
                    .withClaimName(file.persistentVolumeClaim.claimName)
                    .withReadOnly(true)
                    .endPersistentVolumeClaim()
                    .build());
        }
        return volumes;
    }

    /** The key its ModelServer requires, if any, for a ModelServer; else the run's own key for its external URL. */
    static SecretKeyReference apiKey(BenchmarkRunSpec spec, TargetState target) {
        return spec.target.modelServer != null
                ? target.modelServer()
                        .map(server -> server.getSpec().apiKeySecret)
                        .orElse(null)
                : spec.target.apiKeySecret;
    }

    private static List<EnvVar> apiKeyEnv(SecretKeyReference apiKey) {
        if (apiKey == null) {
            return List.of();
        }
        return List.of(new EnvVarBuilder()
                .withName(RunnerArguments.API_KEY_ENV)
                .withNewValueFrom()
                .withNewSecretKeyRef()
                .withName(apiKey.name)
                .withKey(apiKey.key)
                .endSecretKeyRef()
                .endValueFrom()
                .build());
    }
}
