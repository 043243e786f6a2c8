package dev.llmops.serving.operator.benchmark;

import dev.llmops.serving.api.contract.RunnerFlags;
import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The Prometheus endpoints of a ModelServer's serving pods (every Deployment pod, the leader of each multi-node
 * replica), one per Ready pod at its IP, so the runner reads each replica's counters and sums them; the Service would
 * answer from any one pod. Labels alone would admit a co-tenant's pod into the run's telemetry: a pod counts only when
 * it also carries the inference-ready condition, which the operator sets only on pods its ModelServer owns.
 */
public class ServingPodMetrics {

    private static final Logger LOG = Logger.getLogger(ServingPodMetrics.class);

    private final KubernetesClient client;

    public ServingPodMetrics(KubernetesClient client) {
        this.client = client;
    }

    /** The endpoints of the server's Ready serving pods; none when they cannot be listed (metrics are optional). */
    public List<String> of(Optional<ModelServer> server) {
        if (server.isEmpty()) {
            return List.of();
        }
        ModelServer modelServer = server.get();
        try {
            List<Pod> pods = client.pods()
                    .inNamespace(modelServer.getMetadata().getNamespace())
                    .withLabels(Map.of(
                            Labels.MODEL_SERVER, modelServer.getMetadata().getName(), Labels.COMPONENT, Labels.SERVER))
                    .list()
                    .getItems();
            return urls(pods, modelServer.getSpec().port);
        } catch (KubernetesClientException e) {
            LOG.debugf(
                    "Cannot list the serving pods of ModelServer %s: %s",
                    modelServer.getMetadata().getName(), e.getMessage());
            return List.of();
        }
    }

    /**
     * http://IP:port/metrics of each Ready and inference-ready, not deleting pod with an IP, by name; at most what the
     * runner takes.
     */
    static List<String> urls(List<Pod> pods, int port) {
        return pods.stream()
                .filter(ServingPodMetrics::ready)
                .sorted(Comparator.comparing(pod -> pod.getMetadata().getName()))
                .map(pod -> pod.getStatus().getPodIP())
                .map(ip -> "http://" + (ip.contains(":") ? "[" + ip + "]" : ip) + ":" + port + "/metrics")
                .limit(RunnerFlags.MAX_METRICS_URLS)
                .toList();
    }

    private static boolean ready(Pod pod) {
        return pod.getMetadata().getDeletionTimestamp() == null
                && pod.getStatus() != null
                && pod.getStatus().getPodIP() != null
                && pod.getStatus().getConditions() != null
                && conditionTrue(pod, "Ready")
                && conditionTrue(pod, ConditionTypes.POD_INFERENCE_READY);
    }

    private static boolean conditionTrue(Pod pod, String type) {
        return pod.getStatus().getConditions().stream()
                .anyMatch(c -> type.equals(c.getType()) && "True".equals(c.getStatus()));
    }
}
