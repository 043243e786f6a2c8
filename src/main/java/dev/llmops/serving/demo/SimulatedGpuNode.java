package dev.llmops.serving.demo;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;

/**
 * The node the demo's pods stand for, registered as a kubelet registers its node: an RTX PRO 6000 Blackwell machine
 * (compute capability 12) with the GPU Feature Discovery labels the operator's node affinity for the demo's
 * ModelServers requires (family, compute major, CUDA driver major) and the GPU taint it tolerates, Ready, so kubectl
 * get nodes shows what the servers run on.
 */
public final class SimulatedGpuNode {

    public static final String NAME = "gpu-node-0";
    static final String GPU_RESOURCE = "nvidia.com/gpu";
    static final String GPUS = "4";
    static final String KUBELET_VERSION = "v1.36.0";

    private SimulatedGpuNode() {}

    /** Registers the node unless it exists. */
    public static void register(KubernetesClient client) {
        if (client.nodes().withName(NAME).get() == null) {
            client.nodes().resource(node()).create();
        }
    }

    static Node node() {
        Map<String, Quantity> resources = Map.of(
                GPU_RESOURCE,
                new Quantity(GPUS),
                "cpu",
                new Quantity("64"),
                "memory",
                new Quantity("512Gi"),
                "pods",
                new Quantity("110"));
        return new NodeBuilder()
                .withNewMetadata()
                .withName(NAME)
                .addToLabels("kubernetes.io/hostname", NAME)
                .addToLabels("kubernetes.io/os", "linux")
                .addToLabels("kubernetes.io/arch", "amd64")
                .addToLabels("nvidia.com/gpu.family", "blackwell")
                .addToLabels("nvidia.com/gpu.compute.major", "12")
                .addToLabels("nvidia.com/gpu.product", "NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition")
                .addToLabels("nvidia.com/cuda.driver-version.major", "580")
                .addToLabels("nvidia.com/cuda.driver-version.full", "580.95.05")
                .addToLabels("nvidia.com/gpu.count", GPUS)
                .endMetadata()
                .withNewSpec()
                .addNewTaint()
                .withKey(GPU_RESOURCE)
                .withValue("present")
                .withEffect("NoSchedule")
                .endTaint()
                .endSpec()
                .withNewStatus()
                .withCapacity(resources)
                .withAllocatable(resources)
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .withReason("KubeletReady")
                .withMessage("kubelet is posting ready status")
                .endCondition()
                .addNewAddress()
                .withType("InternalIP")
                .withAddress("127.0.0.1")
                .endAddress()
                .addNewAddress()
                .withType("Hostname")
                .withAddress(NAME)
                .endAddress()
                .withNewNodeInfo()
                .withKubeletVersion(KUBELET_VERSION)
                .withOsImage("Ubuntu 24.04.3 LTS")
                .withKernelVersion("6.8.0-85-generic")
                .withContainerRuntimeVersion("containerd://2.1.4")
                .withOperatingSystem("linux")
                .withArchitecture("amd64")
                .endNodeInfo()
                .endStatus()
                .build();
    }
}
