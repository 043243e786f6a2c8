package dev.llmops.serving.operator.modelserver;

import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelCacheSpec;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerSpec;
import dev.llmops.serving.operator.config.OperatorConfig;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The SGLang pod: launch command, GPUs, shared memory, model cache, probes and the inference-ready gate. Serving pods
 * carry the HTTP port, the probes and the gate; workers of a multi-node replica carry none of them. Every pod runs
 * without a ServiceAccount token, under the RuntimeDefault seccomp profile, with no capabilities and no privilege
 * escalation: the NVIDIA runtime injects the GPUs' device nodes, which needs none of them.
 */
public final class SglangPodTemplate {

    public static final String CONTAINER = "sglang";
    public static final String PORT_NAME = "http";
    /**
     * Short, so a pod counts as started within 2 s of its server answering /health: the period alone bounds how late
     * the kubelet notices, which is most of the time from a loaded model to Ready.
     */
    private static final int STARTUP_PROBE_PERIOD_SECONDS = 2;

    private static final int HEALTH_TIMEOUT_SECONDS = 10;
    private static final String SHM_VOLUME = "dshm";
    private static final String CACHE_VOLUME = "model-cache";

    private SglangPodTemplate() {}

    /** The image the pods run: the spec's, or the operator's pinned CUDA 13 default. */
    public static String image(ModelServerSpec spec, OperatorConfig config) {
        return spec.image != null ? spec.image : config.sglang().image();
    }

    public static PodTemplateSpec build(ModelServer server, String role, OperatorConfig config) {
        ModelServerSpec spec = server.getSpec();
        boolean serving = Labels.SERVER.equals(role);
        String image = image(spec, config);
        PodSpecBuilder pod = new PodSpecBuilder()
                .withAutomountServiceAccountToken(false)
                .withNewSecurityContext()
                .withNewSeccompProfile()
                .withType("RuntimeDefault")
                .endSeccompProfile()
                .endSecurityContext()
                .withContainers(container(spec, image, serving))
                .withVolumes(volumes(server));
        if (serving) {
            pod.addNewReadinessGate(ConditionTypes.POD_INFERENCE_READY);
        }
        GpuPlacement.apply(
                pod,
                spec.accelerator,
                SglangImage.isCuda13(image),
                spec.scheduling,
                config.sglang().runtimeClassName());
        return new PodTemplateSpecBuilder()
                .withNewMetadata()
                .withLabels(ModelServerLabels.pod(server, role))
                .endMetadata()
                .withSpec(pod.build())
                .build();
    }

    private static Container container(ModelServerSpec spec, String image, boolean serving) {
        ContainerBuilder container = new ContainerBuilder()
                .withName(CONTAINER)
                .withImage(image)
                .withCommand(SglangCommand.COMMAND)
                .withArgs(SglangCommand.args(spec))
                .withEnv(env(spec))
                .withResources(resources(spec))
                .withVolumeMounts(volumeMounts(spec))
                .withTerminationMessagePolicy("FallbackToLogsOnError")
                .withNewSecurityContext()
                .withAllowPrivilegeEscalation(false)
                .withNewCapabilities()
                .withDrop("ALL")
                .endCapabilities()
                .endSecurityContext();
        if (serving) {
            container
                    .addNewPort()
                    .withName(PORT_NAME)
                    .withContainerPort(spec.port)
                    .withProtocol("TCP")
                    .endPort()
                    .withStartupProbe(startupProbe(spec))
                    .withLivenessProbe(healthProbe(30, 20, 3));
        }
        return container.build();
    }

    /** /health until the model is loaded; its failure budget is the spec's start-up timeout. */
    private static Probe startupProbe(ModelServerSpec spec) {
        int budget = spec.readiness.startupTimeoutSeconds;
        int attempts = (budget + STARTUP_PROBE_PERIOD_SECONDS - 1) / STARTUP_PROBE_PERIOD_SECONDS;
        return healthProbe(STARTUP_PROBE_PERIOD_SECONDS, HEALTH_TIMEOUT_SECONDS, attempts);
    }

    private static Probe healthProbe(int periodSeconds, int timeoutSeconds, int failureThreshold) {
        return new ProbeBuilder()
                .withNewHttpGet()
                .withPath("/health")
                .withNewPort(PORT_NAME)
                .endHttpGet()
                .withPeriodSeconds(periodSeconds)
                .withTimeoutSeconds(timeoutSeconds)
                .withFailureThreshold(failureThreshold)
                .build();
    }

    private static List<EnvVar> env(ModelServerSpec spec) {
        List<EnvVar> env = new ArrayList<>();
        if (spec.huggingFaceTokenSecret != null) {
            env.add(new EnvVarBuilder()
                    .withName("HF_TOKEN")
                    .withNewValueFrom()
                    .withNewSecretKeyRef(spec.huggingFaceTokenSecret.key, spec.huggingFaceTokenSecret.name, false)
                    .endValueFrom()
                    .build());
        }
        if (spec.apiKeySecret != null) {
            env.add(new EnvVarBuilder()
                    .withName(SglangCommand.API_KEY_ENV)
                    .withNewValueFrom()
                    .withNewSecretKeyRef(spec.apiKeySecret.key, spec.apiKeySecret.name, false)
                    .endValueFrom()
                    .build());
        }
        if (spec.modelCache != null) {
            env.add(new EnvVar("HF_HOME", spec.modelCache.mountPath, null));
        }
        env.addAll(spec.env);
        return env;
    }

    private static ResourceRequirements resources(ModelServerSpec spec) {
        Quantity gpus = new Quantity(String.valueOf(spec.accelerator.gpusPerReplica / spec.parallelism.nodes));
        Map<String, Quantity> requests = new LinkedHashMap<>();
        Map<String, Quantity> limits = new LinkedHashMap<>();
        requests.put(GpuPlacement.GPU_RESOURCE, gpus);
        limits.put(GpuPlacement.GPU_RESOURCE, gpus);
        if (spec.resources.cpu != null) {
            requests.put("cpu", new Quantity(spec.resources.cpu));
        }
        if (spec.resources.memory != null) {
            requests.put("memory", new Quantity(spec.resources.memory));
            limits.put("memory", new Quantity(spec.resources.memory));
        }
        return new ResourceRequirementsBuilder()
                .withRequests(requests)
                .withLimits(limits)
                .build();
    }

    private static List<VolumeMount> volumeMounts(ModelServerSpec spec) {
        List<VolumeMount> mounts = new ArrayList<>();
        mounts.add(new VolumeMountBuilder()
                .withName(SHM_VOLUME)
                .withMountPath("/dev/shm")
                .build());
        if (spec.modelCache != null) {
            mounts.add(new VolumeMountBuilder()
                    .withName(CACHE_VOLUME)
                    .withMountPath(spec.modelCache.mountPath)
                    .build());
        }
        return mounts;
    }

    private static List<Volume> volumes(ModelServer server) {
        ModelServerSpec spec = server.getSpec();
        List<Volume> volumes = new ArrayList<>();
        volumes.add(new VolumeBuilder()
                .withName(SHM_VOLUME)
                .withNewEmptyDir()
                .withMedium("Memory")
                .withSizeLimit(new Quantity(spec.sharedMemorySize))
                .endEmptyDir()
                .build());
        ModelCacheSpec cache = spec.modelCache;
        if (cache != null) {
            String claim = cache.claimName != null ? cache.claimName : ModelServerLabels.modelCacheClaimName(server);
            volumes.add(new VolumeBuilder()
                    .withName(CACHE_VOLUME)
                    .withNewPersistentVolumeClaim(claim, false)
                    .build());
        }
        return volumes;
    }
}
