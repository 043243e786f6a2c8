package dev.llmops.serving.e2e;

import static dev.llmops.serving.e2e.support.ServingResources.awaitFinished;
import static dev.llmops.serving.e2e.support.ServingResources.awaitServer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerPhase;
import dev.llmops.serving.common.SecretArgs;
import dev.llmops.serving.e2e.support.E2eCluster;
import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.OperatorUnderTest;
import dev.llmops.serving.e2e.support.ServingResources;
import dev.llmops.serving.e2e.support.TestNamespace;
import dev.llmops.serving.helm.RenderedChart;
import dev.llmops.serving.operator.modelserver.SglangCommand;
import dev.llmops.serving.simulator.SglangSimulator;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Secret values stay where Kubernetes keeps them, through the packaged operator on a real control plane: a ModelServer
 * with a Hugging Face token and an API key, a run against it with the server's key and a run with a key of its own
 * for an allow-listed external URL all work (the simulated servers require the keys, so they did travel), yet no value
 * shows in any object the operator wrote, any Event or the operator's log, and secret-bearing flags a user wrote into
 * spec.extraArgs are shown redacted. On the way, Pod Security admission: the runner pod is admitted and runs in a
 * namespace that enforces {@code restricted}, the SGLang pod in one that enforces {@code baseline}, missing of
 * {@code restricted} only {@code runAsNonRoot} (the SGLang images run as root).
 */
@E2eTest
class SecretsStaySecretIT {

    private static final String PSA = "pod-security.kubernetes.io/";
    private static final String SERVER = "guarded";
    private static final String LITERAL_KEY_SERVER = "literal-key";
    private static final String OWN_KEY_RUN = "server-key";
    private static final String EXTERNAL_RUN = "external-key";
    private static final String EXTERNAL_MODEL = "external-model";

    private static final String HF_TOKEN = secret("hf_");
    private static final String SERVER_KEY = secret("sk-server-");
    private static final String RUNNER_KEY = secret("sk-runner-");
    /** Values a user wrote into spec.extraArgs: in the pod spec by the user's choice, but never shown further. */
    private static final String EXTRA_ARG_TOKEN = secret("extra-token-");

    private static final String LITERAL_API_KEY = secret("literal-key-");

    private static SglangSimulator external;
    private static TestNamespace restricted;
    private static ModelServer ready;
    private static BenchmarkRun ownKeyRun;
    private static BenchmarkRun externalRun;

    @RegisterExtension
    static final OperatorUnderTest operator = OperatorUnderTest.installed()
            .onFakeGpuFleet()
            .beforeStart(SecretsStaySecretIT::createNamespacesSecretsAndExternalServer)
            .valueAtStart("watchNamespaces[1]", () -> restricted.name())
            .value("benchmark.apiKeyHosts[0]", "127.0.0.1")
            // The most the operator ever logs: every reconcile, request and decision.
            .value("logLevel", "DEBUG")
            .deletingServersBeforeStop(SERVER)
            .afterStop(SecretsStaySecretIT::stopExternalServerAndDeleteRestrictedNamespace);

    /** The namespaces' Pod Security labels, the restricted second namespace, the keys, the external server. */
    private static void createNamespacesSecretsAndExternalServer(E2eCluster cluster, TestNamespace namespace) {
        KubernetesClient client = cluster.client();
        label(client, namespace.name(), Map.of(PSA + "enforce", "baseline", PSA + "warn", "restricted"));
        restricted = TestNamespace.create(client, SecretsStaySecretIT.class);
        label(client, restricted.name(), Map.of(PSA + "enforce", "restricted"));
        secret(client, namespace.name(), "hf-token", HF_TOKEN);
        secret(client, namespace.name(), "server-key", SERVER_KEY);
        secret(client, restricted.name(), "runner-key", RUNNER_KEY);
        external = SglangSimulator.builder()
                .host("127.0.0.1")
                .model(EXTERNAL_MODEL)
                .apiKey(RUNNER_KEY)
                .recordGroundTruth(false)
                .start();
    }

