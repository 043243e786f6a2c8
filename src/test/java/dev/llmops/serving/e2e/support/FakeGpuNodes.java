package dev.llmops.serving.e2e.support;

import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * A small GPU fleet registered as Node objects, labelled the way NVIDIA GPU Feature Discovery labels real nodes and
 * tainted the way GPU clusters usually are, so the real scheduler can place pods on them. No kubelet runs: the pods
 * bound to these nodes are run by the kubelet stand-in of the local control plane, and their logs are served by its
 * kubelet log endpoint.
 */
public final class FakeGpuNodes {

    public static final String GPU_RESOURCE = "nvidia.com/gpu";
    public static final String SM120_A = "sm120-rtx-pro-6000-a";
    public static final String SM120_B = "sm120-rtx-pro-6000-b";
    public static final String B200 = "sm100-b200-a";
    public static final String HOPPER = "sm90-h100-a";
    public static final String CPU_ONLY = "cpu-a";

    /** Where the fleet's kubelet endpoint listens, and the host IP of every pod on the fleet. */
    public static final String KUBELET_ADDRESS = "127.0.0.1";

    private static final String RTX_PRO_6000 = "NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition";

    /** A node of the fleet: its labels, GPU count and size. */
    public record FakeNode(String name, Map<String, String> labels, int gpus, String cpu, String memory) {

        public boolean hasGpus() {
            return gpus > 0;
        }
    }

    public static final List<FakeNode> FLEET = List.of(
            gpuNode(SM120_A, "blackwell", 12, RTX_PRO_6000, 97887, "580.95.05", "13.0", "192", "1536Gi"),
            gpuNode(SM120_B, "blackwell", 12, RTX_PRO_6000, 97887, "580.95.05", "13.0", "192", "1536Gi"),
            gpuNode(B200, "blackwell", 10, "NVIDIA-B200", 183359, "580.95.05", "13.0", "224", "2Ti"),
            gpuNode(HOPPER, "hopper", 9, "NVIDIA-H100-80GB-HBM3", 81559, "570.172.08", "12.8", "224", "2Ti"),
            new FakeNode(CPU_ONLY, baseLabels(CPU_ONLY), 0, "32", "128Gi"));

    private FakeGpuNodes() {}

    /** Whether the scheduler bound the pod to a node of the fleet, that is, the kubelet stand-in runs it. */
    public static boolean boundToFleet(Pod pod) {
        String node = pod.getSpec().getNodeName();
        return node != null && FLEET.stream().anyMatch(n -> n.name().equals(node));
    }

