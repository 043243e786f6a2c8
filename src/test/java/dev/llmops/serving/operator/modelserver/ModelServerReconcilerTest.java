package dev.llmops.serving.operator.modelserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.api.v1alpha1.ConditionReasons;
import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.SecretKeyReference;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerPhase;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerStatus;
import dev.llmops.serving.modelserver.LoopbackHttp;
import dev.llmops.serving.modelserver.ServerPods;
import dev.llmops.serving.operator.compatibility.CompatibilityCheck;
import dev.llmops.serving.operator.toolkit.Conditions;
import dev.llmops.serving.operator.toolkit.PodLogs;
import dev.llmops.serving.operator.toolkit.StaleStatusWrites;
import dev.llmops.serving.simulator.Fault;
import dev.llmops.serving.simulator.SglangSimulator;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.EventListBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.javaoperatorsdk.operator.Operator;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The controller against the fabric8 mock API server, with pod states simulated the way the kubelet and scheduler
 * would report them, and a real SGLang simulator on a loopback address standing in for a pod's server.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true)
class ModelServerReconcilerTest {

    private static final Duration SETTLE = Duration.ofSeconds(20);

    @Inject
    KubernetesClient client;

    @KubernetesTestServer
    KubernetesServer server;

    @Inject
    Operator operator;

    /** The picocli entry point keeps the extension from starting the operator by itself; starting twice is a no-op. */
    @BeforeEach
    void operatorRuns() {
        operator.start();
    }

    @Test
    void anUnschedulablePodIsDiagnosedAsMissingGpus() {
        ModelServer example = TestModelServers.example("kimi-k2-rtx-pro-6000-eagle3.yaml", "unschedulable");
        example.getSpec().extraArgs = new java.util.ArrayList<>(example.getSpec().extraArgs);
        example.getSpec().extraArgs.add("--hf-token=hf_live_secret");
        ModelServer kimi = client.resource(example).create();
        awaitDeployment(kimi);
        Pod pod = podOf(
                kimi,
                "kimi-k2-eagle3-7d9f-abcde",
                new PodBuilder()
                        .withNewStatus()
                        .withPhase("Pending")
                        .withConditions(podCondition(
                                "PodScheduled",
                                "False",
                                "Unschedulable",
                                "0/6 nodes are available: 2 Insufficient nvidia.com/gpu, 4 node(s) didn't "
                                        + "match Pod's node affinity/selector."))
                        .endStatus());
        // The scheduler records its event a moment after marking the pod unschedulable. The API server selects events
        // by involved object; the mock server cannot, so it answers that one list.
        server.expect()
                .get()
                .withPath("/api/v1/namespaces/unschedulable/events?fieldSelector=involvedObject.name%3D"
                        + pod.getMetadata().getName())
                .andReturn(
                        200,
                        new EventListBuilder()
                                .addToItems(new EventBuilder()
                                        .withNewMetadata()
                                        .withName(pod.getMetadata().getName() + ".1")
                                        .withNamespace("unschedulable")
                                        .endMetadata()
                                        .withNewInvolvedObject()
                                        .withKind("Pod")
                                        .withName(pod.getMetadata().getName())
                                        .withNamespace("unschedulable")
                                        .endInvolvedObject()
                                        .withReason("FailedScheduling")
                                        .withType("Warning")
                                        .withMessage("0/6 nodes are available: 2 Insufficient nvidia.com/gpu, 4 "
                                                + "node(s) didn't match Pod's node affinity/selector. "
                                                + "preemption: 0/6 nodes are available: 6 No preemption "
                                                + "victims found for incoming pod.")
                                        .build())
                                .build())
                .always();

        ModelServerStatus status = awaitStatus(
                kimi,
                s -> s.diagnosis != null
                        && "InsufficientGPUs".equals(s.diagnosis.reason)
                        && s.diagnosis.message.contains("FailedScheduling event"));

        assertThat(status.phase).isEqualTo(ModelServerPhase.Scheduling);
        assertThat(status.diagnosis.pod).isEqualTo(pod.getMetadata().getName());
        assertThat(status.diagnosis.message)
                .contains("8 nvidia.com/gpu")
                .contains("NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition")
                .contains("Insufficient nvidia.com/gpu")
                .as("the event, recorded after the pod was marked unschedulable, is quoted: its preemption part is "
                        + "not in the pod's condition")
                .contains("Scheduler: (FailedScheduling event) 0/6 nodes are available")
                .contains("6 No preemption victims found for incoming pod.");
        assertThat(status.diagnosis.hint).isNotBlank();
        assertCondition(status, ConditionTypes.SCHEDULED, "False", "InsufficientGPUs");
        assertCondition(status, ConditionTypes.READY, "False", "InsufficientGPUs");
        assertCondition(status, ConditionTypes.RECONCILING, "True", "Scheduling");
        assertCondition(status, ConditionTypes.STALLED, "False", "NotStalled");
        assertThat(status.readyReplicasText).isEqualTo("0/1");
        assertThat(status.endpoint).isEqualTo("http://kimi-k2-eagle3.unschedulable.svc:30000");
        assertThat(status.image).isEqualTo(TestModelServers.DEFAULT_IMAGE);
        assertThat(status.serverArgs)
                .startsWith("python3", "-m", "sglang.launch_server", "--model-path", "moonshotai/Kimi-K2.5")
                .endsWith("--hf-token=<redacted>")
                .noneMatch(arg -> arg.contains("hf_live_secret"));
        assertThat(client.v1().events().inNamespace("unschedulable").list().getItems())
                .anySatisfy(e -> {
                    assertThat(e.getInvolvedObject().getName()).isEqualTo("kimi-k2-eagle3");
                    assertThat(e.getReason()).isEqualTo("Scheduling");
                });
        assertThat(client.persistentVolumeClaims()
                        .inNamespace("unschedulable")
                        .withName("kimi-k2-eagle3-model-cache")
                        .get())
                .isNotNull();
        assertThat(client.services()
                        .inNamespace("unschedulable")
                        .withName("kimi-k2-eagle3")
                        .get())
                .isNotNull();
    }