    /** After the operator, as it watches the restricted namespace. */
    private static void stopExternalServerAndDeleteRestrictedNamespace(E2eCluster cluster, TestNamespace namespace) {
        if (external != null) {
            external.close();
        }
        if (restricted != null) {
            restricted.delete(cluster.client());
        }
    }

    @BeforeAll
    static void runEverything(KubernetesClient client, TestNamespace namespace) {
        create(
                client,
                namespace.name(),
                ModelServer.class,
                server(SERVER, "[--admin-api-key, " + EXTRA_ARG_TOKEN + "]"));
        create(
                client,
                namespace.name(),
                ModelServer.class,
                server(LITERAL_KEY_SERVER, "[--api-key, " + LITERAL_API_KEY + "]"));
        create(client, namespace.name(), BenchmarkRun.class, run(OWN_KEY_RUN, "modelServer: " + SERVER));
        create(client, restricted.name(), BenchmarkRun.class, run(EXTERNAL_RUN, """
                url: %s
                    model: %s
                    apiKeySecret:
                      name: runner-key
                      key: key""".formatted(
                        external.baseUrl(), EXTERNAL_MODEL)));

        ready = awaitServer(
                client,
                namespace,
                SERVER,
                s -> s.getStatus() != null && s.getStatus().phase == ModelServerPhase.Ready,
                "Ready (its inference probe sent the key)");
        ownKeyRun = awaitFinished(client, namespace, OWN_KEY_RUN);
        externalRun = awaitFinished(client, restricted, EXTERNAL_RUN);
        awaitServer(
                client,
                namespace,
                LITERAL_KEY_SERVER,
                s -> s.getStatus() != null && stalled(s),
                "Stalled on --api-key in spec.extraArgs");
    }

    @Test
    void everyKeyReachedWhereItWasSent() {
        assertThat(ownKeyRun.getStatus().phase)
                .as("the run against the ModelServer, its runner sending the server's key: %s", ownKeyRun.getStatus())
                .isEqualTo(BenchmarkRunPhase.Succeeded);
        assertThat(externalRun.getStatus().phase)
                .as("the run against the external URL, its runner sending its own key: %s", externalRun.getStatus())
                .isEqualTo(BenchmarkRunPhase.Succeeded);
        assertThat(external.tokensSent())
                .as("tokens the external server sent to the keyed runner")
                .isPositive();
    }

