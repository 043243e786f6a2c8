package dev.llmops.serving.e2e;

import static dev.llmops.serving.e2e.support.ServingResources.awaitFinished;
import static dev.llmops.serving.e2e.support.ServingResources.awaitServer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerPhase;
import dev.llmops.serving.e2e.support.E2eCluster;
import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.FakeGpuNodes;
import dev.llmops.serving.e2e.support.LeaderWorkerSetController;
import dev.llmops.serving.e2e.support.LocalControlPlane;
import dev.llmops.serving.e2e.support.OperatorUnderTest;
import dev.llmops.serving.e2e.support.ServingResources;
import dev.llmops.serving.e2e.support.TestNamespace;
import dev.llmops.serving.operator.modelserver.LeaderWorkerSet;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A ModelServer across two nodes on the real LeaderWorkerSet controller: LWS's webhooks default and validate what the
 * operator writes, its controller creates the group's leader and worker StatefulSets and pods, the real scheduler
 * places them on the fake Blackwell fleet, and the operator gates the leader, benchmarks it and removes everything.
 */
@E2eTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MultiNodeServerOnRealLwsIT {

    private static final String SERVER = "kimi-tp16";
    private static final String RUN = "group-bench";
    private static final String THREE_NODES = "kimi-tp24";
    /** What SGLang's worker logs when it cannot reach its leader's rendezvous. */
    private static final String UNREACHABLE_LEADER = "Init torch distributed begin.\n"
            + "torch.distributed.DistNetworkError: The client socket has timed out after 600000ms while trying to"
            + " connect to (kimi-tp16-0.kimi-tp16.llm, 20000).";

    private static LeaderWorkerSetController leaderWorkerSet;

    @RegisterExtension
    static final OperatorUnderTest operator = OperatorUnderTest.installed()
            .onFakeGpuFleet()
            .beforeStart((cluster, namespace) -> leaderWorkerSet = LeaderWorkerSetController.install(cluster))
            .deletingServersBeforeStop(SERVER, THREE_NODES)
            .afterStop((cluster, namespace) -> {
                if (leaderWorkerSet != null) {
                    leaderWorkerSet.close();
                }
            });

    @BeforeAll
    static void createServer(KubernetesClient client, TestNamespace namespace) {
        ServingResources.multiNodeSm120Server(client, namespace, SERVER, 2);
    }

    @Test
    @Order(1)
    void aTwoNodeGroupIsReadyThroughItsLeadersGateWithEveryPodOnTheFleetsBlackwellNodes(
            KubernetesClient client, TestNamespace namespace) {
        ModelServer server = awaitServer(
                client,
                namespace,
                SERVER,
                s -> s.getStatus() != null && s.getStatus().phase == ModelServerPhase.Ready,
                "Ready");

        assertThat(server.getStatus().readyReplicasText).isEqualTo("1/1");
        List<Pod> pods = serverPods(client, namespace);
        Map<String, Pod> byName =
                pods.stream().collect(Collectors.toMap(p -> p.getMetadata().getName(), p -> p));
        assertThat(byName).as("LWS's leader and worker of group 0").containsOnlyKeys(SERVER + "-0", SERVER + "-0-1");
        assertThat(pods)
                .extracting(p -> p.getSpec().getNodeName())
                .as("one 8-GPU SM120 node each")
                .containsExactlyInAnyOrder(FakeGpuNodes.SM120_A, FakeGpuNodes.SM120_B);
        Pod leader = byName.get(SERVER + "-0");
        Pod worker = byName.get(SERVER + "-0-1");
        assertThat(env(leader)).containsEntry("LWS_GROUP_SIZE", "2").containsEntry("LWS_WORKER_INDEX", "0");
        assertThat(env(worker))
                .containsEntry("LWS_GROUP_SIZE", "2")
                .containsEntry("LWS_WORKER_INDEX", "1")
                .containsEntry("LWS_LEADER_ADDRESS", SERVER + "-0." + SERVER + "." + namespace.name());
        assertThat(worker.getMetadata().getLabels()).containsEntry("leaderworkerset.sigs.k8s.io/worker-index", "1");
        assertThat(leader.getStatus().getConditions())
                .as("the leader's inference-ready gate, opened by a real generation")
                .anyMatch(c -> c.getType().startsWith("serving.llmops.dev/") && "True".equals(c.getStatus()));
        assertThat(leader.getSpec().getContainers().get(0).getArgs())
                .containsSequence("--nnodes", "$(LWS_GROUP_SIZE)")
                .containsSequence("--node-rank", "$(LWS_WORKER_INDEX)");
    }

    @Test
    @Order(2)
    void theOperatorWroteItsLeaderWorkerSetOnceAsLwsDefaultedIt(KubernetesClient client, TestNamespace namespace) {
        String before = leaderWorkerSetOf(client, namespace).getMetadata().getResourceVersion();
        long reconciled = operator.process().successfulReconciliations();
        client.resources(ModelServer.class)
                .inNamespace(namespace.name())
                .withName(SERVER)
                .edit(server -> {
                    server.getMetadata().getAnnotations().put("e2e.llmops.dev/touched", "yes");
                    return server;
                });
        await("a reconcile of the touched ModelServer")
                .atMost(Duration.ofSeconds(30))
                .until(() -> operator.process().successfulReconciliations() > reconciled);

        assertThat(operator.process().writes("leaderworkersets", namespace.name()))
                .as("every reconcile while the group came up, and after the touch, found it as desired: one apply")
                .hasSize(1);
        GenericKubernetesResource after = leaderWorkerSetOf(client, namespace);
        assertThat(after.getMetadata().getResourceVersion()).isEqualTo(before);
        assertThat(after.getMetadata().getGeneration()).isEqualTo(1);
    }

    @Test
    @Order(3)
    void aBenchmarkRunsAgainstTheLeadersServiceAndReadsTheLeadersMetricsOnly(
            KubernetesClient client, TestNamespace namespace) {
        ServingResources.quickBenchmark(client, namespace, RUN, SERVER, 2, 4, 16);

        BenchmarkRun run = awaitFinished(client, namespace, RUN);

        assertThat(run.getStatus().phase).as("status %s", run.getStatus()).isEqualTo(BenchmarkRunPhase.Succeeded);
        Job job = client.batch()
                .v1()
                .jobs()
                .inNamespace(namespace.name())
                .withName(run.getStatus().jobName)
                .get();
        List<String> args =
                job.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs();
        Pod leader = client.pods()
                .inNamespace(namespace.name())
                .withName(SERVER + "-0")
                .get();
        assertThat(args).containsSequence("--url", "http://" + SERVER + "." + namespace.name() + ".svc:30000");
        assertThat(args.stream().filter("--metrics-url"::equals))
                .as("one metrics endpoint: the leader's")
                .hasSize(1);
        assertThat(args)
                .containsSequence(
                        "--metrics-url", "http://" + leader.getStatus().getPodIP() + ":30000/metrics");
    }

    @Test
    @Order(4)
    void aWorkerThatCannotJoinItsGroupIsNamedAndTheRecreatedGroupIsGatedAgain(
            E2eCluster cluster, KubernetesClient client, TestNamespace namespace) {
        String worker = SERVER + "-0-1";
        String firstLeader = pod(client, namespace, SERVER + "-0").getMetadata().getUid();
        cluster.simulatePod(namespace, worker, LocalControlPlane.SIMULATED_SERVER.failingAtStart(UNREACHABLE_LEADER));
        client.pods().inNamespace(namespace.name()).withName(worker).delete();

        ModelServer failing = awaitServer(
                client,
                namespace,
                SERVER,
                s -> s.getStatus().diagnosis != null
                        && "ProcessGroupUnreachable".equals(s.getStatus().diagnosis.reason),
                "the worker's failure diagnosed");
        assertThat(failing.getStatus().diagnosis.message).startsWith("Group 0's worker 1 (pod " + worker + "): ");
        assertThat(failing.getStatus().phase).isNotEqualTo(ModelServerPhase.Ready);
        assertThat(failing.getStatus().readyReplicasText).isEqualTo("0/1");

        cluster.simulatePod(namespace, worker, null);
        ModelServer recovered = awaitServer(
                client,
                namespace,
                SERVER,
                s -> s.getStatus().phase == ModelServerPhase.Ready,
                "Ready again once the worker joins");
        Pod leader = pod(client, namespace, SERVER + "-0");
        assertThat(leader.getMetadata().getUid())
                .as("LWS recreated the whole group when its worker restarted (RecreateGroupOnPodRestart)")
                .isNotEqualTo(firstLeader);
        assertThat(leader.getStatus().getConditions())
                .as("the new leader gated again")
                .anyMatch(c -> c.getType().startsWith("serving.llmops.dev/") && "True".equals(c.getStatus()));
        assertThat(recovered.getStatus().diagnosis).isNull();
    }

    @Test
    @Order(5)
    void deletingTheServerRemovesTheGroupAndEveryPod(KubernetesClient client, TestNamespace namespace) {
        client.resources(ModelServer.class)
                .inNamespace(namespace.name())
                .withName(SERVER)
                .delete();

        await("the LeaderWorkerSet, its StatefulSets and pods collected")
                .atMost(Duration.ofMinutes(1))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> {
                    assertThat(client.genericKubernetesResources(LeaderWorkerSet.API_VERSION, LeaderWorkerSet.KIND)
                                    .inNamespace(namespace.name())
                                    .list()
                                    .getItems())
                            .isEmpty();
                    assertThat(client.apps()
                                    .statefulSets()
                                    .inNamespace(namespace.name())
                                    .list()
                                    .getItems())
                            .isEmpty();
                    assertThat(serverPods(client, namespace)).isEmpty();
                });
    }

    @Test
    @Order(6)
    void aWorkerNoNodeCanTakeIsNamedByTheSchedulersReason(KubernetesClient client, TestNamespace namespace) {
        ServingResources.multiNodeSm120Server(client, namespace, THREE_NODES, 3);

        ModelServer server = awaitServer(
                client,
                namespace,
                THREE_NODES,
                s -> s.getStatus() != null
                        && s.getStatus().diagnosis != null
                        && "InsufficientGPUs".equals(s.getStatus().diagnosis.reason),
                "the third pod's scheduling diagnosed");

        assertThat(server.getStatus().diagnosis.message)
                .as("two SM120 nodes for three pods: one worker waits")
                .startsWith("Group 0's worker ")
                .contains("Insufficient nvidia.com/gpu");
        assertThat(server.getStatus().phase).isNotEqualTo(ModelServerPhase.Ready);
    }

    @Test
    @Order(7)
    void theChartGrantsEveryCallTheOperatorMade() {
        operator.process().assertNothingForbidden();
    }

    private static GenericKubernetesResource leaderWorkerSetOf(KubernetesClient client, TestNamespace namespace) {
        return client.genericKubernetesResources(LeaderWorkerSet.API_VERSION, LeaderWorkerSet.KIND)
                .inNamespace(namespace.name())
                .withName(SERVER)
                .get();
    }

    private static Pod pod(KubernetesClient client, TestNamespace namespace, String name) {
        return client.pods().inNamespace(namespace.name()).withName(name).get();
    }

    private static List<Pod> serverPods(KubernetesClient client, TestNamespace namespace) {
        return client.pods()
                .inNamespace(namespace.name())
                .withLabel(Labels.MODEL_SERVER, SERVER)
                .list()
                .getItems();
    }

    private static Map<String, String> env(Pod pod) {
        return pod.getSpec().getContainers().get(0).getEnv().stream()
                .filter(variable -> variable.getValue() != null)
                .collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue, (first, second) -> first));
    }
}
