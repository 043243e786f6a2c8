package dev.llmops.serving.status;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Reads the tail of a container's log in one attempt. The API server answers 5xx when it cannot reach the node's
 * kubelet, and the client's default retries would then hold a reconciliation for a minute for a log that is optional.
 */
public final class PodLogs {

    private static final Logger LOG = Logger.getLogger(PodLogs.class);

    private final KubernetesClient client;
    private volatile KubernetesClient noRetry;

    public PodLogs(KubernetesClient client) {
        this.client = client;
    }

    /**
     * The last lines of the container's current (or, with previous, its last terminated) log; empty when unreadable.
     */
    public Optional<String> tail(Pod pod, String container, int lines, boolean previous) {
        try {
            var log = noRetryClient()
                    .pods()
                    .inNamespace(pod.getMetadata().getNamespace())
                    .withName(pod.getMetadata().getName())
                    .inContainer(container);
            return Optional.ofNullable(
                    (previous ? log.terminated() : log).tailingLines(lines).getLog());
        } catch (KubernetesClientException e) {
            LOG.debugf("No log for pod %s: %s", pod.getMetadata().getName(), e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * The last lines of the container's current log, at most {@code limitBytes} of them (the API server stops there);
     * empty when unreadable.
     */
    public Optional<String> tail(Pod pod, String container, int lines, int limitBytes) {
        try {
            return Optional.ofNullable(noRetryClient()
                    .pods()
                    .inNamespace(pod.getMetadata().getNamespace())
                    .withName(pod.getMetadata().getName())
                    .inContainer(container)
                    .limitBytes(limitBytes)
                    .tailingLines(lines)
                    .getLog());
        } catch (KubernetesClientException e) {
            LOG.debugf("No log for pod %s: %s", pod.getMetadata().getName(), e.getMessage());
            return Optional.empty();
        }
    }

    private KubernetesClient noRetryClient() {
        if (noRetry == null) {
            noRetry = client.newClient(new RequestConfigBuilder()
                            .withRequestRetryBackoffLimit(0)
                            .build())
                    .adapt(KubernetesClient.class);
        }
        return noRetry;
    }
}
