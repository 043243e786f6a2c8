package dev.llmops.serving.perf;

import dev.llmops.serving.e2e.support.LocalControlPlane;
import dev.llmops.serving.operator.modelserver.LeaderWorkerSet;
import dev.llmops.serving.simulator.SglangSimulator;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodReadinessGate;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * A minimal kubelet for pods of one namespace that the scheduler bound to a node: runs each pod's single container as
 * an SGLang simulator with a slow start on a loopback address of its own, and runs the container's probes as kubelet
 * does — the startup probe every periodSeconds until it succeeds, then the readiness probe at once and every
 * periodSeconds after (no readiness probe: ready as soon as started) — writing container readiness and the pod's
 * ContainersReady and Ready conditions (Ready also needs every readiness gate True). Deleted pods are stopped and
 * removed. It must be the only kubelet of the nodes it serves: a pod whose status shows an address it did not give is
 * remembered as run by another kubelet, named by its writes in the pod's managed fields, and fails the measurement.
 * A pod of a LeaderWorkerSet group is one rank of a distributed server: a worker (a container without ports) serves
 * nothing and runs no simulator, and the leader's slow start begins when every pod of its group has started, as
 * SGLang's ranks meet before they load the weights.
 */
final class ProbingKubelet implements AutoCloseable {

    /** Loopback addresses of our own: other tools on a shared machine take 127.0.0.x:30000. */
    private static final String LOOPBACK_PREFIX = "127.77.0.";

    /** Its name in the pods' managed fields, where it writes their status. */
    private static final String MANAGER = "probing-kubelet";

    /** The group's size, which the LeaderWorkerSet controller writes on each pod of a group. */
    private static final String GROUP_SIZE_ANNOTATION = "leaderworkerset.sigs.k8s.io/size";

    private final KubernetesClient client;
    private final String namespace;
    private final String model;
    private final Function<String, Duration> slowStart;
    private final Map<String, RunningPod> pods = new ConcurrentHashMap<>();
    private final Map<String, Long> firstGeneration = new ConcurrentHashMap<>();
    private final Map<String, String> addresses = new ConcurrentHashMap<>();
    private final Map<String, String> runElsewhere = new ConcurrentHashMap<>();
    private final Map<String, Group> groups = new ConcurrentHashMap<>();
    private final AtomicInteger nextAddress = new AtomicInteger(1);
    private final ScheduledExecutorService probes = Executors.newScheduledThreadPool(4);
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final SharedIndexInformer<Pod> informer;

    /** Each pod's simulator loads for slowStart(pod name) before it can generate. */
    ProbingKubelet(
            LocalControlPlane controlPlane, String namespace, String model, Function<String, Duration> slowStart) {
        this.client = controlPlane.clientAs(MANAGER);
        this.namespace = namespace;
        this.model = model;
        this.slowStart = slowStart;
        this.informer = client.pods().inNamespace(namespace).inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
                onUpdate(null, pod);
            }

            @Override
            public void onUpdate(Pod before, Pod pod) {
                try {
                    handle(pod);
                } catch (RuntimeException e) {
                    System.err.println("kubelet: pod " + pod.getMetadata().getName() + ": " + e);
                }
            }