    @Test
    void podSpecsNameTheSecretsAndHoldNoValue(KubernetesClient client, TestNamespace namespace) {
        Container server = client.apps()
                .deployments()
                .inNamespace(namespace.name())
                .withName(SERVER)
                .get()
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0);
        assertThat(server.getArgs()).containsSubsequence("--api-key", "$(" + SglangCommand.API_KEY_ENV + ")");
        assertThat(server.getEnv())
                .filteredOn(e -> e.getValueFrom() != null && e.getValueFrom().getSecretKeyRef() != null)
                .extracting(e -> e.getValueFrom().getSecretKeyRef().getName())
                .containsExactlyInAnyOrder("hf-token", "server-key");
        assertThat(server.getEnv()).extracting(EnvVar::getValue).doesNotContain(HF_TOKEN, SERVER_KEY);
        for (TestNamespace ns : List.of(namespace, restricted)) {
            assertThat(client.batch().v1().jobs().inNamespace(ns.name()).list().getItems())
                    .singleElement()
                    .satisfies(job -> assertThat(job.getSpec()
                                    .getTemplate()
                                    .getSpec()
                                    .getContainers()
                                    .get(0)
                                    .getEnv())
                            .singleElement()
                            .satisfies(e -> assertThat(e.getValueFrom().getSecretKeyRef())
                                    .isNotNull()));
        }
    }

    @Test
    void noSecretValueInAnyObjectEventOrLog(E2eCluster cluster, TestNamespace namespace) {
        for (TestNamespace ns : List.of(namespace, restricted)) {
            String objects = cluster.kubectl(
                    "get",
                    "modelservers,benchmarkruns,deployments,replicasets,jobs,pods,services,configmaps,events",
                    "--namespace",
                    ns.name(),
                    "--output",
                    "yaml");
            assertThat(objects).as("objects of %s", ns.name()).contains("kind: Event");
            assertThat(objects)
                    .as("every object and Event in %s", ns.name())
                    .doesNotContain(HF_TOKEN, SERVER_KEY, RUNNER_KEY);
            for (String runnerPod : cluster.kubectl(
                            "get",
                            "pods",
                            "--namespace",
                            ns.name(),
                            "--selector",
                            Labels.COMPONENT + "=" + Labels.BENCHMARK,
                            "--output",
                            "name")
                    .lines()
                    .toList()) {
                assertThat(cluster.kubectl("logs", "--namespace", ns.name(), runnerPod))
                        .as("log of %s", runnerPod)
                        .contains("PROGRESS")
                        .doesNotContain(SERVER_KEY, RUNNER_KEY);
            }
        }
        assertThat(operator.process().log())
                .as("the operator's log")
                .contains(SERVER)
                .doesNotContain(HF_TOKEN, SERVER_KEY, RUNNER_KEY, EXTRA_ARG_TOKEN, LITERAL_API_KEY);
    }

    @Test
    void secretBearingExtraArgsAreShownRedacted(E2eCluster cluster, KubernetesClient client, TestNamespace namespace) {
        assertThat(ready.getStatus().serverArgs)
                .containsSubsequence("--admin-api-key", SecretArgs.REDACTED)
                .containsSubsequence("--api-key", SecretArgs.REDACTED)
                .doesNotContain(EXTRA_ARG_TOKEN, SERVER_KEY);
        assertThat(ownKeyRun.getStatus().provenance.serverArgs)
                .containsSubsequence("--admin-api-key", SecretArgs.REDACTED)
                .doesNotContain(EXTRA_ARG_TOKEN);
        ModelServer literal = client.resources(ModelServer.class)
                .inNamespace(namespace.name())
                .withName(LITERAL_KEY_SERVER)
                .get();
        assertThat(literal.getStatus().conditions)
                .filteredOn(c -> ConditionTypes.STALLED.equals(c.getType()))
                .singleElement()
                .satisfies(c -> assertThat(c.getMessage()).contains("spec.extraArgs", "spec.apiKeySecret"));
        for (String kind : List.of("modelservers", "benchmarkruns")) {
            assertThat(cluster.kubectl(
                            "get", kind, "--namespace", namespace.name(), "--output", "jsonpath={.items[*].status}"))
                    .as("status of the %s", kind)
                    .isNotBlank()
                    .doesNotContain(EXTRA_ARG_TOKEN, LITERAL_API_KEY);
        }
        assertThat(cluster.kubectl("get", "events", "--namespace", namespace.name(), "--output", "yaml"))
                .doesNotContain(EXTRA_ARG_TOKEN, LITERAL_API_KEY);
    }

    @Test
    void theRunnerPodRunsUnderTheRestrictedPodSecurityStandard(KubernetesClient client) {
        Pod unconstrained = new PodBuilder()
                .withNewMetadata()
                .withName("unconstrained")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("main")
                .withImage("busybox")
                .endContainer()
                .endSpec()
                .build();
        assertThatThrownBy(() -> client.pods()
                        .inNamespace(restricted.name())
                        .resource(unconstrained)
                        .dryRun()
                        .create())
                .as("the API server enforces Pod Security in that namespace")
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("violates PodSecurity \"restricted");

        assertThat(client.pods()
                        .inNamespace(restricted.name())
                        .withLabel(Labels.COMPONENT, Labels.BENCHMARK)
                        .list()
                        .getItems())
                .singleElement()
                .satisfies(pod -> assertThat(pod.getStatus().getPhase()).isEqualTo("Succeeded"));
    }

    @Test
    void theSglangPodMissesOfRestrictedOnlyRunAsNonRoot(
            E2eCluster cluster, KubernetesClient client, TestNamespace namespace) {
        // Pod Security answers a namespace label change with a warning per running pod that the new level would refuse.
        String warnings = cluster.kubectl(
                "label", "namespace", namespace.name(), PSA + "enforce=restricted", "--overwrite", "--dry-run=server");

        List<String> podWarnings = warnings.lines()
                .filter(l -> l.startsWith("Warning: ") && !l.contains("existing pods in namespace"))
                .toList();
        String serverPod = ServingResources.serverPods(client, namespace, SERVER)
                .get(0)
                .getMetadata()
                .getName();
        assertThat(podWarnings)
                .as("kubectl label output:\n%s", warnings)
                .anySatisfy(w -> assertThat(w).startsWith("Warning: " + serverPod))
                .allSatisfy(w -> assertThat(w).endsWith(": runAsNonRoot != true"));
    }

    @Test
    void theChartsNetworkPolicySelectsTheRealServingAndRunnerPods(KubernetesClient client, TestNamespace namespace) {
        NetworkPolicy policy = RenderedChart.render(
                        Map.of("networkPolicy.enabled", true, "watchNamespaces[0]", namespace.name()))
                .all(NetworkPolicy.class)
                .findFirst()
                .orElseThrow();
        NetworkPolicy applied =
                client.resource(policy).inNamespace(namespace.name()).create();

        assertThat(podsSelectedBy(client, namespace, applied.getSpec().getPodSelector()))
                .containsExactlyElementsOf(ServingResources.serverPods(client, namespace, SERVER).stream()
                        .map(p -> p.getMetadata().getName())
                        .toList());
        NetworkPolicyPeer runners =
                applied.getSpec().getIngress().get(0).getFrom().get(1);
        assertThat(podsSelectedBy(client, namespace, runners.getPodSelector()))
                .singleElement()
                .satisfies(name -> assertThat(name).startsWith(ownKeyRun.getStatus().jobName));
    }

    private static List<String> podsSelectedBy(KubernetesClient client, TestNamespace namespace, LabelSelector s) {
        return client.pods().inNamespace(namespace.name()).withLabelSelector(s).list().getItems().stream()
                .map(p -> p.getMetadata().getName())
                .toList();
    }

    private static boolean stalled(ModelServer server) {
        return server.getStatus().conditions.stream()
                .anyMatch(c -> ConditionTypes.STALLED.equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private static String server(String name, String extraArgs) {
        return """
                apiVersion: serving.llmops.dev/v1alpha1
                kind: ModelServer
                metadata:
                  name: %s
                spec:
                  model:
                    path: Qwen/Qwen3-8B
                  accelerator:
                    family: blackwell
                    computeMajor: 12
                    product: NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition
                    gpusPerReplica: 1
                  resources:
                    cpu: "4"
                    memory: 32Gi
                  sharedMemorySize: 1Gi
                  huggingFaceTokenSecret:
                    name: hf-token
                    key: key
                  apiKeySecret:
                    name: server-key
                    key: key
                  extraArgs: %s
                """.formatted(name, extraArgs);
    }

    private static String run(String name, String target) {
        return """
                apiVersion: serving.llmops.dev/v1alpha1
                kind: BenchmarkRun
                metadata:
                  name: %s
                spec:
                  target:
                    %s
                  warmup:
                    requests: 1
                    maxTokens: 8
                  singleRequest:
                    prompts: ["Explain quantum entanglement"]
                  sweep:
                    concurrency: [2]
                    requestsPerLevel: 4
                  sampling:
                    maxTokens: 16
                  waitTimeoutSeconds: 180
                """.formatted(name, target);
    }

    private static String secret(String prefix) {
        return prefix + UUID.randomUUID().toString().replace("-", "");
    }

    private static void secret(KubernetesClient client, String namespace, String name, String value) {
        client.resource(new SecretBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(namespace)
                        .endMetadata()
                        .withStringData(Map.of("key", value))
                        .build())
                .create();
    }

    private static void label(KubernetesClient client, String namespace, Map<String, String> labels) {
        client.namespaces().withName(namespace).edit(ns -> {
            ns.getMetadata().getLabels().putAll(labels);
            return ns;
        });
    }

    private static <T extends HasMetadata> void create(
            KubernetesClient client, String namespace, Class<T> type, String yaml) {
        T resource = client.getKubernetesSerialization().unmarshal(yaml, type);
        client.resource(resource).inNamespace(namespace).create();
    }
}
