package dev.llmops.serving.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperimentPhase;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantPhase;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantResult;
import dev.llmops.serving.demo.SimulatedServerProfile;
import dev.llmops.serving.e2e.support.E2eCluster;
import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.FakeGpuNodes;
import dev.llmops.serving.e2e.support.KubectlTable;
import dev.llmops.serving.e2e.support.LocalControlPlane;
import dev.llmops.serving.e2e.support.OperatorUnderTest;
import dev.llmops.serving.e2e.support.TestNamespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A ServingExperiment of four variants on a node pool that holds one 8-GPU server: the real scheduler, Job controller
 * and garbage collector run it, the operator is killed while the second variant is benchmarked, and the variants'
 * speeds are set in their simulated servers, so the winner is known in advance.
 */
@E2eTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ServingExperimentOnRealClusterIT {

    private static final String EXPERIMENT = "sx";
    private static final Duration EXPERIMENT_TIMEOUT = Duration.ofMinutes(8);
    private static final List<String> SUCCEEDING = List.of("autoregressive", "eagle3", "dflash-b8");

    @RegisterExtension
    static final OperatorUnderTest operator = OperatorUnderTest.installed()
            .onFakeGpuFleet()
            .beforeStart((cluster, namespace) -> {
                cluster.simulate(namespace, "sx-autoregressive", perTokenFaster(1.0));
                cluster.simulate(namespace, "sx-eagle3", perTokenFaster(1.25));
                cluster.simulate(namespace, "sx-dflash-b8", perTokenFaster(2.0));
            });

    /** Every serving pod event of the namespace, in the API server's order: when each variant's pods came and went. */
    private static final List<String> POD_EVENTS = new CopyOnWriteArrayList<>();

    private static final List<String> OVERLAPS = new CopyOnWriteArrayList<>();
    private static Watch podWatch;
    private static String eagle3RunUid;
    private static ServingExperiment finished;

    @BeforeAll
    static void runExperimentKillingTheOperatorMidway(KubernetesClient client, TestNamespace namespace) {
        Map<String, String> livePods = new HashMap<>();
        podWatch = client.pods()
                .inNamespace(namespace.name())
                .withLabel(Labels.MODEL_SERVER)
                .watch(new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, Pod pod) {
                        String server = pod.getMetadata().getLabels().get(Labels.MODEL_SERVER);
                        synchronized (livePods) {
                            if (action == Action.DELETED) {
                                livePods.remove(pod.getMetadata().getUid());
                            } else if (action == Action.ADDED) {
                                livePods.values().stream()
                                        .filter(other -> !other.equals(server))
                                        .findFirst()
                                        .ifPresent(other ->
                                                OVERLAPS.add(server + " created while " + other + " had pods"));
                                livePods.put(pod.getMetadata().getUid(), server);
                            }
                            POD_EVENTS.add(action + " " + server + " " + Instant.now());
                        }
                    }

                    @Override
                    public void onClose(WatcherException cause) {}
                });
        client.resource(client.getKubernetesSerialization().unmarshal(manifest(), ServingExperiment.class))
                .inNamespace(namespace.name())
                .create();

        BenchmarkRun eagle3 = await("eagle3's run running")
                .atMost(EXPERIMENT_TIMEOUT)
                .pollInterval(Duration.ofMillis(250))
                .until(
                        () -> client.resources(BenchmarkRun.class)
                                .inNamespace(namespace.name())
                                .withName("sx-eagle3")
                                .get(),
                        run -> run != null
                                && run.getStatus() != null
                                && run.getStatus().phase == BenchmarkRunPhase.Running);
        eagle3RunUid = eagle3.getMetadata().getUid();
        operator.process().kill();
        operator.process().restart().awaitReady();

        finished = await("experiment finished")
                .atMost(EXPERIMENT_TIMEOUT)
                .pollInterval(Duration.ofMillis(500))
                .until(
                        () -> client.resources(ServingExperiment.class)
                                .inNamespace(namespace.name())
                                .withName(EXPERIMENT)
                                .get(),
                        sx -> sx.getStatus() != null
                                && sx.getStatus().phase != null
                                && sx.getStatus().phase != ServingExperimentPhase.Running
                                && sx.getStatus().phase != ServingExperimentPhase.Pending);
    }

    @AfterAll
    static void stopWatching() {
        if (podWatch != null) {
            podWatch.close();
        }
    }

    @Test
    @Order(1)
    void theFastestVariantWinsWithAnIntervalAboveOne() {
        assertThat(finished.getStatus().phase)
                .as("status %s", finished.getStatus())
                .isEqualTo(ServingExperimentPhase.Succeeded);
        assertThat(finished.getStatus().winner.name).isEqualTo("dflash-b8");
        assertThat(finished.getStatus().winner.speedupInterval.low).isGreaterThan(1.0);
        assertThat(finished.getStatus().winner.reason).startsWith("dflash-b8: ").contains("over autoregressive");
        for (String name : SUCCEEDING) {
            VariantResult variant = variant(name);
            assertThat(variant.phase).as("%s", variant.message).isEqualTo(VariantPhase.Succeeded);
            assertThat(variant.timeToReadySeconds).isNotNull().isGreaterThanOrEqualTo(0.0);
            assertThat(variant.summary.peakTokensPerSecond).isPositive();
        }
    }

    @Test
    @Order(1)
    void theVariantThatCannotRunOnSm120FailsWithItsDiagnosisAndTheOthersGoOn() {
        VariantResult broken = variant("trtllm-mla");
        assertThat(broken.phase).isEqualTo(VariantPhase.Failed);
        assertThat(broken.diagnosis.reason).isEqualTo("IncompatibleWithAccelerator");
        assertThat(broken.timeToFailureSeconds).isNotNull();
        assertThat(broken.benchmarkRun).isNull();
    }

    @Test
    @Order(1)
    void noTwoVariantsHeldTheNodeAtOnce() {
        assertThat(POD_EVENTS).as("pod events").anyMatch(e -> e.startsWith("ADDED sx-dflash-b8"));
        assertThat(OVERLAPS).as("pod events %s", POD_EVENTS).isEmpty();
    }

    @Test
    @Order(1)
    void everyRunSentTheSameRequestsAndPairedWithTheBaseline() {
        for (String name : List.of("eagle3", "dflash-b8")) {
            assertThat(variant(name).comparison.workloadMatched).as(name).isTrue();
            assertThat(variant(name).comparison.baseline).isEqualTo("sx-autoregressive");
        }
    }

    @Test
    @Order(1)
    void theOperatorKilledMidwayBenchmarkedNoVariantTwice(KubernetesClient client, TestNamespace namespace) {
        List<BenchmarkRun> runs = client.resources(BenchmarkRun.class)
                .inNamespace(namespace.name())
                .withLabel(Labels.EXPERIMENT, EXPERIMENT)
                .list()
                .getItems();
        assertThat(runs)
                .extracting(r -> r.getMetadata().getName())
                .containsExactlyInAnyOrder("sx-autoregressive", "sx-eagle3", "sx-dflash-b8");
        assertThat(runs)
                .filteredOn(r -> r.getMetadata().getName().equals("sx-eagle3"))
                .singleElement()
                .satisfies(r -> assertThat(r.getMetadata().getUid()).isEqualTo(eagle3RunUid));
        List<Job> jobs =
                client.batch().v1().jobs().inNamespace(namespace.name()).list().getItems();
        assertThat(jobs).hasSize(3);
        List<String> serverStarts = new ArrayList<>(POD_EVENTS.stream()
                .filter(e -> e.startsWith("ADDED "))
                .map(e -> e.split(" ")[1])
                .distinct()
                .toList());
        assertThat(serverStarts).containsExactly("sx-autoregressive", "sx-eagle3", "sx-dflash-b8");
    }

    @Test
    @Order(1)
    void kubectlShowsThePhaseProgressWinnerAndSpeedup(E2eCluster cluster, TestNamespace namespace) {
        Map<String, String> row = KubectlTable.parse(cluster.kubectl("get", "sx", "--namespace", namespace.name()))
                .get(0);

        assertThat(row)
                .containsEntry("NAME", EXPERIMENT)
                .containsEntry("PHASE", "Succeeded")
                .containsEntry("PROGRESS", "4/4")
                .containsEntry("WINNER", "dflash-b8");
        assertThat(row.get("SPEEDUP")).matches("\\d+\\.\\d\\dx \\[\\d+\\.\\d\\d, \\d+\\.\\d\\d\\]");
    }

    @Test
    @Order(1)
    void eachVariantTransitionAndTheEndAreEvents(KubernetesClient client, TestNamespace namespace) {
        List<String> events = client.v1().events().inNamespace(namespace.name()).list().getItems().stream()
                .filter(e -> EXPERIMENT.equals(e.getInvolvedObject().getName())
                        && "ServingExperiment".equals(e.getInvolvedObject().getKind()))
                .map(e -> e.getType() + " " + e.getReason() + " " + e.getMessage())
                .toList();

        assertThat(events)
                .anyMatch(e -> e.startsWith("Warning VariantFailed trtllm-mla: Its server did not start"))
                .anyMatch(e -> e.startsWith("Normal VariantBenchmarking dflash-b8: Ready after"))
                .anyMatch(e -> e.startsWith("Normal VariantSucceeded eagle3"))
                .anyMatch(e -> e.startsWith("Normal ExperimentSucceeded dflash-b8: "));
    }

    @Test
    @Order(1)
    void anExperimentNeverTakesOverAModelServerItDidNotCreate(KubernetesClient client, TestNamespace namespace) {
        ModelServer someoneElses = client.resource(
                        client.getKubernetesSerialization().unmarshal("""
                                apiVersion: serving.llmops.dev/v1alpha1
                                kind: ModelServer
                                metadata:
                                  name: taken-a
                                spec:
                                  model:
                                    path: Qwen/Qwen3-8B
                                  accelerator:
                                    gpusPerReplica: 16
                                  parallelism:
                                    tp: 16
                                """, ModelServer.class))
                .inNamespace(namespace.name())
                .create();
        client.resource(client.getKubernetesSerialization().unmarshal("""
                                apiVersion: serving.llmops.dev/v1alpha1
                                kind: ServingExperiment
                                metadata:
                                  name: taken
                                spec:
                                  server:
                                    model:
                                      path: Qwen/Qwen3-8B
                                  variants:
                                    - name: a
                                """, ServingExperiment.class))
                .inNamespace(namespace.name())
                .create();

        ServingExperiment stalled = await("the experiment stalled on the name")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .until(
                        () -> client.resources(ServingExperiment.class)
                                .inNamespace(namespace.name())
                                .withName("taken")
                                .get(),
                        sx -> sx.getStatus() != null
                                && sx.getStatus().conditions.stream()
                                        .anyMatch(c -> c.getType().equals("Stalled")
                                                && c.getReason().equals("NameTaken")));
        assertThat(stalled.getStatus().conditions)
                .filteredOn(c -> c.getType().equals("Stalled"))
                .singleElement()
                .satisfies(c -> assertThat(c.getMessage())
                        .startsWith("ModelServer taken-a exists and is not this experiment's"));
        ModelServer after = client.resources(ModelServer.class)
                .inNamespace(namespace.name())
                .withName("taken-a")
                .get();
        assertThat(after.getMetadata().getOwnerReferences()).isEmpty();
        assertThat(after.getSpec()).isEqualTo(someoneElses.getSpec());
        client.resource(after).delete();
    }

    @Test
    @Order(1)
    void theChartGrantsEveryCallTheOperatorMade() {
        operator.process().assertNothingForbidden();
    }

    @Test
    @Order(2)
    void deletingTheExperimentRemovesItsServersAndRuns(KubernetesClient client, TestNamespace namespace) {
        client.resources(ServingExperiment.class)
                .inNamespace(namespace.name())
                .withName(EXPERIMENT)
                .delete();

        await("the experiment's runs and servers collected")
                .atMost(Duration.ofMinutes(1))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> client.resources(BenchmarkRun.class)
                                .inNamespace(namespace.name())
                                .withLabel(Labels.EXPERIMENT, EXPERIMENT)
                                .list()
                                .getItems()
                                .isEmpty()
                        && client.resources(ModelServer.class)
                                .inNamespace(namespace.name())
                                .withLabel(Labels.EXPERIMENT, EXPERIMENT)
                                .list()
                                .getItems()
                                .isEmpty());
    }

    private static VariantResult variant(String name) {
        return finished.getStatus().variants.stream()
                .filter(v -> v.name.equals(name))
                .findFirst()
                .orElseThrow();
    }

    /** The test fleet's quick server, each decoding step {@code factor} times faster. */
    private static SimulatedServerProfile perTokenFaster(double factor) {
        return LocalControlPlane.SIMULATED_SERVER.withStepDelayScaledBy(1 / factor);
    }

    /**
     * Four variants on one 12-GPU node, 8 GPUs each: autoregressive (the baseline), EAGLE3, DFlash, and one whose
     * attention backend SM120 does not have.
     */
    private static String manifest() {
        return """
                apiVersion: serving.llmops.dev/v1alpha1
                kind: ServingExperiment
                metadata:
                  name: %s
                spec:
                  server:
                    model:
                      path: Qwen/Qwen3-8B
                    accelerator:
                      family: blackwell
                      computeMajor: 12
                      product: NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition
                      gpusPerReplica: 8
                    parallelism:
                      tp: 8
                    resources:
                      cpu: "4"
                      memory: 32Gi
                    sharedMemorySize: 1Gi
                    scheduling:
                      nodeSelector:
                        kubernetes.io/hostname: %s
                  variants:
                    - name: autoregressive
                    - name: eagle3
                      speculativeDecoding:
                        algorithm: EAGLE3
                        draftModelPath: demo/qwen3-8b-eagle3
                        numSteps: 3
                        eagleTopK: 1
                        numDraftTokens: 4
                    - name: dflash-b8
                      speculativeDecoding:
                        algorithm: DFLASH
                        draftModelPath: demo/qwen3-8b-dflash
                        numDraftTokens: 8
                    - name: trtllm-mla
                      extraArgs: ["--attention-backend", "trtllm_mla"]
                  benchmark:
                    warmup:
                      requests: 1
                      maxTokens: 8
                    singleRequest:
                      prompts: ["Explain quantum entanglement"]
                    sweep:
                      concurrency: [2]
                      requestsPerLevel: 16
                    sampling:
                      maxTokens: 32
                  objective:
                    type: Throughput
                    stage: c2
                """.formatted(EXPERIMENT, FakeGpuNodes.SM120_B);
    }
}
