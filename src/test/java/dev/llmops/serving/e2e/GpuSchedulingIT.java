package dev.llmops.serving.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.llmops.serving.e2e.support.E2eCluster;
import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.FakeGpuNodes;
import dev.llmops.serving.e2e.support.TestNamespace;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real kube-scheduler places GPU pods on the fake fleet by GPU Feature Discovery labels, the GPU taint and the
 * nvidia.com/gpu resource, and explains in a FailedScheduling event why a pod fits nowhere.
 */
@E2eTest
class GpuSchedulingIT {

    private static final Duration SCHEDULING_TIMEOUT = Duration.ofSeconds(60);

    @BeforeAll
    static void requireFakeFleet(E2eCluster cluster) {
        assumeTrue(cluster.hasFakeGpuFleet(), "the fake GPU fleet exists only on the local control plane");
    }

    @Test
    void eightGpuPodsRequiringSm120LandOnlyOnSm120Nodes(KubernetesClient client, TestNamespace namespace) {
        List<String> pods = List.of("sm120-first", "sm120-second", "sm120-third");
        pods.forEach(name -> client.pods()
                .inNamespace(namespace.name())
                .resource(gpuPod(name, 8, Map.of("nvidia.com/gpu.compute.major", "12")))
                .create());

        await("every pod to be bound or to fail scheduling")
                .atMost(SCHEDULING_TIMEOUT)
                .until(() -> pods.stream()
                        .allMatch(pod -> nodeOf(client, namespace, pod) != null
                                || failedScheduling(client, namespace, pod) != null));

        Map<String, String> nodes = new TreeMap<>();
        pods.forEach(pod -> nodes.put(pod, String.valueOf(nodeOf(client, namespace, pod))));
        assertThat(nodes.values())
                .as("nodes of " + pods)
                .containsExactlyInAnyOrder(FakeGpuNodes.SM120_A, FakeGpuNodes.SM120_B, "null");
        // The third fits only on a B200 or Hopper node by GPU count, which its node affinity forbids.
        String unbound = pods.stream()
                .filter(pod -> nodeOf(client, namespace, pod) == null)
                .findFirst()
                .orElseThrow();
        assertThat(failedScheduling(client, namespace, unbound))
                .contains("Insufficient nvidia.com/gpu")
                .contains("didn't match Pod's node affinity/selector");
    }

    @Test
    void sixteenGpuPodFitsNowhere(KubernetesClient client, TestNamespace namespace) {
        client.pods()
                .inNamespace(namespace.name())
                .resource(gpuPod("sixteen-gpus", 16, Map.of()))
                .create();

        assertThat(awaitFailedScheduling(client, namespace, "sixteen-gpus"))
                .contains("0/" + FakeGpuNodes.FLEET.size() + " nodes are available")
                .contains("Insufficient nvidia.com/gpu");
        assertThat(nodeOf(client, namespace, "sixteen-gpus")).isNull();
    }

    /** A plain pod as a GPU workload is written: GPU limit, required node labels, the GPU taint tolerated. */
    private static Pod gpuPod(String name, int gpus, Map<String, String> requiredLabels) {
        PodBuilder pod = new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("server")
                .withImage("registry.invalid/sglang:none")
                .withNewResources()
                .addToLimits(FakeGpuNodes.GPU_RESOURCE, new Quantity(String.valueOf(gpus)))
                .endResources()
                .endContainer()
                .addNewToleration()
                .withKey(FakeGpuNodes.GPU_RESOURCE)
                .withOperator("Exists")
                .withEffect("NoSchedule")
                .endToleration()
                .endSpec();
        if (!requiredLabels.isEmpty()) {
            pod.editSpec()
                    .withNewAffinity()
                    .withNewNodeAffinity()
                    .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                    .addNewNodeSelectorTerm()
                    .addAllToMatchExpressions(requiredLabels.entrySet().stream()
                            .map(label -> new NodeSelectorRequirementBuilder()
                                    .withKey(label.getKey())
                                    .withOperator("In")
                                    .withValues(label.getValue())
                                    .build())
                            .toList())
                    .endNodeSelectorTerm()
                    .endRequiredDuringSchedulingIgnoredDuringExecution()
                    .endNodeAffinity()
                    .endAffinity()
                    .endSpec();
        }
        return pod.build();
    }

    private static String nodeOf(KubernetesClient client, TestNamespace namespace, String pod) {
        return client.pods()
                .inNamespace(namespace.name())
                .withName(pod)
                .get()
                .getSpec()
                .getNodeName();
    }

    private static String awaitFailedScheduling(KubernetesClient client, TestNamespace namespace, String pod) {
        return await("a FailedScheduling event for " + pod)
                .atMost(SCHEDULING_TIMEOUT)
                .until(() -> failedScheduling(client, namespace, pod), Objects::nonNull);
    }

    /** The message of the pod's FailedScheduling event, or null while there is none. */
    private static String failedScheduling(KubernetesClient client, TestNamespace namespace, String pod) {
        return client
                .v1()
                .events()
                .inNamespace(namespace.name())
                .withField("involvedObject.name", pod)
                .list()
                .getItems()
                .stream()
                .filter(e -> "FailedScheduling".equals(e.getReason()))
                .map(Event::getMessage)
                .findFirst()
                .orElse(null);
    }
}
