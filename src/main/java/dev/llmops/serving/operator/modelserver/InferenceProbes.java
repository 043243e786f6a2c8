package dev.llmops.serving.operator.modelserver;

import dev.llmops.serving.api.v1alpha1.modelserver.InferenceProbeResult;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerSpec;
import io.fabric8.kubernetes.api.model.Pod;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.AbstractEventSource;
import io.javaoperatorsdk.operator.processing.event.source.ResourceEventAware;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Runs the real-generation probes of serving pods off the reconciler threads and wakes the reconciler when one
 * finishes. A pod that has not generated yet is probed every {@link #NOT_READY_PERIOD}; a ready pod gets a real
 * generation every spec.readiness.probeIntervalSeconds and a cheap /health check every {@link #HEALTH_PERIOD} in
 * between, and a failed /health brings the next generation forward. The probe states are this event source's secondary
 * resources.
 *
 * <p>At most {@value #MAX_IN_FLIGHT} probes, generations and /health checks together, run at once across every
 * ModelServer, so all probes together hold at most {@value #MAX_IN_FLIGHT} times what one may hold (under 1 MiB, see
 * {@link RunnerInferenceClient}): under 32 MiB whatever the number of ModelServers and pods. A probe that finds no free
 * slot is not started and stays due; the reconciler looks again within {@link #NOT_READY_PERIOD}.
 */
public class InferenceProbes extends AbstractEventSource<PodInference, ModelServer>
        implements ResourceEventAware<ModelServer> {

    /**
     * Half the kubelet's start-up probe period: a pod is Ready once both have passed, so this period adds to the time
     * from a loaded model to Ready only when it is the later of the two. A refused connection or a 503 is all a
     * loading server costs.
     */
    static final Duration NOT_READY_PERIOD = Duration.ofSeconds(1);

    static final Duration HEALTH_PERIOD = Duration.ofSeconds(10);
    static final Duration GENERATION_TIMEOUT = Duration.ofSeconds(60);
    static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(10);

    /**
     * Probes in flight at once. At 1000 ready servers a generation starts every 60 ms and a /health check every 10 ms;
     * 32 slots leave room for generations that take a second or two on a loaded server.
     */
    static final int MAX_IN_FLIGHT = 32;

    private final InferenceClient client;
    private final Semaphore slots;
    private final Map<ResourceID, Map<String, PodProbe>> probes = new ConcurrentHashMap<>();

    public InferenceProbes(InferenceClient client) {
        this(client, MAX_IN_FLIGHT);
    }

    InferenceProbes(InferenceClient client, int maxInFlight) {
        super(PodInference.class, "inference-probes");
        this.client = client;
        this.slots = new Semaphore(maxInFlight);
    }

    /**
     * Starts the probes that are due for the server's running serving pods, forgets pods that are gone, and returns
     * when the reconciler should look again if no probe finishes before.
     */
    public Optional<Duration> probeDue(ModelServer server, List<Pod> servingPods, Optional<String> apiKey) {
        ResourceID id = ResourceID.fromResource(server);
        Map<String, PodProbe> byPod = probes.computeIfAbsent(id, k -> new ConcurrentHashMap<>());
        Set<String> live = new HashSet<>();
        Instant now = Instant.now();
        Instant nextDue = null;
        for (Pod pod : servingPods) {
            Optional<URI> baseUrl = baseUrl(pod, server.getSpec().port);
            if (baseUrl.isEmpty()) {
                continue;
            }
            live.add(pod.getMetadata().getUid());
            PodProbe probe = byPod.computeIfAbsent(
                    pod.getMetadata().getUid(),
                    uid -> new PodProbe(pod.getMetadata().getName()));
            Instant due = probe.startIfDue(server, baseUrl.get(), now, apiKey.orElse(null));
            nextDue = nextDue == null || due.isBefore(nextDue) ? due : nextDue;
        }
        byPod.keySet().retainAll(live);
        return Optional.ofNullable(nextDue)
                .map(due -> Duration.between(now, due))
                .map(d -> d.isNegative() ? Duration.ZERO : d);
    }

    @Override
    public Set<PodInference> getSecondaryResources(ModelServer server) {
        return probes.getOrDefault(ResourceID.fromResource(server), Map.of()).entrySet().stream()
                .map(e -> e.getValue().snapshot(e.getKey()))
                .collect(Collectors.toSet());
    }

    @Override
    public void onResourceDeleted(ModelServer server) {
        probes.remove(ResourceID.fromResource(server));
    }

    private void wake(ResourceID server) {
        if (isRunning()) {
            getEventHandler().handleEvent(new Event(server));
        }
    }

    /** The probe's answer, or its failure when it could not even start, so its slot is always given back. */
    private static <T> CompletableFuture<T> started(Supplier<CompletableFuture<T>> probe) {
        try {
            return probe.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Pods are reached directly at podIP and the spec's port; the Service would pick any pod. */
    static Optional<URI> baseUrl(Pod pod, int port) {
        if (pod.getStatus() == null
                || !"Running".equals(pod.getStatus().getPhase())
                || pod.getStatus().getPodIP() == null
                || pod.getMetadata().getDeletionTimestamp() != null) {
            return Optional.empty();
        }
        String ip = pod.getStatus().getPodIP();
        return Optional.of(URI.create("http://" + (ip.contains(":") ? "[" + ip + "]" : ip) + ":" + port));
    }

    static String modelName(ModelServerSpec spec) {
        return spec.model.servedModelName != null ? spec.model.servedModelName : spec.model.path;
    }

    /** The probe history of one pod; guarded by its own monitor because probes complete on HTTP client threads. */
    private final class PodProbe {
        private final String podName;
        private boolean inFlight;
        private boolean generating;
        private boolean healthFailed;
        private Instant lastGenerationAttempt;
        private Instant lastHealthCheck;
        private InferenceProbeResult lastSuccess;
        private String lastError;

        PodProbe(String podName) {
            this.podName = podName;
        }

        synchronized Instant startIfDue(ModelServer server, URI baseUrl, Instant now, String apiKey) {
            if (inFlight) {
                return now.plus(NOT_READY_PERIOD);
            }
            Instant generationDue = lastGenerationAttempt == null
                    ? now
                    : generating && !healthFailed
                            ? lastGenerationAttempt.plusSeconds(server.getSpec().readiness.probeIntervalSeconds)
                            : lastGenerationAttempt.plus(NOT_READY_PERIOD);
            if (!now.isBefore(generationDue)) {
                if (slots.tryAcquire()) {
                    startGeneration(server, baseUrl, now, apiKey);
                }
                return now.plus(NOT_READY_PERIOD);
            }
            if (!generating) {
                return generationDue;
            }
            Instant lastProof = lastHealthCheck != null && lastHealthCheck.isAfter(lastGenerationAttempt)
                    ? lastHealthCheck
                    : lastGenerationAttempt;
            Instant healthDue = lastProof.plus(HEALTH_PERIOD);
            if (!now.isBefore(healthDue)) {
                boolean started = slots.tryAcquire();
                if (started) {
                    startHealthCheck(server, baseUrl, now);
                }
                healthDue = now.plus(started ? HEALTH_PERIOD : NOT_READY_PERIOD);
            }
            return healthDue.isBefore(generationDue) ? healthDue : generationDue;
        }

        private void startGeneration(ModelServer server, URI baseUrl, Instant now, String apiKey) {
            inFlight = true;
            lastGenerationAttempt = now;
            ModelServerSpec spec = server.getSpec();
            ResourceID id = ResourceID.fromResource(server);
            started(() -> client.generate(
                            baseUrl,
                            modelName(spec),
                            spec.readiness.probePrompt,
                            spec.readiness.probeMaxTokens,
                            GENERATION_TIMEOUT,
                            apiKey))
                    .whenComplete((generation, failure) -> {
                        slots.release();
                        recordGeneration(generation, failure);
                        wake(id);
                    });
        }

        private synchronized void recordGeneration(InferenceClient.Generation generation, Throwable failure) {
            inFlight = false;
            healthFailed = false;
            generating = failure == null && generation.succeeded() && generation.outputTokens() > 0;
            if (generating) {
                InferenceProbeResult result = new InferenceProbeResult();
                result.time = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
                result.pod = podName;
                result.latencyMillis = generation.latency().toMillis();
                result.outputTokens = generation.outputTokens();
                lastSuccess = result;
                lastError = null;
            } else {
                lastError = failure != null
                        ? (failure.getMessage() != null ? failure.getMessage() : failure.toString())
                        : generation.error() != null ? generation.error() : "the completion returned no tokens";
            }
        }

        private void startHealthCheck(ModelServer server, URI baseUrl, Instant now) {
            inFlight = true;
            lastHealthCheck = now;
            ResourceID id = ResourceID.fromResource(server);
            started(() -> client.healthy(baseUrl, HEALTH_TIMEOUT)).whenComplete((healthy, failure) -> {
                slots.release();
                boolean failed = recordHealth(failure == null && Boolean.TRUE.equals(healthy));
                if (failed) {
                    wake(id);
                }
            });
        }

        private synchronized boolean recordHealth(boolean healthy) {
            inFlight = false;
            healthFailed = !healthy;
            return healthFailed;
        }

        synchronized PodInference snapshot(String podUid) {
            return new PodInference(
                    podUid, podName, generating || lastError != null, generating, lastSuccess, lastError);
        }
    }
}
