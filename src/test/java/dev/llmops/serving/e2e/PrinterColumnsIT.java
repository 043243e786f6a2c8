package dev.llmops.serving.e2e;

import static org.assertj.core.api.Assertions.assertThat;

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
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperimentPhase;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperimentStatus;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantPhase;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantResult;
import dev.llmops.serving.api.v1alpha1.servingexperiment.Winner;
import dev.llmops.serving.e2e.support.E2eCluster;
import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.KubectlTable;
import dev.llmops.serving.e2e.support.ProjectCrds;
import dev.llmops.serving.e2e.support.ProjectPaths;
import dev.llmops.serving.e2e.support.TestNamespace;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The real kubectl shows the printer columns of every kind, filled from a status written through the subresource. */
@E2eTest
class PrinterColumnsIT {

    private static final Path EXAMPLES = ProjectPaths.resolve("deploy/examples");

    @BeforeAll
    static void createResourcesWithStatus(KubernetesClient client, TestNamespace namespace) {
        ProjectCrds.install(client);
        ModelServer server = create(client, namespace, "small-model-b200.yaml", ModelServer.class);
        ModelServerStatus serverStatus = new ModelServerStatus();
        serverStatus.observedGeneration = server.getMetadata().getGeneration();
        serverStatus.phase = ModelServerPhase.Degraded;
        serverStatus.replicas = 2;
        serverStatus.readyReplicas = 1;
        serverStatus.readyReplicasText = "1/2";
        serverStatus.endpoint = "http://qwen3-8b." + namespace.name() + ".svc:30000";
        serverStatus.diagnosis = new Diagnosis();
        serverStatus.diagnosis.reason = "InsufficientGPUs";
        server.setStatus(serverStatus);
        client.resource(server).updateStatus();

        BenchmarkRun run = create(client, namespace, "benchmark-eagle3.yaml", BenchmarkRun.class);
        BenchmarkRunStatus runStatus = new BenchmarkRunStatus();
        runStatus.observedGeneration = run.getMetadata().getGeneration();
        runStatus.phase = BenchmarkRunPhase.Succeeded;
        runStatus.target = "kimi-k2-eagle3";
        runStatus.progress = "7/7";
        runStatus.summary = new BenchmarkSummary();
        runStatus.summary.singleStreamTokensPerSecond = 182.4;
        runStatus.summary.peakTokensPerSecond = 2140.5;
        runStatus.summary.peakConcurrency = 48;
        runStatus.capacity = new CapacityResult();
        runStatus.capacity.load = "24 streams";
        runStatus.comparison = new BaselineComparison();
        runStatus.comparison.peakThroughputSpeedup = 1.58;
        runStatus.comparison.speedup = "1.62x [1.50, 1.75] at c48 (suspect)";
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
                        .withStatus("True")
                        .withReason("OutputsDiverge")
                        .withMessage("Greedy outputs diverge")
                        .withLastTransitionTime("2026-12-01T10:00:00Z")
                        .build());
        run.setStatus(runStatus);
        client.resource(run).updateStatus();

