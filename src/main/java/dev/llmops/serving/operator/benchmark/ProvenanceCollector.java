package dev.llmops.serving.operator.benchmark;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.Provenance;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.common.SecretArgs;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * What a benchmark measured: the model, the server's image and arguments from the ModelServer status, and the GPU
 * product and driver from the labels (NVIDIA GPU Feature Discovery) of the node the server pod that last answered an
 * inference probe runs on.
 */
public class ProvenanceCollector {

    static final String GPU_PRODUCT_LABEL = "nvidia.com/gpu.product";
    static final String DRIVER_VERSION_LABEL = "nvidia.com/cuda.driver-version.full";
    private static final Logger LOG = Logger.getLogger(ProvenanceCollector.class);

    private final KubernetesClient client;

    public ProvenanceCollector(KubernetesClient client) {
        this.client = client;
    }

    public Provenance collect(TargetState target, Optional<Job> benchmarkJob) {
        Provenance provenance = new Provenance();
        provenance.model = target.model();
        provenance.runnerVersion = benchmarkJob
                .map(job -> job.getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getImage())
                .orElse(null);
        target.modelServer().ifPresent(server -> fromModelServer(server, provenance));
        return provenance;
    }

    private void fromModelServer(ModelServer server, Provenance provenance) {
        provenance.gpuCount = server.getSpec().accelerator.gpusPerReplica;
        if (server.getStatus() == null) {
            return;
        }
        provenance.image = server.getStatus().image;
        provenance.serverArgs = SecretArgs.redact(server.getStatus().serverArgs);
        if (server.getStatus().lastInferenceProbe == null || server.getStatus().lastInferenceProbe.pod == null) {
            return;
        }
        String namespace = server.getMetadata().getNamespace();
        String podName = server.getStatus().lastInferenceProbe.pod;
        try {
            Pod pod = client.pods().inNamespace(namespace).withName(podName).get();
            if (pod == null || pod.getSpec().getNodeName() == null) {
                return;
            }
            Node node = client.nodes().withName(pod.getSpec().getNodeName()).get();
            if (node == null) {
                return;
            }
            Map<String, String> labels = node.getMetadata().getLabels();
            provenance.gpuProduct = labels.get(GPU_PRODUCT_LABEL);
            provenance.driverVersion = labels.get(DRIVER_VERSION_LABEL);
        } catch (KubernetesClientException e) {
            LOG.warnf("Cannot read the GPU node of pod %s/%s for provenance: %s", namespace, podName, e.getMessage());
        }
    }
}
