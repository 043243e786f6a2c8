package dev.llmops.serving.demo;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BaselineComparison;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkSummary;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.CapacityResult;
import dev.llmops.serving.api.v1alpha1.modelserver.Diagnosis;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerPhase;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerStatus;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The ModelServer qwen3-8b and BenchmarkRun kimi-k2-eagle3 of deploy/examples in a namespace of their own, with the
 * statuses the operator would write (a degraded server, a finished run), for what kubectl prints of them.
 */
public final class ExampleResourcesWithStatus {

    public static final String SERVER = "qwen3-8b";
    public static final String RUN = "kimi-k2-eagle3";

    private static final Path EXAMPLES = Path.of(System.getProperty("e2e.projectDir", "."), "deploy", "examples");

    private ExampleResourcesWithStatus() {}

    public static void create(KubernetesClient client, String namespace) {
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(namespace)
                        .endMetadata()
                        .build())
                .create();
        ModelServer server = create(client, namespace, "small-model-b200.yaml", ModelServer.class);
        ModelServerStatus serverStatus = new ModelServerStatus();
        serverStatus.observedGeneration = server.getMetadata().getGeneration();
        serverStatus.phase = ModelServerPhase.Degraded;
        serverStatus.replicas = 2;
        serverStatus.readyReplicas = 1;
        serverStatus.readyReplicasText = "1/2";
        serverStatus.endpoint = "http://qwen3-8b." + namespace + ".svc:30000";
        serverStatus.diagnosis = new Diagnosis();
        serverStatus.diagnosis.reason = "InsufficientGPUs";
        server.setStatus(serverStatus);
        client.resource(server).updateStatus();

        BenchmarkRun run = create(client, namespace, "benchmark-eagle3.yaml", BenchmarkRun.class);
        BenchmarkRunStatus runStatus = new BenchmarkRunStatus();
        runStatus.observedGeneration = run.getMetadata().getGeneration();
        runStatus.phase = BenchmarkRunPhase.Succeeded;
        runStatus.target = RUN;
        runStatus.progress = "7/7";
        runStatus.summary = new BenchmarkSummary();
        runStatus.summary.singleStreamTokensPerSecond = 182.4;
        runStatus.summary.peakTokensPerSecond = 2140.5;
        runStatus.summary.peakConcurrency = 48;
        runStatus.capacity = new CapacityResult();
        runStatus.capacity.load = "24 streams";
        runStatus.comparison = new BaselineComparison();
        runStatus.comparison.peakThroughputSpeedup = 1.58;
        runStatus.comparison.speedup = "1.62x [1.50, 1.75] at c48";
        runStatus.conditions = List.of(
                new ConditionBuilder()
                        .withType("Ready")
                        .withStatus("True")
                        .withReason("Succeeded")
                        .withMessage("Benchmark finished")
                        .withLastTransitionTime("2026-12-01T10:00:00Z")
                        .build(),
                new ConditionBuilder()
                        .withType("QualitySuspect")
                        .withStatus("False")
                        .withReason("OutputsAgree")
                        .withMessage("Greedy outputs agree")
                        .withLastTransitionTime("2026-12-01T10:00:00Z")
                        .build());
        run.setStatus(runStatus);
        client.resource(run).updateStatus();
    }

    private static <T extends HasMetadata> T create(
            KubernetesClient client, String namespace, String example, Class<T> type) {
        try {
            String manifest = Files.readString(EXAMPLES.resolve(example));
            T resource = client.getKubernetesSerialization().unmarshal(manifest, type);
            return client.resource(resource).inNamespace(namespace).create();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
