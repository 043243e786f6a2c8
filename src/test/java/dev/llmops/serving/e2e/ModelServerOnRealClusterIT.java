package dev.llmops.serving.e2e;

import static dev.llmops.serving.e2e.support.ServingResources.awaitServer;
import static dev.llmops.serving.e2e.support.ServingResources.serverPods;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerPhase;
import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.FakeGpuNodes;
import dev.llmops.serving.e2e.support.OperatorUnderTest;
import dev.llmops.serving.e2e.support.ServingResources;
import dev.llmops.serving.e2e.support.TestNamespace;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The operator, installed as the chart installs it, runs ModelServers on the real scheduler and the kubelet stand-in:
 * SM120 servers land on SM120 nodes only and turn Ready after a real generation, an impossible request is diagnosed
 * from the scheduler's events, and deleting a ModelServer garbage-collects what the operator applied.
 */
@E2eTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ModelServerOnRealClusterIT {

    private static final String SERVER = "sm120";
    private static final String TOO_BIG = "sixteen-gpus";

    @RegisterExtension
    static final OperatorUnderTest operator =
            OperatorUnderTest.installed().onFakeGpuFleet().deletingServersBeforeStop(TOO_BIG);

    @BeforeAll
    static void createServers(KubernetesClient client, TestNamespace namespace) {
        ServingResources.sm120Server(client, namespace, SERVER, 8, 2);
        ServingResources.sm120Server(client, namespace, TOO_BIG, 16, 1);
    }

    @Test
    @Order(1)
    void sm120ReplicasLandOnSm120NodesOnlyAndTurnReady(KubernetesClient client, TestNamespace namespace) {
        ModelServer server = awaitServer(
                client,
                namespace,
                SERVER,
                s -> s.getStatus() != null && s.getStatus().phase == ModelServerPhase.Ready,
                "Ready");

        assertThat(server.getStatus().readyReplicasText).isEqualTo("2/2");
        assertThat(server.getStatus().lastInferenceProbe).isNotNull();
        assertThat(serverPods(client, namespace, SERVER))
                .extracting(p -> p.getSpec().getNodeName())
                .containsExactlyInAnyOrder(FakeGpuNodes.SM120_A, FakeGpuNodes.SM120_B);
        assertThat(client.apps()
                        .deployments()
                        .inNamespace(namespace.name())
                        .withName(SERVER)
                        .get()
                        .getMetadata()
                        .getManagedFields())
                .as("server-side apply by the operator")
                .extracting(ManagedFieldsEntry::getOperation)
                .contains("Apply");
    }

    @Test
    @Order(2)
    void anImpossibleRequestIsDiagnosedFromSchedulerEvents(KubernetesClient client, TestNamespace namespace) {
        ModelServer server = awaitServer(
                client,
                namespace,
                TOO_BIG,
                s -> s.getStatus() != null
                        && s.getStatus().diagnosis != null
                        && "InsufficientGPUs".equals(s.getStatus().diagnosis.reason)
                        && s.getStatus().diagnosis.message.contains("(FailedScheduling event)"),
                "diagnosed InsufficientGPUs from the FailedScheduling event");

        assertThat(server.getStatus().phase).isNotEqualTo(ModelServerPhase.Ready);
        assertThat(server.getStatus().diagnosis.message)
                .contains("Insufficient nvidia.com/gpu")
                .contains("Scheduler: (FailedScheduling event) ");
        assertThat(serverPods(client, namespace, TOO_BIG))
                .extracting(p -> p.getSpec().getNodeName())
                .containsOnlyNulls();
    }

    @Test
    @Order(3)
    void deletingTheModelServerCollectsItsChildren(KubernetesClient client, TestNamespace namespace) {
        client.resources(ModelServer.class)
                .inNamespace(namespace.name())
                .withName(SERVER)
                .delete();

        await("Deployment, Service and pods of " + SERVER + " garbage-collected")
                .atMost(Duration.ofMinutes(1))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> {
                    assertThat(client.apps()
                                    .deployments()
                                    .inNamespace(namespace.name())
                                    .withName(SERVER)
                                    .get())
                            .isNull();
                    assertThat(client.services()
                                    .inNamespace(namespace.name())
                                    .withName(SERVER)
                                    .get())
                            .isNull();
                    assertThat(serverPods(client, namespace, SERVER))
                            .extracting(Pod::getMetadata)
                            .isEmpty();
                });
    }

    @Test
    @Order(4)
    void theChartGrantsEveryCallTheOperatorMade() {
        operator.process().assertNothingForbidden();
    }
}