    /**
     * Creates every node of the fleet, Ready, with capacity, allocatable and the GPU taint where it has GPUs. With a
     * kubelet port, each node advertises loopback as its InternalIP (its only address, so kube-apiserver's
     * {@code --kubelet-preferred-address-types} picks it) and that port as its kubelet endpoint: the API server then
     * reads pod logs there.
     */
    static void register(KubernetesClient client, OptionalInt kubeletPort) {
        for (FakeNode fake : FLEET) {
            client.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName(fake.name())
                            .withLabels(fake.labels())
                            .endMetadata()
                            .build())
                    .create();
            // Merge patches without a resourceVersion: the controller-manager annotates new nodes concurrently.
            client.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName(fake.name())
                            .endMetadata()
                            .withNewStatus()
                            .withCapacity(resources(fake))
                            .withAllocatable(resources(fake))
                            .withConditions(readyConditions())
                            .withNewNodeInfo()
                            .withArchitecture("amd64")
                            .withOperatingSystem("linux")
                            .endNodeInfo()
                            .withAddresses(
                                    kubeletPort.isPresent()
                                            ? List.of(new NodeAddress(KUBELET_ADDRESS, "InternalIP"))
                                            : List.of())
                            .withNewDaemonEndpoints()
                            .withNewKubeletEndpoint()
                            .withPort(kubeletPort.isPresent() ? kubeletPort.getAsInt() : null)
                            .endKubeletEndpoint()
                            .endDaemonEndpoints()
                            .endStatus()
                            .build())
                    .patchStatus();
            // The TaintNodesByCondition admission plugin taints every new node not-ready; the node lifecycle
            // controller that would lift it is off (no kubelet heartbeats), so the fleet sets its own taints.
            client.nodes()
                    .withName(fake.name())
                    .patch(
                            PatchContext.of(PatchType.JSON_MERGE),
                            client.getKubernetesSerialization().asJson(Map.of("spec", Map.of("taints", taints(fake)))));
        }
    }

    private static FakeNode gpuNode(
            String name,
            String family,
            int computeMajor,
            String product,
            int memoryMiB,
            String driver,
            String cudaRuntime,
            String cpu,
            String memory) {
        String[] driverParts = driver.split("\\.");
        String[] runtimeParts = cudaRuntime.split("\\.");
        Map<String, String> labels = baseLabels(name);
        labels.put("nvidia.com/gpu.present", "true");
        labels.put("nvidia.com/gpu.family", family);
        labels.put("nvidia.com/gpu.compute.major", String.valueOf(computeMajor));
        labels.put("nvidia.com/gpu.compute.minor", "0");
        labels.put("nvidia.com/gpu.product", product);
        labels.put("nvidia.com/gpu.count", "8");
        labels.put("nvidia.com/gpu.memory", String.valueOf(memoryMiB));
        labels.put("nvidia.com/cuda.driver-version.major", driverParts[0]);
        labels.put("nvidia.com/cuda.driver-version.minor", driverParts[1]);
        labels.put("nvidia.com/cuda.driver-version.revision", driverParts[2]);
        labels.put("nvidia.com/cuda.driver-version.full", driver);
        labels.put("nvidia.com/cuda.runtime-version.major", runtimeParts[0]);
        labels.put("nvidia.com/cuda.runtime-version.minor", runtimeParts[1]);
        labels.put("nvidia.com/cuda.runtime-version.full", cudaRuntime);
        return new FakeNode(name, labels, 8, cpu, memory);
    }

    private static Map<String, String> baseLabels(String name) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("kubernetes.io/hostname", name);
        labels.put("kubernetes.io/os", "linux");
        labels.put("kubernetes.io/arch", "amd64");
        return labels;
    }

    private static Map<String, Quantity> resources(FakeNode fake) {
        Map<String, Quantity> resources = new LinkedHashMap<>();
        resources.put("cpu", new Quantity(fake.cpu()));
        resources.put("memory", new Quantity(fake.memory()));
        resources.put("ephemeral-storage", new Quantity("3Ti"));
        resources.put("pods", new Quantity("110"));
        if (fake.hasGpus()) {
            resources.put(GPU_RESOURCE, new Quantity(String.valueOf(fake.gpus())));
        }
        return resources;
    }

    private static List<NodeCondition> readyConditions() {
        String now = Instant.now().toString();
        return List.of(
                condition("Ready", "True", "KubeletReady", now),
                condition("MemoryPressure", "False", "KubeletHasSufficientMemory", now),
                condition("DiskPressure", "False", "KubeletHasNoDiskPressure", now),
                condition("PIDPressure", "False", "KubeletHasSufficientPID", now));
    }

    private static NodeCondition condition(String type, String status, String reason, String now) {
        return new NodeConditionBuilder()
                .withType(type)
                .withStatus(status)
                .withReason(reason)
                .withLastHeartbeatTime(now)
                .withLastTransitionTime(now)
                .build();
    }

    private static List<Taint> taints(FakeNode fake) {
        return fake.hasGpus()
                ? List.of(new TaintBuilder()
                        .withKey(GPU_RESOURCE)
                        .withValue("present")
                        .withEffect("NoSchedule")
                        .build())
                : List.of();
    }
}
