package dev.llmops.serving.e2e.support;

import static org.awaitility.Awaitility.await;

import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

/**
 * ModelServers and BenchmarkRuns sized for the fake fleet and the suite's clock: servers on the SM120 nodes, benchmarks
 * of a few short requests, so a whole run takes seconds.
 */
public final class ServingResources {

    public static final Duration SERVER_READY_TIMEOUT = Duration.ofMinutes(2);
    public static final Duration RUN_TIMEOUT = Duration.ofMinutes(3);

    private ServingResources() {}

    /** A ModelServer on RTX PRO 6000 (SM120) nodes. */
    public static ModelServer sm120Server(
            KubernetesClient client, TestNamespace namespace, String name, int gpusPerReplica, int replicas) {
        return create(
                client, namespace, ModelServer.class, """
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
                    gpusPerReplica: %d
                  parallelism:
                    tp: %d
                  resources:
                    cpu: "4"
                    memory: 32Gi
                  sharedMemorySize: 1Gi
                  replicas: %d
                """.formatted(name, gpusPerReplica, gpusPerReplica, replicas));
    }

    /** A ModelServer of one replica spread over {@code nodes} 8-GPU SM120 nodes, tensor-parallel over all of them. */
    public static ModelServer multiNodeSm120Server(
            KubernetesClient client, TestNamespace namespace, String name, int nodes) {
        return create(client, namespace, ModelServer.class, """
                apiVersion: serving.llmops.dev/v1alpha1
                kind: ModelServer
                metadata:
                  name: %s
                spec:
                  model:
                    path: moonshotai/Kimi-K2-Instruct
                  accelerator:
                    family: blackwell
                    computeMajor: 12
                    product: NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition
                    gpusPerReplica: %d
                  parallelism:
                    tp: %d
                    nodes: %d
                  resources:
                    cpu: "4"
                    memory: 32Gi
                  sharedMemorySize: 1Gi
                """.formatted(name, 8 * nodes, 8 * nodes, nodes));
    }

    /** A BenchmarkRun of one warm-up request, one single-request prompt and one concurrency level. */
    public static BenchmarkRun quickBenchmark(
            KubernetesClient client,
            TestNamespace namespace,
            String name,
            String server,
            int concurrency,
            int requests,
            int maxTokens) {
        return createRun(
                client,
                namespace,
                quickRunManifest(name, server, String.valueOf(concurrency), requests, maxTokens, ""));
    }

    /**
     * The manifest of a short run against a ModelServer: one warm-up request of 8 tokens, one single-request prompt,
     * then {@code requests} requests of {@code maxTokens} at each level of {@code concurrency} (e.g. {@code "1, 2"});
     * {@code extraSpec} adds lines to the spec, each indented by two spaces and ending in a newline.
     */
    public static String quickRunManifest(
            String name, String server, String concurrency, int requests, int maxTokens, String extraSpec) {
        return """
                apiVersion: serving.llmops.dev/v1alpha1
                kind: BenchmarkRun
                metadata:
                  name: %s
                spec:
                  target:
                    modelServer: %s
                  warmup:
                    requests: 1
                    maxTokens: 8
                  singleRequest:
                    prompts: ["Explain quantum entanglement"]
                  sweep:
                    concurrency: [%s]
                    requestsPerLevel: %d
                  sampling:
                    maxTokens: %d
                  waitTimeoutSeconds: 180
                """.formatted(name, server, concurrency, requests, maxTokens) + extraSpec;
    }

    /** A BenchmarkRun from its manifest. */
    public static BenchmarkRun createRun(KubernetesClient client, TestNamespace namespace, String yaml) {
        return create(client, namespace, BenchmarkRun.class, yaml);
    }

    /**
     * A BenchmarkRun that only searches for the highest concurrency meeting a p99 TPOT limit, with random prompts of a
     * fixed output length and few requests per probe.
     */
    public static BenchmarkRun concurrencyCapacitySearch(
            KubernetesClient client,
            TestNamespace namespace,
            String name,
            String server,
            int tpotLimitMillis,
            int outputTokens) {
        return createRun(
                client, namespace, concurrencyCapacitySearchManifest(name, server, tpotLimitMillis, outputTokens));
    }

    /** The manifest of {@link #concurrencyCapacitySearch}, ending in a newline, for a test to add to its spec. */
    public static String concurrencyCapacitySearchManifest(
            String name, String server, int tpotLimitMillis, int outputTokens) {
        return """
                apiVersion: serving.llmops.dev/v1alpha1
                kind: BenchmarkRun
                metadata:
                  name: %s
                spec:
                  target:
                    modelServer: %s
                  warmup:
                    requests: 2
                    maxTokens: 8
                  singleRequest:
                    prompts: []
                  sweep:
                    concurrency: []
                    requestsPerLevel: 24
                  dataset:
                    type: Random
                    inputLength: 16
                    outputLength: %d
                    ignoreEos: true
                  slo:
                    tpotP99Millis: %d
                  capacity:
                    mode: Concurrency
                  waitTimeoutSeconds: 180
                """.formatted(name, server, outputTokens, tpotLimitMillis);
    }

    public static ModelServer awaitServer(
            KubernetesClient client,
            TestNamespace namespace,
            String name,
            Predicate<ModelServer> condition,
            String description) {
        return awaitResource(client, namespace, ModelServer.class, name, condition, description, SERVER_READY_TIMEOUT);
    }

    public static BenchmarkRun awaitRun(
            KubernetesClient client,
            TestNamespace namespace,
            String name,
            Predicate<BenchmarkRun> condition,
            String description) {
        return awaitResource(client, namespace, BenchmarkRun.class, name, condition, description, RUN_TIMEOUT);
    }

    /** Waits until the run has succeeded or failed. */
    public static BenchmarkRun awaitFinished(KubernetesClient client, TestNamespace namespace, String name) {
        return awaitRun(
                client,
                namespace,
                name,
                r -> r.getStatus() != null
                        && (r.getStatus().phase == BenchmarkRunPhase.Succeeded
                                || r.getStatus().phase == BenchmarkRunPhase.Failed),
                "finished");
    }

    public static List<Pod> serverPods(KubernetesClient client, TestNamespace namespace, String server) {
        return client.pods()
                .inNamespace(namespace.name())
                .withLabel(Labels.MODEL_SERVER, server)
                .list()
                .getItems();
    }

    /** Deletes the ModelServer and waits until its pods are gone, so the next test class finds the GPUs free. */
    public static void deleteServer(KubernetesClient client, TestNamespace namespace, String name) {
        client.resources(ModelServer.class)
                .inNamespace(namespace.name())
                .withName(name)
                .delete();
        await("pods of " + name + " gone")
                .atMost(Duration.ofMinutes(1))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> serverPods(client, namespace, name).isEmpty());
    }

    private static <T extends HasMetadata> T awaitResource(
            KubernetesClient client,
            TestNamespace namespace,
            Class<T> type,
            String name,
            Predicate<T> condition,
            String description,
            Duration timeout) {
        return await(type.getSimpleName() + " " + name + " " + description)
                .atMost(timeout)
                .pollInterval(Duration.ofMillis(500))
                .until(
                        () -> client.resources(type)
                                .inNamespace(namespace.name())
                                .withName(name)
                                .get(),
                        resource -> resource != null && condition.test(resource));
    }

    private static <T extends HasMetadata> T create(
            KubernetesClient client, TestNamespace namespace, Class<T> type, String yaml) {
        T resource = client.getKubernetesSerialization().unmarshal(yaml, type);
        return client.resource(resource).inNamespace(namespace.name()).create();
    }
}
