package dev.llmops.serving.operator.toolkit;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import io.fabric8.kubernetes.client.dsl.BytesLimitTerminateTimeTailPrettyLoggable;
import io.fabric8.kubernetes.client.dsl.TimeTailPrettyLoggable;
import java.net.HttpURLConnection;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Reads the tail of a container's log in one attempt, never more than a byte limit of it. The API server answers 5xx
 * when it cannot reach the node's kubelet, and the client's default retries would then hold a reconciliation for a
 * minute for a log that is optional.
 */
public final class PodLogs {

    /**
     * The most a tail read without a limit of its own asks for: the API server stops after this many bytes of the
     * tail, so a container that logs megabytes per line costs the operator no more. 200 lines of an SGLang log,
     * tracebacks included, are a few tens of KiB.
     */
    public static final int MAX_TAIL_BYTES = 256 * 1024;

    private static final Logger LOG = Logger.getLogger(PodLogs.class);

    private final KubernetesClient client;
    private volatile KubernetesClient noRetry;

    public PodLogs(KubernetesClient client) {
        this.client = client;
    }

    /**
     * The last lines of the container's current (or, with previous, its last terminated) log, at most
     * {@link #MAX_TAIL_BYTES} of them; empty when unreadable.
     */
    public Optional<String> tail(Pod pod, String container, int lines, boolean previous) {
        return read(pod, container, lines, previous, MAX_TAIL_BYTES);
    }

    /**
     * A bounded read of a log: its text, or null when it could not be read; {@code podGone}: the API server answered
     * that the pod no longer exists, so no later read can succeed either.
     */
    public record BoundedTail(String text, boolean podGone) {}

    /**
     * The last lines of the container's current log, at most {@code limitBytes} of them (the API server stops there),
     * or why there are none.
     */
    public BoundedTail tail(Pod pod, String container, int lines, int limitBytes) {
        try {
            return new BoundedTail(request(pod, container, lines, false, limitBytes), false);
        } catch (KubernetesClientException e) {
            LOG.debugf("No log for pod %s: %s", pod.getMetadata().getName(), e.getMessage());
            return new BoundedTail(null, e.getCode() == HttpURLConnection.HTTP_NOT_FOUND);
        }
    }

    private Optional<String> read(Pod pod, String container, int lines, boolean previous, int limitBytes) {
        try {
            return Optional.ofNullable(request(pod, container, lines, previous, limitBytes));
        } catch (KubernetesClientException e) {
            LOG.debugf("No log for pod %s: %s", pod.getMetadata().getName(), e.getMessage());
            return Optional.empty();
        }
    }

    private String request(Pod pod, String container, int lines, boolean previous, int limitBytes) {
        TimeTailPrettyLoggable log = noRetryClient()
                .pods()
                .inNamespace(pod.getMetadata().getNamespace())
                .withName(pod.getMetadata().getName())
                .inContainer(container)
                .limitBytes(limitBytes);
        if (previous) {
            // the DSL's types offer limitBytes or terminated, not both; the request it builds takes both
            log = ((BytesLimitTerminateTimeTailPrettyLoggable) log).terminated();
        }
        return log.tailingLines(lines).getLog();
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