            @Override
            public void onDelete(Pod pod, boolean unknownFinalState) {
                stop(pod.getMetadata().getName());
            }
        });
    }

    /** The nanotime at which the named pod's simulator ended its slow start, or null while it has not. */
    Long firstGeneration(String pod) {
        return firstGeneration.get(pod);
    }

    /** Fails, naming the pod, its address and the kubelet that wrote it, if another kubelet ran the pod. */
    void assertRan(String pod) {
        Pod current = client.pods().inNamespace(namespace).withName(pod).get();
        String elsewhere = runElsewhere.get(pod);
        if (elsewhere == null && current != null) {
            elsewhere = foreignAddress(current).orElse(null);
        }
        if (elsewhere != null) {
            throw new IllegalStateException("Pod " + pod + " was run by another kubelet, not the benchmark's "
                    + MANAGER + " (whose pods get " + LOOPBACK_PREFIX + "N): " + elsewhere
                    + ". One kubelet alone must run the nodes it measures.");
        }
    }

    /** The pod's address and its writer, if its status shows an address this kubelet did not give it. */
    private Optional<String> foreignAddress(Pod pod) {
        String ip = pod.getStatus() == null ? null : pod.getStatus().getPodIP();
        if (ip == null || ip.equals(addresses.get(pod.getMetadata().getName()))) {
            return Optional.empty();
        }
        return Optional.of("it had IP " + ip + ", written by " + addressWriter(pod));
    }

    private String addressWriter(Pod pod) {
        return pod.getMetadata().getManagedFields().stream()
                .filter(entry -> entry.getFieldsV1() != null
                        && client.getKubernetesSerialization()
                                .asJson(entry.getFieldsV1())
                                .contains("\"f:podIP\""))
                .map(ManagedFieldsEntry::getManager)
                .findFirst()
                .orElse("an unknown writer");
    }

    private void handle(Pod pod) {
        String name = pod.getMetadata().getName();
        foreignAddress(pod).ifPresent(elsewhere -> runElsewhere.putIfAbsent(name, elsewhere));
        if (pod.getMetadata().getDeletionTimestamp() != null) {
            stop(name);
            try {
                client.pods()
                        .inNamespace(namespace)
                        .withName(name)
                        .withGracePeriod(0)
                        .delete();
            } catch (KubernetesClientException e) {
                // already gone
            }
            return;
        }
        if (pod.getSpec().getNodeName() == null) {
            return;
        }
        RunningPod running = pods.computeIfAbsent(name, n -> start(pod));
        running.syncReady(pod);
    }

    private RunningPod start(Pod pod) {
        Container container = pod.getSpec().getContainers().get(0);
        String name = pod.getMetadata().getName();
        String address = LOOPBACK_PREFIX + nextAddress.getAndIncrement();
        addresses.put(name, address);
        Optional<Group> group = group(pod);
        if (container.getPorts() == null || container.getPorts().isEmpty()) {
            RunningPod worker = new RunningPod(name, container, address, null);
            worker.markRunning();
            worker.scheduleStartupProbe();
            group.ifPresent(g -> g.started(name, null));
            return worker;
        }
        SglangSimulator simulator = SglangSimulator.builder()
                .host(address)
                .port(container.getPorts().get(0).getContainerPort())
                .model(model)
                .loading(Duration.ofHours(1))
                .recordGroundTruth(false)
                .start();
        RunningPod running = new RunningPod(name, container, address, simulator);
        Runnable loads = () -> probes.schedule(
                () -> {
                    firstGeneration.put(name, System.nanoTime());
                    simulator.finishLoading();
                },
                slowStart.apply(name).toNanos(),
                TimeUnit.NANOSECONDS);
        running.markRunning();
        running.scheduleStartupProbe();
        group.ifPresentOrElse(g -> g.started(name, loads), loads);
        return running;
    }

    /** The LeaderWorkerSet group of the pod, if it is one of a group of several pods. */
    private Optional<Group> group(Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        String set = labels == null ? null : labels.get(LeaderWorkerSet.NAME_LABEL);
        String size = annotations == null ? null : annotations.get(GROUP_SIZE_ANNOTATION);
        if (set == null || size == null || Integer.parseInt(size) < 2) {
            return Optional.empty();
        }
        String key = set + "/" + labels.get(LeaderWorkerSet.GROUP_INDEX_LABEL);
        return Optional.of(groups.computeIfAbsent(key, k -> new Group(Integer.parseInt(size))));
    }

    /** The pods of one group that have started; the leader's loading begins once all of them have. */
    private static final class Group {
        private final int size;
        private final Set<String> started = ConcurrentHashMap.newKeySet();
        private Runnable leaderLoads;

        Group(int size) {
            this.size = size;
        }

        /** A member started; the leader passes how it loads, a worker null. */
        synchronized void started(String pod, Runnable loads) {
            started.add(pod);
            if (loads != null) {
                leaderLoads = loads;
            }
            if (started.size() == size && leaderLoads != null) {
                leaderLoads.run();
                leaderLoads = null;
            }
        }
    }

    private void stop(String name) {
        RunningPod running = pods.remove(name);
        if (running != null) {
            running.close();
        }
    }

    /** One pod's container: its simulator, probe state and scheduled probe. */
    private final class RunningPod {
        private final String name;
        private final Container container;
        private final String address;
        private final SglangSimulator simulator;
        private volatile boolean started;
        private volatile boolean ready;
        private volatile ScheduledFuture<?> probe;

        RunningPod(String name, Container container, String address, SglangSimulator simulator) {
            this.name = name;
            this.container = container;
            this.address = address;
            this.simulator = simulator;
        }

        void markRunning() {
            String now = now();
            updateStatus(pod -> {
                pod.getStatus().setPhase("Running");
                pod.getStatus().setPodIP(address);
                pod.getStatus().setHostIP("127.0.0.1");
                pod.getStatus().setStartTime(now);
                setCondition(pod, "Initialized", true);
                return pod;
            });
        }

        void scheduleStartupProbe() {
            Probe startup = container.getStartupProbe();
            if (startup == null) {
                started();
                return;
            }
            long period =
                    TimeUnit.SECONDS.toNanos(startup.getPeriodSeconds() == null ? 10 : startup.getPeriodSeconds());
            long first = System.nanoTime()
                    + TimeUnit.SECONDS.toNanos(
                            startup.getInitialDelaySeconds() == null ? 0 : startup.getInitialDelaySeconds());
            probeStartupAt(startup, first, period);
        }

        /** One tick of the startup probe's ticker: probe, then the next tick a period after this one, until success. */
        private void probeStartupAt(Probe startup, long tick, long period) {
            probe = probes.schedule(
                    () -> {
                        if (succeeds(startup)) {
                            started();
                        } else {
                            probeStartupAt(startup, tick + period, period);
                        }
                    },
                    tick - System.nanoTime(),
                    TimeUnit.NANOSECONDS);
        }

        /** Startup done: readiness probe at once, then every period; without one the container is ready now. */
        private void started() {
            started = true;
            Probe readiness = container.getReadinessProbe();
            if (readiness == null) {
                ready = true;
                writeContainerStatus();
                return;
            }
            writeContainerStatus();
            long period = readiness.getPeriodSeconds() == null ? 10 : readiness.getPeriodSeconds();
            probe = probes.scheduleAtFixedRate(
                    () -> {
                        boolean now = succeeds(readiness);
                        if (now != ready) {
                            ready = now;
                            writeContainerStatus();
                        }
                    },
                    0,
                    TimeUnit.SECONDS.toNanos(period),
                    TimeUnit.NANOSECONDS);
        }

        private boolean succeeds(Probe probe) {
            int port = resolvePort(
                    probe.getHttpGet().getPort().getIntVal(),
                    probe.getHttpGet().getPort().getStrVal());
            long timeout = probe.getTimeoutSeconds() == null ? 1 : probe.getTimeoutSeconds();
            try {
                HttpResponse<Void> response = http.send(
                        HttpRequest.newBuilder(URI.create("http://" + address + ":" + port
                                        + probe.getHttpGet().getPath()))
                                .timeout(Duration.ofSeconds(timeout))
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
                return response.statusCode() >= 200 && response.statusCode() < 400;
            } catch (java.io.IOException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        private int resolvePort(Integer number, String name) {
            if (number != null) {
                return number;
            }
            return container.getPorts().stream()
                    .filter(p -> Objects.equals(p.getName(), name))
                    .map(ContainerPort::getContainerPort)
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("No container port named " + name));
        }

        private void writeContainerStatus() {
            updateStatus(pod -> {
                ContainerStatus status = new ContainerStatusBuilder()
                        .withName(container.getName())
                        .withImage(container.getImage())
                        .withImageID(container.getImage())
                        .withStarted(started)
                        .withReady(ready)
                        .withRestartCount(0)
                        .withNewState()
                        .withNewRunning()
                        .withStartedAt(pod.getStatus().getStartTime())
                        .endRunning()
                        .endState()
                        .build();
                pod.getStatus().setContainerStatuses(List.of(status));
                setCondition(pod, "ContainersReady", ready);
                setCondition(pod, "Ready", ready && gatesOpen(pod));
                return pod;
            });
        }

        /** Brings the pod's Ready condition in line with its readiness gates, which the operator sets. */
        void syncReady(Pod pod) {
            boolean shouldBeReady = ready && gatesOpen(pod);
            boolean isReady = condition(pod, "Ready")
                    .map(c -> "True".equals(c.getStatus()))
                    .orElse(false);
            if (started && shouldBeReady != isReady) {
                updateStatus(current -> {
                    setCondition(current, "Ready", ready && gatesOpen(current));
                    return current;
                });
            }
        }

        private void updateStatus(UnaryOperator<Pod> change) {
            for (int attempt = 0; attempt < 20; attempt++) {
                Pod current =
                        client.pods().inNamespace(namespace).withName(name).get();
                if (current == null) {
                    return;
                }
                try {
                    client.resource(change.apply(current)).updateStatus();
                    return;
                } catch (KubernetesClientException e) {
                    if (e.getCode() != 409) {
                        throw e;
                    }
                }
            }
            throw new IllegalStateException("Pod " + name + ": status update conflicted 20 times");
        }

        void close() {
            if (probe != null) {
                probe.cancel(false);
            }
            if (simulator != null) {
                simulator.close();
            }
        }
    }

    private static boolean gatesOpen(Pod pod) {
        List<PodReadinessGate> gates = pod.getSpec().getReadinessGates() == null
                ? List.of()
                : pod.getSpec().getReadinessGates();
        return gates.stream()
                .allMatch(gate -> condition(pod, gate.getConditionType())
                        .map(c -> "True".equals(c.getStatus()))
                        .orElse(false));
    }

    private static Optional<PodCondition> condition(Pod pod, String type) {
        return pod.getStatus() == null || pod.getStatus().getConditions() == null
                ? Optional.empty()
                : pod.getStatus().getConditions().stream()
                        .filter(c -> type.equals(c.getType()))
                        .findFirst();
    }

    private static void setCondition(Pod pod, String type, boolean value) {
        String status = value ? "True" : "False";
        List<PodCondition> conditions = new ArrayList<>(
                pod.getStatus().getConditions() == null
                        ? List.of()
                        : pod.getStatus().getConditions());
        Optional<PodCondition> existing =
                conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
        if (existing.isPresent() && status.equals(existing.get().getStatus())) {
            return;
        }
        existing.ifPresent(conditions::remove);
        conditions.add(new PodConditionBuilder()
                .withType(type)
                .withStatus(status)
                .withLastTransitionTime(now())
                .build());
        pod.getStatus().setConditions(conditions);
    }

    private static String now() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    }

    @Override
    public void close() {
        informer.close();
        pods.keySet().forEach(this::stop);
        probes.shutdownNow();
        client.close();
    }
}