    @Test
    void aCrashLoopEndingInMissingCurandHeadersSuggestsTheFullCuda13Image() {
        ModelServer qwen = create("small-model-b200.yaml", "crashloop");
        String podName = "qwen3-8b-5c4b-xyz12";
        server.expect()
                .get()
                .withPath("/api/v1/namespaces/crashloop/pods/" + podName
                        + "/log?pretty=false&container=sglang&previous=true&tailLines=200&limitBytes="
                        + PodLogs.MAX_TAIL_BYTES)
                .andReturn(200, """
                        [2026-01-01 10:00:01] Load weight end. type=Qwen3ForCausalLM, dtype=torch.bfloat16, \
                        avail mem=160.12 GB
                        [2026-01-01 10:00:02] Compiling FlashInfer sampling kernels (JIT)
                        /usr/local/lib/python3.12/dist-packages/flashinfer/data/include/flashinfer/sampling.cuh:23:10: \
                        fatal error: curand.h: No such file or directory
                        """)
                .always();
        podOf(
                qwen,
                podName,
                new PodBuilder()
                        .withNewStatus()
                        .withPhase("Running")
                        .withPodIP("127.0.0.31")
                        .withConditions(podCondition("PodScheduled", "True", null, null))
                        .withContainerStatuses(new ContainerStatusBuilder()
                                .withName("sglang")
                                .withImage("lmsysorg/sglang:v0.5.18-cu130-runtime")
                                .withRestartCount(3)
                                .withReady(false)
                                .withStarted(false)
                                .withNewState()
                                .withNewWaiting()
                                .withReason("CrashLoopBackOff")
                                .withMessage("back-off 40s restarting failed container=sglang")
                                .endWaiting()
                                .endState()
                                .withNewLastState()
                                .withNewTerminated()
                                .withExitCode(1)
                                .withReason("Error")
                                .endTerminated()
                                .endLastState()
                                .build())
                        .endStatus());

        ModelServerStatus status =
                awaitStatus(qwen, s -> s.diagnosis != null && "CudaHeadersMissing".equals(s.diagnosis.reason));

        assertThat(status.diagnosis.message)
                .contains("CUDA development headers are missing")
                .contains("curand.h: No such file or directory");
        assertThat(status.diagnosis.hint).contains("full CUDA 13 SGLang image");
        assertThat(status.phase).isEqualTo(ModelServerPhase.Failed);
        assertCondition(status, ConditionTypes.STALLED, "True", "CudaHeadersMissing");
        assertCondition(status, ConditionTypes.RECONCILING, "False", "Stalled");
    }