        ServingExperiment experiment =
                create(client, namespace, "servingexperiment-kimi.yaml", ServingExperiment.class);
        ServingExperimentStatus experimentStatus = new ServingExperimentStatus();
        experimentStatus.observedGeneration = experiment.getMetadata().getGeneration();
        experimentStatus.phase = ServingExperimentPhase.Running;
        experimentStatus.progress = "2/3 dflash-8";
        experimentStatus.speedup = "1.4x [1.3, 1.5]";
        VariantResult eagle3 = new VariantResult();
        eagle3.name = "eagle3";
        eagle3.phase = VariantPhase.Succeeded;
        eagle3.timeToReadySeconds = 742.5;
        experimentStatus.variants.add(eagle3);
        experimentStatus.winner = new Winner();
        experimentStatus.winner.name = "eagle3";
        experimentStatus.winner.stage = "c32";
        experimentStatus.winner.speedup = 1.4;
        experiment.setStatus(experimentStatus);
        client.resource(experiment).updateStatus();
    }

    @Test
    void kubectlGetShowsTheColumnsOfBothKinds(E2eCluster cluster, TestNamespace namespace) {
        List<Map<String, String>> rows = KubectlTable.parse(
                cluster.kubectl("get", "modelservers,benchmarkruns", "--namespace", namespace.name()));

        assertThat(rows).hasSize(2);
        assertThat(rows.get(0))
                .containsOnlyKeys("NAME", "MODEL", "GPUS", "PHASE", "READY", "AGE")
                .containsEntry("NAME", "modelserver.serving.llmops.dev/qwen3-8b")
                .containsEntry("MODEL", "Qwen/Qwen3-8B")
                .containsEntry("GPUS", "1")
                .containsEntry("PHASE", "Degraded")
                .containsEntry("READY", "1/2");
        assertThat(rows.get(1))
                .containsOnlyKeys(
                        "NAME",
                        "TARGET",
                        "PHASE",
                        "PROGRESS",
                        "SINGLE TOK/S",
                        "PEAK TOK/S",
                        "AT CONC",
                        "CAPACITY",
                        "AGE")
                .containsEntry("NAME", "benchmarkrun.serving.llmops.dev/kimi-k2-eagle3")
                .containsEntry("TARGET", "kimi-k2-eagle3")
                .containsEntry("PHASE", "Succeeded")
                .containsEntry("PROGRESS", "7/7")
                .containsEntry("SINGLE TOK/S", "182.4")
                .containsEntry("PEAK TOK/S", "2140.5")
                .containsEntry("AT CONC", "48")
                .containsEntry("CAPACITY", "24 streams");
    }

    /** The wide columns read conditions through JSONPath filters, which the real API server evaluates for kubectl. */
    @Test
    void kubectlGetWideShowsARunsQualityAndReasonFromItsConditions(E2eCluster cluster, TestNamespace namespace) {
        List<Map<String, String>> rows =
                KubectlTable.parse(cluster.kubectl("get", "br", "-o", "wide", "--namespace", namespace.name()));

        assertThat(rows)
                .singleElement()
                .satisfies(run -> assertThat(run)
                        .containsEntry("SPEEDUP", "1.62x [1.50, 1.75] at c48 (suspect)")
                        .containsEntry("QUALITY", "OutputsDiverge")
                        .containsEntry("REASON", "Succeeded"));
    }

    @Test
    void kubectlGetShowsAnExperimentsProgressWinnerAndSpeedup(E2eCluster cluster, TestNamespace namespace) {
        List<Map<String, String>> rows =
                KubectlTable.parse(cluster.kubectl("get", "sx", "--namespace", namespace.name()));

        assertThat(rows)
                .singleElement()
                .satisfies(row -> assertThat(row)
                        .containsOnlyKeys("NAME", "PHASE", "PROGRESS", "WINNER", "SPEEDUP", "AGE")
                        .containsEntry("NAME", "kimi-k2-decoding")
                        .containsEntry("PHASE", "Running")
                        .containsEntry("PROGRESS", "2/3 dflash-8")
                        .containsEntry("WINNER", "eagle3")
                        .containsEntry("SPEEDUP", "1.4x [1.3, 1.5]"));
    }

    @Test
    void wideOutputAddsTheDiagnosisEndpointAndSpeedup(E2eCluster cluster, TestNamespace namespace) {
        Map<String, String> server = KubectlTable.parse(
                        cluster.kubectl("get", "ms", "-o", "wide", "--namespace", namespace.name()))
                .get(0);
        Map<String, String> run = KubectlTable.parse(
                        cluster.kubectl("get", "br", "-o", "wide", "--namespace", namespace.name()))
                .get(0);

        assertThat(server)
                .containsEntry("REASON", "InsufficientGPUs")
                .containsEntry("ENDPOINT", "http://qwen3-8b." + namespace.name() + ".svc:30000");
        assertThat(run).containsEntry("SPEEDUP", "1.62x [1.50, 1.75] at c48 (suspect)");
    }

    private static <T extends HasMetadata> T create(
            KubernetesClient client, TestNamespace namespace, String example, Class<T> type) {
        try {
            T resource =
                    client.getKubernetesSerialization().unmarshal(Files.readString(EXAMPLES.resolve(example)), type);
            return client.resource(resource).inNamespace(namespace.name()).create();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
