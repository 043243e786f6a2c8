package dev.llmops.serving.operator.modelserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.SecretKeyReference;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.SchedulingSpec;
import dev.llmops.serving.operator.config.OperatorConfig;
import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The objects a ModelServer turns into, for the shipped examples and the shapes the issue names. */
class DesiredObjectsTest {

    private static final NodeSelectorRequirement BLACKWELL =
            new NodeSelectorRequirement(GpuPlacement.FAMILY_LABEL, "In", List.of("blackwell"));
    private static final NodeSelectorRequirement DRIVER_580 =
            new NodeSelectorRequirement(GpuPlacement.DRIVER_MAJOR_LABEL, "Gt", List.of("579"));

    @Test
    void kimiK2WithEagle3OnEightRtxPro6000() {
        ModelServer kimi = TestModelServers.example("kimi-k2-rtx-pro-6000-eagle3.yaml", "llm");
        Deployment deployment = ServerDeploymentDependent.desired(kimi, TestModelServers.config(Optional.empty()));

        assertThat(deployment.getMetadata().getName()).isEqualTo("kimi-k2-eagle3");
        assertThat(deployment.getMetadata().getLabels())
                .containsEntry("app.kubernetes.io/managed-by", "llm-serving-operator")
                .containsEntry("app.kubernetes.io/instance", "kimi-k2-eagle3");
        assertThat(deployment.getSpec().getReplicas()).isEqualTo(1);
        assertThat(deployment.getSpec().getSelector().getMatchLabels()).isEqualTo(selector("kimi-k2-eagle3"));
        PodTemplateSpec template = deployment.getSpec().getTemplate();
        assertThat(template.getMetadata().getLabels())
                .containsAllEntriesOf(deployment.getSpec().getSelector().getMatchLabels());
        PodSpec pod = template.getSpec();
        Container sglang = pod.getContainers().get(0);

        assertThat(sglang.getImage()).isEqualTo(TestModelServers.DEFAULT_IMAGE);
        assertThat(sglang.getCommand()).containsExactly("python3", "-m", "sglang.launch_server");
        assertThat(String.join(" ", sglang.getArgs()))
                .isEqualTo("--model-path moonshotai/Kimi-K2.5 --served-model-name kimi-k2.5 --revision main "
                        + "--trust-remote-code --host 0.0.0.0 --port 30000 --tp-size 8"
                        + " --speculative-algorithm EAGLE3 --speculative-draft-model-path "
                        + "lightseekorg/kimi-k2.5-eagle3"
                        + " --speculative-num-steps 3 --speculative-eagle-topk 1 "
                        + "--speculative-num-draft-tokens 4 --enable-metrics --enable-cache-report"
                        + " --reasoning-parser kimi_k2 --tool-call-parser kimi_k2 --mem-fraction-static 0.85");
        assertThat(sglang.getResources().getLimits())
                .containsEntry("nvidia.com/gpu", new Quantity("8"))
                .containsEntry("memory", new Quantity("512Gi"));
        assertThat(sglang.getResources().getRequests())
                .containsEntry("nvidia.com/gpu", new Quantity("8"))
                .containsEntry("cpu", new Quantity("32"));

        EnvVar token = env(sglang, "HF_TOKEN");
        assertThat(token.getValue()).isNull();
        assertThat(token.getValueFrom().getSecretKeyRef().getName()).isEqualTo("hf-token");
        assertThat(token.getValueFrom().getSecretKeyRef().getKey()).isEqualTo("token");
        assertThat(env(sglang, "HF_HOME").getValue()).isEqualTo("/root/.cache/huggingface");
        assertThat(env(sglang, "SGLANG_ENABLE_SPEC_V2").getValue()).isEqualTo("1");

        Volume shm = volume(pod, "/dev/shm", sglang);
        assertThat(shm.getEmptyDir().getMedium()).isEqualTo("Memory");
        assertThat(shm.getEmptyDir().getSizeLimit()).isEqualTo(new Quantity("32Gi"));
        assertThat(volume(pod, "/root/.cache/huggingface", sglang)
                        .getPersistentVolumeClaim()
                        .getClaimName())
                .isEqualTo("kimi-k2-eagle3-model-cache");

        assertThat(requiredTerms(pod))
                .singleElement()
                .satisfies(term -> assertThat(term.getMatchExpressions())
                        .containsExactlyInAnyOrder(
                                BLACKWELL,
                                new NodeSelectorRequirement(GpuPlacement.COMPUTE_MAJOR_LABEL, "In", List.of("12")),
                                new NodeSelectorRequirement(
                                        GpuPlacement.PRODUCT_LABEL,
                                        "In",
                                        List.of("NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition")),
                                DRIVER_580));
        assertThat(pod.getTolerations()).containsExactly(gpuToleration());
        assertThat(pod.getRuntimeClassName()).isNull();

        assertThat(pod.getAutomountServiceAccountToken()).isFalse();
        assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        assertThat(sglang.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(sglang.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(sglang.getSecurityContext().getCapabilities().getAdd()).isNullOrEmpty();
        assertThat(sglang.getSecurityContext().getPrivileged()).isNull();

        assertThat(pod.getReadinessGates())
                .singleElement()
                .satisfies(g -> assertThat(g.getConditionType()).isEqualTo("serving.llmops.dev/inference-ready"));
        assertThat(sglang.getStartupProbe().getHttpGet().getPath()).isEqualTo("/health");
        assertThat(sglang.getStartupProbe().getPeriodSeconds()
                        * sglang.getStartupProbe().getFailureThreshold())
                .isEqualTo(3600);
        assertThat(sglang.getStartupProbe().getPeriodSeconds())
                .as("kubelet notices a loaded server within one period")
                .isEqualTo(2);
        assertThat(sglang.getStartupProbe().getTimeoutSeconds()).isEqualTo(10);
        assertThat(sglang.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/health");
        assertThat(sglang.getReadinessProbe()).isNull();
        assertThat(sglang.getPorts()).singleElement().satisfies(p -> {
            assertThat(p.getName()).isEqualTo("http");
            assertThat(p.getContainerPort()).isEqualTo(30000);
        });

        PersistentVolumeClaim cache = ModelCacheClaimDependent.desired(kimi);
        assertThat(cache.getMetadata().getName()).isEqualTo("kimi-k2-eagle3-model-cache");
        assertThat(cache.getSpec().getResources().getRequests()).containsEntry("storage", new Quantity("2Ti"));
        assertThat(cache.getSpec().getAccessModes()).containsExactly("ReadWriteOnce");

        Service service = ServerServiceDependent.desired(kimi);
        assertThat(service.getSpec().getSelector()).isEqualTo(selector("kimi-k2-eagle3"));
        assertThat(service.getSpec().getPorts()).singleElement().satisfies(p -> {
            assertThat(p.getName()).isEqualTo("http");
            assertThat(p.getPort()).isEqualTo(30000);
            assertThat(p.getTargetPort().getStrVal()).isEqualTo("http");
        });
        assertThat(ServerServiceDependent.endpoint(kimi)).isEqualTo("http://kimi-k2-eagle3.llm.svc:30000");
    }

    @Test
    void theServersApiKeyComesFromItsSecretThroughAVariableTheKubeletExpands() {
        ModelServer qwen = TestModelServers.example("small-model-b200.yaml", "llm");
        qwen.getSpec().apiKeySecret = new SecretKeyReference();
        qwen.getSpec().apiKeySecret.name = "qwen-api";
        qwen.getSpec().apiKeySecret.key = "key";
        Container sglang = ServerDeploymentDependent.desired(qwen, TestModelServers.config(Optional.empty()))
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0);

        assertThat(sglang.getArgs()).containsSubsequence("--api-key", "$(LLMOPS_SERVER_API_KEY)");
        EnvVar key = env(sglang, "LLMOPS_SERVER_API_KEY");
        assertThat(key.getValue()).isNull();
        assertThat(key.getValueFrom().getSecretKeyRef().getName()).isEqualTo("qwen-api");
        assertThat(key.getValueFrom().getSecretKeyRef().getKey()).isEqualTo("key");
    }

    @Test
    void smallModelOnOneB200() {
        ModelServer qwen = TestModelServers.example("small-model-b200.yaml", "llm");
        PodSpec pod = ServerDeploymentDependent.desired(qwen, TestModelServers.config(Optional.of("nvidia")))
                .getSpec()
                .getTemplate()
                .getSpec();
        Container sglang = pod.getContainers().get(0);

        assertThat(String.join(" ", sglang.getArgs()))
                .isEqualTo("--model-path Qwen/Qwen3-8B --host 0.0.0.0 --port 30000 --tp-size 1 --enable-metrics"
                        + " --enable-cache-report");
        assertThat(sglang.getResources().getLimits()).containsEntry("nvidia.com/gpu", new Quantity("1"));
        assertThat(sglang.getEnv()).extracting(EnvVar::getName).containsExactly("HF_HOME");
        assertThat(sglang.getStartupProbe().getPeriodSeconds()
                        * sglang.getStartupProbe().getFailureThreshold())
                .isEqualTo(1800);
        assertThat(requiredTerms(pod))
                .singleElement()
                .satisfies(term -> assertThat(term.getMatchExpressions())
                        .containsExactlyInAnyOrder(
                                BLACKWELL,
                                new NodeSelectorRequirement(GpuPlacement.COMPUTE_MAJOR_LABEL, "In", List.of("10")),
                                new NodeSelectorRequirement(GpuPlacement.PRODUCT_LABEL, "In", List.of("NVIDIA-B200")),
                                DRIVER_580));
        assertThat(pod.getRuntimeClassName())
                .as("the configured default runtime class")
                .isEqualTo("nvidia");
    }

    @Test
    void theCacheReportIsOnByDefaultAndNotRepeatedWhenTheExtraArgumentsHaveIt() {
        ModelServer qwen = TestModelServers.example("small-model-b200.yaml", "llm");
        qwen.getSpec().extraArgs = List.of("--enable-cache-report", "--mem-fraction-static", "0.8");

        List<String> args = ServerDeploymentDependent.desired(qwen, TestModelServers.config(Optional.empty()))
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0)
                .getArgs();

        assertThat(args)
                .containsOnlyOnce("--enable-cache-report")
                .endsWith("--enable-metrics", "--enable-cache-report", "--mem-fraction-static", "0.8");
    }

    @Test
    void cuda12ImageCarriesNoDriverRequirement() {
        ModelServer qwen = TestModelServers.example("small-model-b200.yaml", "llm");
        qwen.getSpec().image = "lmsysorg/sglang:v0.5.19-cu129";
        PodSpec pod = ServerDeploymentDependent.desired(qwen, TestModelServers.config(Optional.empty()))
                .getSpec()
                .getTemplate()
                .getSpec();
        assertThat(pod.getContainers().get(0).getImage()).isEqualTo("lmsysorg/sglang:v0.5.19-cu129");
        assertThat(requiredTerms(pod).get(0).getMatchExpressions())
                .extracting(NodeSelectorRequirement::getKey)
                .doesNotContain(GpuPlacement.DRIVER_MAJOR_LABEL);
    }

    @Test
    void objectsWhoseKindsAllowLessThanTheServersNameGetDerivedNamesAndItsLabelsStay() {
        ModelServer dotted = TestModelServers.example("kimi-k2-rtx-pro-6000-autoregressive.yaml", "llm");
        dotted.getMetadata().setName("kimi-k2.5-" + "x".repeat(53));
        OperatorConfig config = TestModelServers.config(Optional.empty());

        Service service = ServerServiceDependent.desired(dotted);
        String lws =
                LeaderWorkerSetDependent.desired(dotted, config).getMetadata().getName();
        Deployment deployment = ServerDeploymentDependent.desired(dotted, config);

        assertThat(service.getMetadata().getName())
                .matches("[a-z]([-a-z0-9]*[a-z0-9])?")
                .hasSize(63);
        assertThat(ServerServiceDependent.endpoint(dotted))
                .isEqualTo("http://" + service.getMetadata().getName() + ".llm.svc:30000");
        assertThat(lws).matches("[a-z]([-a-z0-9]*[a-z0-9])?").hasSizeLessThanOrEqualTo(40);
        assertThat(deployment.getMetadata().getName())
                .isEqualTo(dotted.getMetadata().getName());
        assertThat(service.getSpec().getSelector())
                .isEqualTo(selector(dotted.getMetadata().getName()));
    }

    @Test
    void multiNodeReplicasBecomeALeaderWorkerSet() {
        ModelServer kimi = TestModelServers.example("kimi-k2-rtx-pro-6000-autoregressive.yaml", "llm");
        kimi.getSpec().accelerator.gpusPerReplica = 16;
        kimi.getSpec().parallelism.tp = 16;
        kimi.getSpec().parallelism.nodes = 2;
        kimi.getSpec().replicas = 3;
        LeaderWorkerSet lws = LeaderWorkerSetDependent.desired(kimi, TestModelServers.config(Optional.empty()));

        assertThat(lws.getApiVersion()).isEqualTo("leaderworkerset.x-k8s.io/v1");
        assertThat(lws.getKind()).isEqualTo("LeaderWorkerSet");
        assertThat(lws.getMetadata().getName()).isEqualTo("kimi-k2-autoregressive");
        assertThat(lws.<Integer>get("spec", "replicas")).isEqualTo(3);
        assertThat(lws.<Integer>get("spec", "leaderWorkerTemplate", "size")).isEqualTo(2);
        KubernetesSerialization json = new KubernetesSerialization();
        PodTemplateSpec leader =
                json.convertValue(lws.get("spec", "leaderWorkerTemplate", "leaderTemplate"), PodTemplateSpec.class);
        PodTemplateSpec worker =
                json.convertValue(lws.get("spec", "leaderWorkerTemplate", "workerTemplate"), PodTemplateSpec.class);

        String rendezvous = "--dist-init-addr $(LWS_LEADER_ADDRESS):20000 --nnodes $(LWS_GROUP_SIZE) --node-rank "
                + "$(LWS_WORKER_INDEX)";
        for (PodTemplateSpec template : List.of(leader, worker)) {
            Container sglang = template.getSpec().getContainers().get(0);
            assertThat(String.join(" ", sglang.getArgs()))
                    .contains("--tp-size 16")
                    .contains(rendezvous)
                    .endsWith(rendezvous
                            + " --reasoning-parser kimi_k2 --tool-call-parser kimi_k2 --mem-fraction-static 0.85");
            assertThat(sglang.getResources().getLimits()).containsEntry("nvidia.com/gpu", new Quantity("8"));
            assertThat(requiredTerms(template.getSpec()).get(0).getMatchExpressions())
                    .contains(BLACKWELL, DRIVER_580);
            assertThat(template.getSpec().getAutomountServiceAccountToken()).isFalse();
            assertThat(sglang.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        }
        assertThat(leader.getMetadata().getLabels())
                .containsEntry(Labels.COMPONENT, "server")
                .containsAllEntriesOf(selector("kimi-k2-autoregressive"));
        assertThat(leader.getSpec().getReadinessGates()).hasSize(1);
        assertThat(leader.getSpec().getContainers().get(0).getStartupProbe()).isNotNull();
        assertThat(worker.getMetadata().getLabels()).containsEntry(Labels.COMPONENT, "worker");
        assertThat(worker.getSpec().getReadinessGates()).isEmpty();
        assertThat(worker.getSpec().getContainers().get(0).getStartupProbe()).isNull();
        assertThat(worker.getSpec().getContainers().get(0).getLivenessProbe()).isNull();
        assertThat(worker.getSpec().getContainers().get(0).getPorts()).isEmpty();
        assertThat(ModelCacheClaimDependent.desired(kimi).getSpec().getAccessModes())
                .containsExactly("ReadWriteMany");
    }

    @Test
    void userSchedulingIsMergedIntoTheGpuPlacement() {
        ModelServer qwen = TestModelServers.example("small-model-b200.yaml", "llm");
        SchedulingSpec user = qwen.getSpec().scheduling;
        user.nodeSelector = Map.of("topology.kubernetes.io/zone", "zone-a");
        Toleration dedicated = new TolerationBuilder()
                .withKey("dedicated")
                .withValue("llm")
                .withOperator("Equal")
                .withEffect("NoSchedule")
                .build();
        user.tolerations = List.of(dedicated, gpuToleration());
        user.priorityClassName = "llm-serving";
        user.runtimeClassName = "nvidia-cdi";
        NodeSelectorRequirement pool = new NodeSelectorRequirement("pool", "In", List.of("a", "b"));
        NodeSelectorRequirement rack = new NodeSelectorRequirement("rack", "Exists", List.of());
        user.affinity = new AffinityBuilder()
                .withNewNodeAffinity()
                .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                .addNewNodeSelectorTerm()
                .withMatchExpressions(pool)
                .endNodeSelectorTerm()
                .addNewNodeSelectorTerm()
                .withMatchExpressions(rack)
                .withMatchFields(new NodeSelectorRequirement("metadata.name", "In", List.of("gpu-node-7")))
                .endNodeSelectorTerm()
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .addNewPreferredDuringSchedulingIgnoredDuringExecution()
                .withWeight(50)
                .withNewPreference()
                .withMatchExpressions(new NodeSelectorRequirement("nvme", "In", List.of("true")))
                .endPreference()
                .endPreferredDuringSchedulingIgnoredDuringExecution()
                .endNodeAffinity()
                .withNewPodAntiAffinity()
                .addNewRequiredDuringSchedulingIgnoredDuringExecution()
                .withTopologyKey("kubernetes.io/hostname")
                .withNewLabelSelector()
                .addToMatchLabels("app", "other")
                .endLabelSelector()
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .endPodAntiAffinity()
                .build();

        PodSpec pod = ServerDeploymentDependent.desired(qwen, TestModelServers.config(Optional.of("nvidia")))
                .getSpec()
                .getTemplate()
                .getSpec();

        List<NodeSelectorTerm> terms = requiredTerms(pod);
        assertThat(terms).hasSize(2);
        assertThat(terms.get(0).getMatchExpressions()).contains(BLACKWELL, DRIVER_580, pool);
        assertThat(terms.get(1).getMatchExpressions()).contains(BLACKWELL, DRIVER_580, rack);
        assertThat(terms.get(1).getMatchFields())
                .singleElement()
                .satisfies(f -> assertThat(f.getValues()).containsExactly("gpu-node-7"));
        assertThat(pod.getAffinity().getNodeAffinity().getPreferredDuringSchedulingIgnoredDuringExecution())
                .hasSize(1);
        assertThat(pod.getAffinity().getPodAntiAffinity()).isEqualTo(user.affinity.getPodAntiAffinity());
        assertThat(pod.getNodeSelector()).containsExactly(Map.entry("topology.kubernetes.io/zone", "zone-a"));
        assertThat(pod.getTolerations()).containsExactly(gpuToleration(), dedicated);
        assertThat(pod.getPriorityClassName()).isEqualTo("llm-serving");
        assertThat(pod.getRuntimeClassName()).isEqualTo("nvidia-cdi");
    }

    private static Toleration gpuToleration() {
        return new TolerationBuilder()
                .withKey("nvidia.com/gpu")
                .withOperator("Exists")
                .withEffect("NoSchedule")
                .build();
    }

    private static List<NodeSelectorTerm> requiredTerms(PodSpec pod) {
        return pod.getAffinity()
                .getNodeAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution()
                .getNodeSelectorTerms();
    }

    private static EnvVar env(Container container, String name) {
        return container.getEnv().stream()
                .filter(e -> e.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no env " + name));
    }

    private static Volume volume(PodSpec pod, String mountPath, Container container) {
        String name = container.getVolumeMounts().stream()
                .filter(m -> m.getMountPath().equals(mountPath))
                .findFirst()
                .orElseThrow(() -> new AssertionError("nothing mounted at " + mountPath))
                .getName();
        return pod.getVolumes().stream()
                .filter(v -> v.getName().equals(name))
                .findFirst()
                .orElseThrow();
    }

    /** The serving pods' selector, spelled out: a Deployment's selector cannot change once applied. */
    private static Map<String, String> selector(String instance) {
        return Map.of(
                "app.kubernetes.io/name", "sglang",
                "app.kubernetes.io/instance", instance,
                "app.kubernetes.io/component", "server");
    }
}