    @Test
    void aServerThatListsModelsButFailsEveryGenerationIsNotReadyUntilItGenerates() {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .host("127.0.0.23")
                .model("Qwen/Qwen3-8B")
                .fault(Fault.HALF_READY)
                .start()) {
            ModelServer qwen = TestModelServers.example("small-model-b200.yaml", "halfready");
            qwen.getSpec().port = simulator.port();
            qwen.getSpec().readiness.probeIntervalSeconds = 10;
            qwen = client.resource(qwen).create();
            awaitDeployment(qwen);
            Pod pod = podOf(
                    qwen,
                    "qwen3-8b-6f7d-half1",
                    new PodBuilder()
                            .withNewStatus()
                            .withPhase("Running")
                            .withPodIP("127.0.0.23")
                            .withConditions(podCondition("PodScheduled", "True", null, null))
                            .withContainerStatuses(runningContainer())
                            .endStatus());

            ModelServerStatus failing = awaitStatus(
                    qwen,
                    s -> Conditions.find(s.conditions, ConditionTypes.INFERENCE_READY)
                            .filter(c -> "GenerationFailed".equals(c.getReason()))
                            .isPresent());
            assertThat(failing.phase)
                    .as("no kernel image for this GPU does not pass by waiting")
                    .isEqualTo(ModelServerPhase.Failed);
            assertThat(failing.readyReplicas).isZero();
            assertCondition(failing, ConditionTypes.READY, "False", "NoKernelImage");
            assertCondition(failing, ConditionTypes.STALLED, "True", "NoKernelImage");
            assertThat(failing.diagnosis.message).contains("http_500: CUDA error: no kernel image");
            await().atMost(SETTLE)
                    .until(() ->
                            gate(pod).filter(c -> "False".equals(c.getStatus())).isPresent());
            int attempts = simulator.requests().size();
            await().atMost(SETTLE).until(() -> simulator.requests().size() >= attempts + 2);
            assertThat(status(qwen).phase)
                    .as("still failing after more probes, which go on in case the node or image changes")
                    .isEqualTo(ModelServerPhase.Failed);
            assertThat(status(qwen).readyReplicas).isZero();

            simulator.setFault(Fault.NONE);

            ModelServerStatus ready = awaitStatus(
                    qwen,
                    Duration.ofSeconds(qwen.getSpec().readiness.probeIntervalSeconds),
                    s -> s.phase == ModelServerPhase.Ready);
            assertThat(ready.readyReplicas).isEqualTo(1);
            assertThat(ready.readyReplicasText).isEqualTo("1/1");
            assertThat(ready.diagnosis).isNull();
            assertThat(ready.lastInferenceProbe.pod).isEqualTo(pod.getMetadata().getName());
            assertThat(ready.lastInferenceProbe.outputTokens).isPositive();
            assertCondition(ready, ConditionTypes.READY, "True", "Ready");
            assertCondition(ready, ConditionTypes.INFERENCE_READY, "True", "GenerationSucceeded");
            assertCondition(ready, ConditionTypes.RECONCILING, "False", "Ready");
            assertCondition(ready, ConditionTypes.STALLED, "False", "NotStalled");
            await().atMost(SETTLE)
                    .until(() ->
                            gate(pod).filter(c -> "True".equals(c.getStatus())).isPresent());
            assertThat(client.pods().resource(pod).get().getStatus().getConditions())
                    .extracting(PodCondition::getType)
                    .as("the operator touches only its own pod condition")
                    .contains("PodScheduled");
        }
    }

    @Test
    void theProbeSendsTheApiKeyTheServerRequires() {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .host("127.0.0.24")
                .model("Qwen/Qwen3-8B")
                .apiKey("sk-probe-123")
                .start()) {
            client.resource(new SecretBuilder()
                            .withNewMetadata()
                            .withName("qwen-api")
                            .withNamespace("apikey")
                            .endMetadata()
                            .addToData(
                                    "key",
                                    java.util.Base64.getEncoder()
                                            .encodeToString("sk-probe-123\n".getBytes(StandardCharsets.UTF_8)))
                            .build())
                    .create();
            ModelServer qwen = TestModelServers.example("small-model-b200.yaml", "apikey");
            qwen.getSpec().port = simulator.port();
            qwen.getSpec().apiKeySecret = new SecretKeyReference();
            qwen.getSpec().apiKeySecret.name = "qwen-api";
            qwen.getSpec().apiKeySecret.key = "key";
            qwen = client.resource(qwen).create();
            awaitDeployment(qwen);
            podOf(
                    qwen,
                    "qwen3-8b-6f7d-key01",
                    new PodBuilder()
                            .withNewStatus()
                            .withPhase("Running")
                            .withPodIP("127.0.0.24")
                            .withConditions(podCondition("PodScheduled", "True", null, null))
                            .withContainerStatuses(runningContainer())
                            .endStatus());

            ModelServerStatus ready = awaitStatus(qwen, s -> s.phase == ModelServerPhase.Ready);
            assertCondition(ready, ConditionTypes.INFERENCE_READY, "True", "GenerationSucceeded");
            assertThat(ready.serverArgs)
                    .containsSubsequence("--api-key", "<redacted>")
                    .noneMatch(arg -> arg.contains("sk-probe-123"));
        }
    }

    /**
     * Pods that carry a server's labels but that its Deployment does not run (no owner; a forged controller reference
     * to a ReplicaSet UID that does not exist; a ReplicaSet of their own that names the server's Deployment with
     * another UID) get no request, so never the server's API key, no readiness gate and no diagnosis, although they
     * answer like a working server; the server turns Ready from its own pod only.
     */
    @Test
    void podsWithTheServersLabelsThatItsDeploymentDoesNotRunAreNeverProbedGatedOrDiagnosed() {
        try (LoopbackHttp impostor = LoopbackHttp.start("127.0.0.26", LoopbackHttp.ONE_TOKEN);
                SglangSimulator simulator = SglangSimulator.builder()
                        .host("127.0.0.27")
                        .port(impostor.port())
                        .model("Qwen/Qwen3-8B")
                        .apiKey("sk-probe-789")
                        .start()) {
            client.resource(new SecretBuilder()
                            .withNewMetadata()
                            .withName("qwen-api")
                            .withNamespace("impostors")
                            .endMetadata()
                            .addToData(
                                    "key",
                                    java.util.Base64.getEncoder()
                                            .encodeToString("sk-probe-789".getBytes(StandardCharsets.UTF_8)))
                            .build())
                    .create();
            ModelServer qwen = TestModelServers.example("small-model-b200.yaml", "impostors");
            qwen.getSpec().port = impostor.port();
            qwen.getSpec().apiKeySecret = new SecretKeyReference();
            qwen.getSpec().apiKeySecret.name = "qwen-api";
            qwen.getSpec().apiKeySecret.key = "key";
            qwen = client.resource(qwen).create();
            Deployment deployment = awaitDeployment(qwen);
            ReplicaSet theirOwn = client.resource(new ReplicaSetBuilder()
                            .withNewMetadata()
                            .withName("qwen3-8b-7a7a")
                            .withNamespace("impostors")
                            .withLabels(deployment
                                    .getSpec()
                                    .getTemplate()
                                    .getMetadata()
                                    .getLabels())
                            .addToOwnerReferences(new OwnerReferenceBuilder(ServerPods.controller(deployment))
                                    .withUid("5d2c9e61-7b3a-4f0e-8c47-2a9b6e1d0f35")
                                    .build())
                            .endMetadata()
                            .withNewSpec()
                            .withSelector(deployment.getSpec().getSelector())
                            .withTemplate(deployment.getSpec().getTemplate())
                            .endSpec()
                            .build())
                    .create();
            OwnerReference forged = new OwnerReferenceBuilder(ServerPods.controller(theirOwn))
                    .withName("qwen3-8b-6f7d")
                    .withUid("0b7e2f4c-2f43-4d2e-9a51-5c1e8d7f3a10")
                    .build();
            List<Pod> impostors = List.of(
                    ServerPods.lookingLike(client, deployment, "qwen3-8b-6f7d-unown", runningAt("127.0.0.26")),
                    ServerPods.lookingLike(client, deployment, "qwen3-8b-6f7d-forge", runningAt("127.0.0.26"), forged),
                    ServerPods.lookingLike(
                            client,
                            deployment,
                            "qwen3-8b-7a7a-their",
                            runningAt("127.0.0.26"),
                            ServerPods.controller(theirOwn)),
                    ServerPods.lookingLike(
                            client,
                            deployment,
                            "qwen3-8b-7a7a-crash",
                            new PodBuilder()
                                    .withNewStatus()
                                    .withPhase("Running")
                                    .withPodIP("127.0.0.26")
                                    .withContainerStatuses(new ContainerStatusBuilder()
                                            .withName("sglang")
                                            .withRestartCount(5)
                                            .withReady(false)
                                            .withNewState()
                                            .withNewWaiting()
                                            .withReason("CrashLoopBackOff")
                                            .withMessage("planted by a co-tenant")
                                            .endWaiting()
                                            .endState()
                                            .build())
                                    .endStatus(),
                            ServerPods.controller(theirOwn)));

            await().pollDelay(Duration.ofSeconds(3)).atMost(SETTLE).until(() -> true);
            assertThat(impostor.requests())
                    .as("requests that reached the impostors")
                    .isEmpty();
            ModelServerStatus alone = status(qwen);
            assertThat(alone.phase).isNotEqualTo(ModelServerPhase.Ready);
            assertThat(alone.readyReplicas).isZero();
            assertThat(alone.diagnosis).isNull();

            Pod own = podOf(qwen, "qwen3-8b-6f7d-own01", runningAt("127.0.0.27"));

            ModelServerStatus ready = awaitStatus(qwen, s -> s.phase == ModelServerPhase.Ready);
            assertThat(ready.readyReplicas).isEqualTo(1);
            assertThat(ready.lastInferenceProbe.pod).isEqualTo(own.getMetadata().getName());
            assertThat(ready.diagnosis).isNull();
            await().atMost(SETTLE)
                    .until(() ->
                            gate(own).filter(c -> "True".equals(c.getStatus())).isPresent());
            assertThat(impostor.requests())
                    .as("requests that reached the impostors")
                    .isEmpty();
            assertThat(impostors)
                    .allSatisfy(pod -> assertThat(gate(pod))
                            .as("gate of " + pod.getMetadata().getName())
                            .isEmpty());
        }
    }

    private static PodBuilder runningAt(String ip) {
        return new PodBuilder()
                .withNewStatus()
                .withPhase("Running")
                .withPodIP(ip)
                .withConditions(podCondition("PodScheduled", "True", null, null))
                .withContainerStatuses(runningContainer())
                .endStatus();
    }

    @Test
    void aMissingApiKeySecretOrKeyStallsTheServerNamingBoth() {
        ModelServer qwen = TestModelServers.example("small-model-b200.yaml", "nokey");
        qwen.getSpec().apiKeySecret = new SecretKeyReference();
        qwen.getSpec().apiKeySecret.name = "qwen-api";
        qwen.getSpec().apiKeySecret.key = "key";
        qwen = client.resource(qwen).create();
        podOf(
                qwen,
                "qwen3-8b-6f7d-nokey",
                new PodBuilder()
                        .withNewStatus()
                        .withPhase("Running")
                        .withPodIP("127.0.0.25")
                        .withConditions(podCondition("PodScheduled", "True", null, null))
                        .withContainerStatuses(runningContainer())
                        .endStatus());

        ModelServerStatus noSecret =
                awaitStatus(qwen, s -> s.diagnosis != null && "ApiKeySecretNotFound".equals(s.diagnosis.reason));
        assertThat(noSecret.phase).isEqualTo(ModelServerPhase.Failed);
        assertCondition(noSecret, ConditionTypes.STALLED, "True", "ApiKeySecretNotFound");
        assertThat(noSecret.diagnosis.message)
                .startsWith("spec.apiKeySecret: Secret qwen-api does not exist in namespace nokey")
                .contains("create Secret qwen-api with key key");

        client.resource(new SecretBuilder()
                        .withNewMetadata()
                        .withName("qwen-api")
                        .withNamespace("nokey")
                        .endMetadata()
                        .addToData("token", "c2stMTIz")
                        .build())
                .create();
        client.resources(ModelServer.class)
                .inNamespace("nokey")
                .withName("qwen3-8b")
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"metadata\":{\"annotations\":{\"touched\":\"true\"}}}");

        ModelServerStatus noKey =
                awaitStatus(qwen, s -> s.diagnosis != null && s.diagnosis.message.contains("has no key"));
        assertThat(noKey.diagnosis.message).startsWith("spec.apiKeySecret: Secret qwen-api has no key key");
    }

    @Test
    void aServerSendingAnEndlessDataLineIsNotReadyAndTheStatusSaysWhy() {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .host("127.0.0.25")
                .model("Qwen/Qwen3-8B")
                .fault(Fault.ENDLESS_LINE)
                .start()) {
            ModelServer qwen = TestModelServers.example("small-model-b200.yaml", "hostile");
            qwen.getSpec().port = simulator.port();
            qwen = client.resource(qwen).create();
            awaitDeployment(qwen);
            Pod pod = podOf(
                    qwen,
                    "qwen3-8b-6f7d-host1",
                    new PodBuilder()
                            .withNewStatus()
                            .withPhase("Running")
                            .withPodIP("127.0.0.25")
                            .withConditions(podCondition("PodScheduled", "True", null, null))
                            .withContainerStatuses(runningContainer())
                            .endStatus());

            ModelServerStatus failing = awaitStatus(
                    qwen,
                    s -> Conditions.find(s.conditions, ConditionTypes.INFERENCE_READY)
                            .filter(c -> "GenerationFailed".equals(c.getReason()))
                            .isPresent());

            assertThat(failing.readyReplicas).isZero();
            assertCondition(failing, ConditionTypes.READY, "False", "GenerationFailing");
            assertThat(failing.diagnosis.message).contains("too_large: response line exceeds 16 KiB");
            await().atMost(SETTLE)
                    .until(() ->
                            gate(pod).filter(c -> "False".equals(c.getStatus())).isPresent());
        }
    }

    @Test
    void aMissingHuggingFaceTokenSecretStallsNamingTheField() {
        ModelServer kimi = create("kimi-k2-rtx-pro-6000-autoregressive.yaml", "nosecret");
        podOf(
                kimi,
                "kimi-k2-autoregressive-8c9d-nosec",
                new PodBuilder()
                        .withNewStatus()
                        .withPhase("Pending")
                        .withConditions(podCondition("PodScheduled", "True", null, null))
                        .withContainerStatuses(new ContainerStatusBuilder()
                                .withName("sglang")
                                .withImage(TestModelServers.DEFAULT_IMAGE)
                                .withReady(false)
                                .withRestartCount(0)
                                .withNewState()
                                .withNewWaiting()
                                .withReason("CreateContainerConfigError")
                                .withMessage("secret \"hf-token\" not found")
                                .endWaiting()
                                .endState()
                                .build())
                        .endStatus());

        ModelServerStatus status = awaitStatus(
                kimi, s -> s.diagnosis != null && "HuggingFaceTokenSecretMissing".equals(s.diagnosis.reason));

        assertThat(status.diagnosis.message)
                .contains("spec.huggingFaceTokenSecret")
                .contains("secret \"hf-token\" not found");
        assertThat(status.diagnosis.hint).contains("hf-token").contains("token");
        assertCondition(status, ConditionTypes.STALLED, "True", "HuggingFaceTokenSecretMissing");
    }

    @Test
    void aDeploymentTheApiServerRefusesFailsTheServerAtOnceWithTheApiServersMessage() {
        String refusal = "Deployment.apps \"qwen3-8b\" is invalid: spec.template.spec.containers[0].env[0].name:"
                + " Required value";
        // the tests' operator creates with POST (the mock API server has no server-side apply)
        server.expect()
                .post()
                .withPath("/apis/apps/v1/namespaces/refused/deployments")
                .andReturn(
                        422,
                        new StatusBuilder()
                                .withCode(422)
                                .withReason("Invalid")
                                .withMessage(refusal)
                                .build())
                .always();
        ModelServer qwen = client.resource(TestModelServers.example("small-model-b200.yaml", "refused"))
                .create();

        ModelServerStatus status = awaitStatus(qwen, s -> Conditions.isTrue(s.conditions, ConditionTypes.STALLED));

        assertCondition(status, ConditionTypes.STALLED, "True", "ReconcileError");
        assertCondition(status, ConditionTypes.READY, "False", "ReconcileError");
        assertCondition(status, ConditionTypes.RECONCILING, "False", "ReconcileError");
        assertThat(status.phase).isEqualTo(ModelServerPhase.Failed);
        assertThat(Conditions.find(status.conditions, ConditionTypes.STALLED)
                        .orElseThrow()
                        .getMessage())
                .isEqualTo("The API server refused a change and will refuse it until the spec changes: deployment: "
                        + refusal + " (HTTP 422)");
        assertThat(status.diagnosis.message).contains(refusal).doesNotContain("https://");
    }

    @Test
    void extraArgsRepeatingADerivedFlagStallWithoutDeployingAnything() {
        ModelServer invalid = TestModelServers.example("small-model-b200.yaml", "badargs");
        invalid.getSpec().extraArgs = List.of("--port", "8080");
        ModelServer qwen = client.resource(invalid).create();

        ModelServerStatus status = awaitStatus(qwen, s -> s.phase == ModelServerPhase.Failed);

        assertCondition(status, ConditionTypes.STALLED, "True", "ExtraArgsRepeatDerivedFlag");
        assertCondition(status, ConditionTypes.READY, "False", "ExtraArgsRepeatDerivedFlag");
        assertThat(Conditions.find(status.conditions, ConditionTypes.STALLED)
                        .orElseThrow()
                        .getMessage())
                .contains("spec.extraArgs[0]")
                .contains("spec.port");
        assertThat(status.conditions)
                .allSatisfy(c -> assertThat(c.getObservedGeneration())
                        .isEqualTo(qwen.getMetadata().getGeneration()));
        assertThat(client.apps()
                        .deployments()
                        .inNamespace("badargs")
                        .withName("qwen3-8b")
                        .get())
                .isNull();
    }

    @Test
    void theKimiDflashRecipeOnSm120StallsNamingBothRulesWithoutDeployingAnything() {
        ModelServer recipe = kimiDflashRecipe("sm120", 12, null);
        ModelServer kimi = client.resource(recipe).create();

        ModelServerStatus status = awaitStatus(kimi, s -> s.phase == ModelServerPhase.Failed);

        assertCondition(status, ConditionTypes.STALLED, "True", ConditionReasons.INCOMPATIBLE_WITH_ACCELERATOR);
        assertThat(Conditions.find(status.conditions, ConditionTypes.STALLED)
                        .orElseThrow()
                        .getMessage())
                .contains("trtllm-mla-on-sm120", "--attention-backend trtllm_mla")
                .contains("fa4-on-sm120", "--speculative-draft-attention-backend fa4")
                .contains("SM120", "fix: ", "https://github.com/sgl-project/sglang/issues/15342");
        assertThat(status.allowedIncompatibilities).isNull();
        assertThat(client.apps()
                        .deployments()
                        .inNamespace("sm120")
                        .withName("kimi-k2-eagle3")
                        .get())
                .isNull();
    }

    @Test
    void theKimiDflashRecipeOnB200IsDeployed() {
        ModelServer recipe = kimiDflashRecipe("sm100", 10, "NVIDIA-B200");
        ModelServer kimi = client.resource(recipe).create();

        awaitDeployment(kimi);
        ModelServerStatus status = awaitStatus(kimi, s -> s.phase != null);
        assertCondition(status, ConditionTypes.STALLED, "False", "NotStalled");
    }

    @Test
    void theOverrideAnnotationLetsTheRecipeThroughAndTheStatusRecordsTheRulesItAllowed() {
        ModelServer recipe = kimiDflashRecipe("allowed", 12, null);
        recipe.getMetadata()
                .setAnnotations(Map.of(CompatibilityCheck.ALLOW_ANNOTATION, "trtllm-mla-on-sm120, fa4-on-sm120"));
        ModelServer kimi = client.resource(recipe).create();

        awaitDeployment(kimi);
        ModelServerStatus status = awaitStatus(kimi, s -> s.allowedIncompatibilities != null);
        assertThat(status.allowedIncompatibilities).containsExactly("trtllm-mla-on-sm120", "fa4-on-sm120");
        assertCondition(status, ConditionTypes.STALLED, "False", "NotStalled");
    }

    /** The published DFlash recipe for Kimi K2.5: trtllm_mla attention with fa4 draft attention. */
    private static ModelServer kimiDflashRecipe(String namespace, Integer computeMajor, String product) {
        ModelServer server = TestModelServers.example("kimi-k2-rtx-pro-6000-eagle3.yaml", namespace);
        server.getSpec().accelerator.computeMajor = computeMajor;
        server.getSpec().accelerator.product = product;
        server.getSpec().speculativeDecoding.algorithm = "DFLASH";
        server.getSpec().speculativeDecoding.draftModelPath = "z-lab/Kimi-K2.5-DFlash";
        server.getSpec().speculativeDecoding.numSteps = null;
        server.getSpec().speculativeDecoding.eagleTopK = null;
        server.getSpec().speculativeDecoding.numDraftTokens = 8;
        server.getSpec().extraArgs = new ArrayList<>(server.getSpec().extraArgs);
        server.getSpec()
                .extraArgs
                .addAll(List.of("--attention-backend", "trtllm_mla", "--speculative-draft-attention-backend", "fa4"));
        return server;
    }

    /**
     * The first status write refused because the server changed since the reconcile read it records no Event: the
     * next reconcile, from the newer copy, writes the status and records the phase once.
     */
    @Test
    void aStatusWriteOverAStaleCopyRecordsNoEventAndTheNextReconcileRecordsItOnce() {
        ModelServer invalid = TestModelServers.example("small-model-b200.yaml", "contended");
        invalid.getSpec().extraArgs = List.of("--port", "8080");
        StaleStatusWrites.refuseNext(server, "contended", "modelservers", "qwen3-8b");

        ModelServerStatus status =
                awaitStatus(client.resource(invalid).create(), s -> s.phase == ModelServerPhase.Failed);

        assertCondition(status, ConditionTypes.STALLED, "True", "ExtraArgsRepeatDerivedFlag");
        await().atMost(SETTLE)
                .until(() -> !client.v1()
                        .events()
                        .inNamespace("contended")
                        .list()
                        .getItems()
                        .isEmpty());
        assertThat(client.v1().events().inNamespace("contended").list().getItems())
                .extracting(Event::getReason)
                .containsExactly("Failed");
    }

    @Test
    void multiNodeReplicasStallWhenLeaderWorkerSetIsNotInstalled() {
        ModelServer kimi = TestModelServers.example("kimi-k2-rtx-pro-6000-autoregressive.yaml", "nolws");
        kimi.getSpec().accelerator.gpusPerReplica = 16;
        kimi.getSpec().parallelism.tp = 16;
        kimi.getSpec().parallelism.nodes = 2;
        ModelServer created = client.resource(kimi).create();

        ModelServerStatus status = awaitStatus(created, s -> s.phase == ModelServerPhase.Failed);

        assertCondition(status, ConditionTypes.STALLED, "True", "LeaderWorkerSetNotInstalled");
        assertThat(status.diagnosis.message)
                .contains("spec.parallelism.nodes=2")
                .contains("leaderworkerset.x-k8s.io/v1")
                .contains("not installed");
        assertThat(client.apps().deployments().inNamespace("nolws").list().getItems())
                .isEmpty();
    }

    /** A pod event that changes nothing the status says wakes the server without a status request. */
    @Test
    void aReconcileThatFindsNothingNewSendsNoStatusRequest() throws InterruptedException {
        ModelServer qwen = create("small-model-b200.yaml", "unchanged");
        Pod pod = podOf(
                qwen,
                "qwen3-8b-6f7d-still",
                new PodBuilder().withNewStatus().withPhase("Pending").endStatus());
        awaitStatus(qwen, s -> s.phase != null);
        await().pollDelay(Duration.ofSeconds(2)).atMost(SETTLE).until(() -> true);
        statusRequests(qwen);

        for (int touch = 1; touch <= 2; touch++) {
            String value = String.valueOf(touch);
            client.pods()
                    .inNamespace(pod.getMetadata().getNamespace())
                    .withName(pod.getMetadata().getName())
                    .edit(p -> {
                        p.getMetadata().setAnnotations(Map.of("touched", value));
                        return p;
                    });
        }
        await().pollDelay(Duration.ofSeconds(3)).atMost(SETTLE).until(() -> true);
        assertThat(statusRequests(qwen)).isEmpty();
    }

    /** The requests to a server's status subresource the mock API server recorded since the last call (draining it). */
    private List<String> statusRequests(ModelServer owner) throws InterruptedException {
        String path = "/namespaces/" + owner.getMetadata().getNamespace() + "/modelservers/"
                + owner.getMetadata().getName() + "/status";
        List<String> requests = new ArrayList<>();
        RecordedRequest request;
        while ((request = server.getKubernetesMockServer().takeRequest(100, TimeUnit.MILLISECONDS)) != null) {
            if (request.getPath().contains(path)) {
                requests.add(request.getMethod() + " " + request.getPath());
            }
        }
        return requests;
    }

    private ModelServer create(String example, String namespace) {
        ModelServer created =
                client.resource(TestModelServers.example(example, namespace)).create();
        awaitDeployment(created);
        return created;
    }

    private Deployment awaitDeployment(ModelServer owner) {
        return await().atMost(SETTLE)
                .until(
                        () -> client.apps()
                                .deployments()
                                .inNamespace(owner.getMetadata().getNamespace())
                                .withName(owner.getMetadata().getName())
                                .get(),
                        d -> d != null);
    }

    /** A pod as the ReplicaSet controller would create it from the Deployment's template, with the given status. */
    private Pod podOf(ModelServer owner, String name, PodBuilder withStatus) {
        return ServerPods.runBy(client, awaitDeployment(owner), name, withStatus);
    }

    private static ContainerStatus runningContainer() {
        return new ContainerStatusBuilder()
                .withName("sglang")
                .withImage(TestModelServers.DEFAULT_IMAGE)
                .withReady(true)
                .withStarted(true)
                .withRestartCount(0)
                .withNewState()
                .withNewRunning()
                .withStartedAt("2026-01-01T10:00:00Z")
                .endRunning()
                .endState()
                .build();
    }

    private static PodCondition podCondition(String type, String status, String reason, String message) {
        return new PodConditionBuilder()
                .withType(type)
                .withStatus(status)
                .withReason(reason)
                .withMessage(message)
                .build();
    }

    private Optional<PodCondition> gate(Pod pod) {
        return PodDiagnoser.condition(client.pods().resource(pod).get(), ConditionTypes.POD_INFERENCE_READY);
    }

    private ModelServerStatus status(ModelServer server) {
        return client.resource(server).get().getStatus();
    }

    private ModelServerStatus awaitStatus(ModelServer server, java.util.function.Predicate<ModelServerStatus> until) {
        return awaitStatus(server, SETTLE, until);
    }

    private ModelServerStatus awaitStatus(
            ModelServer server, Duration atMost, java.util.function.Predicate<ModelServerStatus> until) {
        return await().atMost(atMost)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> status(server), s -> s != null && until.test(s));
    }

    private static void assertCondition(ModelServerStatus status, String type, String expectedStatus, String reason) {
        Condition condition =
                Conditions.find(status.conditions, type).orElseThrow(() -> new AssertionError("no condition " + type));
        assertThat(condition.getStatus()).as(type).isEqualTo(expectedStatus);
        assertThat(condition.getReason()).as(type + " reason").isEqualTo(reason);
    }
}
