package dev.llmops.serving.demo;

import dev.llmops.serving.demo.apiserver.PodLogSource;
import dev.llmops.serving.simulator.SglangSimulator;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.HostIP;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodIP;
import io.fabric8.kubernetes.api.model.PodReadinessGate;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;

/**
 * Plays the kubelet (and the cluster DNS) for pods that no real node runs, against the demo's embedded API or a real
 * API server. An SGLang pod gets an SGLang simulator on an address of its own (127.0.0.2, 127.0.0.3, ...) at the pod's
 * port, so whoever probes the pod IP talks to a real HTTP server; its container turns ready when the simulator has
 * loaded, and the pod turns Ready only when every readiness gate is True, as on a real node. A benchmark pod runs the
 * real runner against the service it names and ends with the runner's summary as its termination message. Other pods
 * just run. Like the kubelet it writes the status optimistically (a conflict re-reads the pod) and confirms a graceful
 * deletion once the pod's containers have stopped, so garbage collection and namespace deletion complete.
 */
public final class KubeletStandIn implements AutoCloseable {

    /** Runs the {@code bench} command line of a benchmark pod, writing its output to the pod's log. */
    @FunctionalInterface
    public interface BenchmarkLauncher {
        int run(List<String> args, PrintWriter log);

        /** Runs it with the container's environment (its variables resolved); by default without it. */
        default int run(List<String> args, Map<String, String> environment, PrintWriter log) {
            return run(args, log);
        }

        /** Runs it as the container's image would; by default every image is the operator's runner. */
        default int run(String image, List<String> args, Map<String, String> environment, PrintWriter log) {
            return run(args, environment, log);
        }

        /**
         * Runs it as the pod's container: its image, security context, resources and volumes, with the file behind
         * its termination-message path at {@code terminationMessage} (the args name that file as the runner's summary
         * file); by default with the container's image and environment alone.
         */
        default int run(
                Pod pod, List<String> args, Map<String, String> environment, Path terminationMessage, PrintWriter log) {
            return run(pod.getSpec().getContainers().get(0).getImage(), args, environment, log);
        }
    }

    private static final Logger LOG = Logger.getLogger(KubeletStandIn.class);
    private static final Pattern SERVICE_URL =
            Pattern.compile("^http://([a-z0-9-]+)\\.([a-z0-9-]+)\\.svc(?:\\.cluster\\.local)?:(\\d+)(.*)$");
    private static final String SUMMARY_FILE = "--summary-file";
    /** {@code <hostname>.<subdomain>:<port>}: a pod under a headless Service, as the shards of a run name shard 0. */
    private static final Pattern POD_NAME = Pattern.compile("^([a-z0-9-]+)\\.([a-z0-9-]+):(\\d+)$");

    private static final String HOST_IP = "127.0.0.1";
    private static final long RESYNC_MILLIS = 1000;
    private static final int STATUS_WRITE_ATTEMPTS = 10;
    private static final Duration FINAL_STATUS_PATIENCE = Duration.ofMinutes(5);
    private static final Duration FINAL_STATUS_RETRY = Duration.ofSeconds(1);
    private static final int ADDRESS_ATTEMPTS = 20;
    /** 128 + SIGKILL, what a container killed at the end of its grace period exits with. */
    private static final int KILLED_EXIT_CODE = 137;
    /** How long a server that fails at start runs before it exits. */
    private static final Duration FAILING_START_RUN = Duration.ofMillis(500);
    /** The kubelet's crash-loop back-off, shortened for a demo: it doubles per restart up to the maximum. */
    private static final Duration FIRST_BACK_OFF = Duration.ofSeconds(1);
    /** Where the kubelet stops doubling at five minutes, the demo stops at this. */
    private static final Duration MAX_BACK_OFF = Duration.ofSeconds(8);

    private final KubernetesClient client;
    private final Predicate<Pod> scope;
    private final Function<Pod, SimulatedServerProfile> profiles;
    private final BenchmarkLauncher launcher;
    private final Map<String, SglangSimulator> simulators = new ConcurrentHashMap<>();
    private final Map<String, Future<?>> benchmarkRuns = new ConcurrentHashMap<>();
    private final Map<String, Future<?>> crashLoops = new ConcurrentHashMap<>();
    private final Set<String> started = ConcurrentHashMap.newKeySet();
    private final RecordedLogs logs = new RecordedLogs();
    private final AtomicInteger nextAddress = new AtomicInteger(2);
    private final ExecutorService benchmarks = Executors.newCachedThreadPool(daemon("benchmark-pod"));
    private final ScheduledExecutorService loop =
            Executors.newSingleThreadScheduledExecutor(daemon("kubelet-stand-in"));
    private volatile SharedIndexInformer<Pod> informer;
    private volatile boolean closed;

    /**
     * @param scope    the pods this stand-in runs (e.g. those bound to its fake nodes); the others are left alone
     * @param profiles how the simulated server of an SGLang pod behaves
     * @param launcher runs benchmark pods
     */
    public KubeletStandIn(
            KubernetesClient client,
            Predicate<Pod> scope,
            Function<Pod, SimulatedServerProfile> profiles,
            BenchmarkLauncher launcher) {
        this.client = client;
        this.scope = scope;
        this.profiles = profiles;
        this.launcher = launcher;
    }

    /** Watches every pod (the periodic resync re-checks simulators that finished loading) and runs those in scope. */
    public KubeletStandIn start() {
        informer = client.pods()
                .inAnyNamespace()
                .inform(
                        new ResourceEventHandler<>() {
                            @Override
                            public void onAdd(Pod pod) {
                                enqueue(pod);
                            }

                            @Override
                            public void onUpdate(Pod old, Pod pod) {
                                enqueue(pod);
                            }

                            @Override
                            public void onDelete(Pod pod, boolean finalStateUnknown) {
                                enqueue(pod);
                            }
                        },
                        RESYNC_MILLIS);
        return this;
    }

    /** The logs of the benchmark pods this stand-in ran (the last 64 KiB of each), as a kubelet would serve them. */
    public PodLogSource logs() {
        return logs;
    }

    private void enqueue(Pod pod) {
        if (!closed) {
            String key = Cache.metaNamespaceKeyFunc(pod);
            String uid = pod.getMetadata().getUid();
            loop.execute(() -> syncSafely(key, uid));
        }
    }

    private void syncSafely(String key, String uid) {
        try {
            sync(key, uid);
        } catch (RuntimeException e) {
            if (!closed) {
                LOG.warnf(e, "kubelet stand-in, pod %s: %s", key, e.getMessage());
            }
        }
    }

    private void sync(String key, String uid) {
        Pod pod = informer.getStore().getByKey(key);
        if (pod == null || !uid.equals(pod.getMetadata().getUid())) {
            stop(uid);
            logs.remove(key, uid);
            return;
        }
        if (!scope.test(pod)) {
            return;
        }
        if (pod.getMetadata().getDeletionTimestamp() != null) {
            boolean benchmarkRunning = benchmarkRuns.containsKey(uid);
            stop(uid);
            if (benchmarkRunning && !terminated(pod)) {
                // As the kubelet does: the killed container's exit reaches the status before the pod goes, so a Job
                // controller waiting for a terminal phase (a Job with a pod failure policy) counts and replaces it.
                finish(pod, KILLED_EXIT_CODE, "killed: the pod was deleted");
            }
            confirmDeletion(pod);
        } else if (!terminated(pod) && started.add(uid)) {
            startPod(pod);
        } else if (simulators.containsKey(uid)) {
            reportServerStatus(pod);
        }
    }

    private void startPod(Pod pod) {
        Container container = pod.getSpec().getContainers().get(0);
        Map<String, String> environment = ContainerEnvironment.of(client, pod, container);
        List<String> commandLine = ContainerEnvironment.expand(commandLine(container), environment);
        int bench = commandLine.indexOf("bench");
        if (commandLine.stream().anyMatch(a -> a.contains("sglang.launch_server"))
                && flag(commandLine, "--port").isPresent()) {
            startServer(pod, commandLine);
        } else if (bench >= 0) {
            startBenchmark(pod, commandLine.subList(bench + 1, commandLine.size()), environment);
        } else {
            String address = allocateAddress();
            updateStatus(pod, current -> withRunningStatus(current, address, true));
        }
    }

    private void startServer(Pod pod, List<String> args) {
        SimulatedServerProfile profile = profiles.apply(pod);
        if (profile.startupFailure() != null) {
            String address = allocateAddress();
            updateStatus(pod, current -> withRestartedContainer(withRunningStatus(current, address, false), 0));
            later(pod, FAILING_START_RUN, () -> exitAtStart(pod, profile.startupFailure(), 0));
            return;
        }
        SglangSimulator simulator = null;
        String address = null;
        for (int attempt = 1; simulator == null; attempt++) {
            address = allocateAddress();
            try {
                simulator = startSimulator(address, args, profile);
            } catch (UncheckedIOException e) {
                // Another process on this machine (a second demo, a test run) serves at that address: take the next.
                if (!(e.getCause() instanceof BindException) || attempt == ADDRESS_ATTEMPTS) {
                    throw e;
                }
            }
        }
        simulators.put(pod.getMetadata().getUid(), simulator);
        String podIp = address;
        LOG.debugf("pod %s serves at %s:%d", Cache.metaNamespaceKeyFunc(pod), podIp, simulator.port());
        updateStatus(pod, current -> withRunningStatus(current, podIp, false));
    }

    private static SglangSimulator startSimulator(String address, List<String> args, SimulatedServerProfile profile) {
        return SglangSimulator.builder()
                .host(address)
                .port(Integer.parseInt(flag(args, "--port").orElseThrow()))
                .model(flag(args, "--served-model-name")
                        .or(() -> flag(args, "--model-path"))
                        .orElse("model"))
                .speculativeAlgorithm(flag(args, "--speculative-algorithm").orElse(null))
                .apiKey(flag(args, "--api-key").orElse(null))
                .reportCachedTokens(args.contains("--enable-cache-report"))
                .ttft(profile.ttft())
                .tokenDelay(profile.stepDelay())
                .speculative(profile.acceptance())
                .maxRunning(profile.maxRunning())
                .batchSlowdown(profile.batchSlowdown())
                .loading(profile.loading())
                .fault(profile.fault())
                .recordGroundTruth(false)
                .start();
    }

    /**
     * The server container exits with the log it wrote (its termination message too, under FallbackToLogsOnError) and
     * waits in CrashLoopBackOff; after the back-off it is started again, to fail the same way.
     */
    private void exitAtStart(Pod pod, String log, int restarts) {
        Container container = pod.getSpec().getContainers().get(0);
        try (PrintWriter writer = new PrintWriter(logs.open(
                pod.getMetadata().getNamespace(),
                pod.getMetadata().getName(),
                pod.getMetadata().getUid(),
                container.getName()))) {
            writer.print(log.endsWith("\n") ? log : log + "\n");
        }
        String message = "FallbackToLogsOnError".equals(container.getTerminationMessagePolicy()) ? tail(log) : "";
        Duration doubled = FIRST_BACK_OFF.multipliedBy(1L << Math.min(restarts, 3));
        Duration backOff = doubled.compareTo(MAX_BACK_OFF) > 0 ? MAX_BACK_OFF : doubled;
        updateStatus(pod, current -> withCrashedContainer(current, restarts, message, backOff));
        later(pod, backOff, () -> {
            updateStatus(pod, current -> withRestartedContainer(current, restarts + 1));
            later(pod, FAILING_START_RUN, () -> exitAtStart(pod, log, restarts + 1));
        });
    }

    /** The next step of a pod's crash loop, after the delay, unless the pod has been stopped by then. */
    private void later(Pod pod, Duration delay, Runnable step) {
        String uid = pod.getMetadata().getUid();
        crashLoops.put(
                uid,
                loop.schedule(
                        () -> {
                            if (!closed && crashLoops.containsKey(uid)) {
                                try {
                                    step.run();
                                } catch (RuntimeException e) {
                                    LOG.warnf(e, "kubelet stand-in, pod %s: %s", Cache.metaNamespaceKeyFunc(pod), e);
                                }
                            }
                        },
                        delay.toMillis(),
                        TimeUnit.MILLISECONDS));
    }

    /** The container exited with an error and waits to be restarted: CrashLoopBackOff, the exit as its last state. */
    private static Pod withCrashedContainer(Pod pod, int restarts, String message, Duration backOff) {
        String now = WorkloadControllerStandIn.now();
        ContainerStatus container = pod.getStatus().getContainerStatuses().get(0);
        String startedAt = container.getState() != null && container.getState().getRunning() != null
                ? container.getState().getRunning().getStartedAt()
                : now;
        container.setLastState(new ContainerStateBuilder()
                .withNewTerminated()
                .withExitCode(1)
                .withReason("Error")
                .withMessage(message)
                .withContainerID(container.getContainerID())
                .withStartedAt(startedAt)
                .withFinishedAt(now)
                .endTerminated()
                .build());
        container.setState(new ContainerStateBuilder()
                .withNewWaiting()
                .withReason("CrashLoopBackOff")
                .withMessage("back-off %ds restarting failed container=%s pod=%s_%s(%s)"
                        .formatted(
                                backOff.toSeconds(),
                                container.getName(),
                                pod.getMetadata().getName(),
                                pod.getMetadata().getNamespace(),
                                pod.getMetadata().getUid()))
                .endWaiting()
                .build());
        container.setRestartCount(restarts);
        container.setStarted(false);
        withReadiness(pod, false);
        return pod;
    }

    /** The back-off is over: the container runs again, not started (its start-up probe has not passed). */
    private static Pod withRestartedContainer(Pod pod, int restarts) {
        ContainerStatus container = pod.getStatus().getContainerStatuses().get(0);
        container.setState(new ContainerStateBuilder()
                .withNewRunning()
                .withStartedAt(WorkloadControllerStandIn.now())
                .endRunning()
                .build());
        container.setRestartCount(restarts);
        container.setStarted(false);
        withReadiness(pod, false);
        return pod;
    }

    /**
     * Keeps the container's readiness (the simulator has loaded) and the pod's Ready (containers and gates) current.
     */
    private void reportServerStatus(Pod pod) {
        boolean containerReady = !simulators.get(pod.getMetadata().getUid()).isLoading();
        if (conditionTrue(pod.getStatus(), "ContainersReady") != containerReady
                || conditionTrue(pod.getStatus(), "Ready") != (containerReady && gatesPassed(pod))) {
            updateStatus(pod, current -> {
                withReadiness(current, containerReady);
                return current;
            });
        }
    }

    private void startBenchmark(Pod pod, List<String> benchArgs, Map<String, String> environment) {
        String address = allocateAddress();
        updateStatus(pod, current -> withRunningStatus(current, address, true));
        benchmarkRuns.put(
                pod.getMetadata().getUid(), benchmarks.submit(() -> runBenchmark(pod, benchArgs, environment)));
    }

    private void runBenchmark(Pod pod, List<String> benchArgs, Map<String, String> environment) {
        Path summary = null;
        try {
            summary = Files.createTempFile("benchmark-summary", ".json");
            var metadata = pod.getMetadata();
            String container = pod.getSpec().getContainers().get(0).getName();
            PrintWriter log = new PrintWriter(
                    logs.open(metadata.getNamespace(), metadata.getName(), metadata.getUid(), container), true);
            int exitCode = launcher.run(pod, resolveArgs(pod, benchArgs, summary), environment, summary, log);
            if (Thread.currentThread().isInterrupted()) {
                return;
            }
            String message = Files.readString(summary, StandardCharsets.UTF_8);
            finish(
                    pod,
                    exitCode,
                    message.isEmpty() && exitCode != 0
                            ? tail(logs.log(metadata.getNamespace(), metadata.getName(), container)
                                    .orElse(""))
                            : message);
        } catch (Exception | LinkageError e) {
            if (!closed) {
                LOG.warnf(e, "benchmark pod %s failed", Cache.metaNamespaceKeyFunc(pod));
                finish(pod, 1, String.valueOf(e.getMessage()));
            }
        } finally {
            benchmarkRuns.remove(pod.getMetadata().getUid());
            if (summary != null) {
                try {
                    Files.deleteIfExists(summary);
                } catch (IOException ignored) {
                    // a temp file left behind is harmless
                }
            }
        }
    }

    /**
     * Points the runner at the pod behind the service URL (the cluster DNS) and at a file instead of
     * /dev/termination-log.
     */
    private List<String> resolveArgs(Pod pod, List<String> args, Path summary) {
        List<String> resolved = new ArrayList<>(args);
        for (int i = 0; i < resolved.size() - 1; i++) {
            if (SUMMARY_FILE.equals(resolved.get(i))) {
                resolved.set(i + 1, summary.toString());
            }
            if ("--url".equals(resolved.get(i))) {
                resolved.set(i + 1, resolveServiceUrl(resolved.get(i + 1)));
            }
            if ("--rendezvous".equals(resolved.get(i))) {
                resolved.set(i + 1, resolvePodName(pod.getMetadata().getNamespace(), resolved.get(i + 1)));
            }
        }
        if (!resolved.contains(SUMMARY_FILE)) {
            resolved.add(SUMMARY_FILE);
            resolved.add(summary.toString());
        }
        return resolved;
    }

    /**
     * {@code <hostname>.<subdomain>:<port>}, a pod's name under a headless Service, as the pod's IP and port, as
     * cluster DNS answers it once that pod has an IP (waited for a minute, as a shard's pods start side by side).
     */
    private String resolvePodName(String namespace, String address) {
        Matcher matcher = POD_NAME.matcher(address);
        if (!matcher.matches()) {
            return address;
        }
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (System.nanoTime() - deadline < 0) {
            Optional<String> ip = client.pods().inNamespace(namespace).list().getItems().stream()
                    .filter(p -> matcher.group(1).equals(p.getSpec().getHostname())
                            && matcher.group(2).equals(p.getSpec().getSubdomain())
                            && p.getStatus() != null
                            && p.getStatus().getPodIP() != null)
                    .map(p -> p.getStatus().getPodIP())
                    .findFirst();
            if (ip.isPresent()) {
                return ip.get() + ":" + matcher.group(3);
            }
            try {
                TimeUnit.MILLISECONDS.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return address;
            }
        }
        return address;
    }

    private String resolveServiceUrl(String url) {
        Matcher matcher = SERVICE_URL.matcher(url);
        if (!matcher.matches()) {
            return url;
        }
        Service service = client.services()
                .inNamespace(matcher.group(2))
                .withName(matcher.group(1))
                .get();
        if (service == null || service.getSpec().getSelector() == null) {
            return url;
        }
        return client
                .pods()
                .inNamespace(matcher.group(2))
                .withLabels(service.getSpec().getSelector())
                .list()
                .getItems()
                .stream()
                .filter(WorkloadControllerStandIn::isReady)
                .map(p -> p.getStatus().getPodIP())
                .findFirst()
                .map(ip -> "http://" + ip + ":" + matcher.group(3) + matcher.group(4))
                .orElse(url);
    }

    /**
     * Reports the end of a benchmark pod. While the API server cannot be reached it keeps trying (for a bounded time),
     * as a kubelet keeps a pod's final status until the API server takes it, so a run that ends during an API-server
     * outage is not lost.
     */
    private void finish(Pod pod, int exitCode, String message) {
        String finishedAt = WorkloadControllerStandIn.now();
        long deadline = System.nanoTime() + FINAL_STATUS_PATIENCE.toNanos();
        while (true) {
            try {
                writeFinalStatus(pod, exitCode, message, finishedAt);
                return;
            } catch (KubernetesClientException e) {
                if (closed || !unreachable(e) || System.nanoTime() > deadline) {
                    throw e;
                }
                LOG.debugf(
                        "pod %s: API server unreachable, final status kept: %s",
                        pod.getMetadata().getName(), e);
            }
            try {
                Thread.sleep(FINAL_STATUS_RETRY.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** No HTTP answer at all (connection refused or reset), as opposed to the API server refusing the write. */
    private static boolean unreachable(KubernetesClientException e) {
        if (e.getCode() > 0) {
            return false;
        }
        for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof IOException) {
                return true;
            }
        }
        return false;
    }

    private void writeFinalStatus(Pod pod, int exitCode, String message, String now) {
        updateStatus(pod, current -> {
            PodStatus status = current.getStatus();
            status.setPhase(exitCode == 0 ? "Succeeded" : "Failed");
            status.getConditions().forEach(c -> {
                if (List.of("Ready", "ContainersReady", "PodReadyToStartContainers")
                        .contains(c.getType())) {
                    c.setStatus("False");
                    c.setReason("PodCompleted");
                    c.setLastTransitionTime(now);
                }
            });
            status.getContainerStatuses().forEach(c -> {
                c.setReady(false);
                c.setStarted(false);
                c.setState(new ContainerStateBuilder()
                        .withNewTerminated()
                        .withExitCode(exitCode)
                        .withReason(exitCode == 0 ? "Completed" : "Error")
                        .withMessage(message)
                        .withContainerID(c.getContainerID())
                        .withStartedAt(status.getStartTime())
                        .withFinishedAt(now)
                        .endTerminated()
                        .build());
            });
            return current;
        });
    }

    /** What FallbackToLogsOnError keeps: the end of the log, at most 4096 bytes. */
    private static String tail(String log) {
        return log.length() <= 4096 ? log : log.substring(log.length() - 4096);
    }

    /** The status a kubelet reports once the pod's containers run: IPs, container statuses and all pod conditions. */
    private static Pod withRunningStatus(Pod pod, String address, boolean containerReady) {
        String now = WorkloadControllerStandIn.now();
        PodStatus status = pod.getStatus() == null ? new PodStatus() : pod.getStatus();
        status.setPhase("Running");
        status.setPodIP(address);
        status.setPodIPs(List.of(new PodIP(address)));
        status.setHostIP(HOST_IP);
        status.setHostIPs(List.of(new HostIP(HOST_IP)));
        status.setStartTime(now);
        List<ContainerStatus> containers = new ArrayList<>();
        for (Container container : pod.getSpec().getContainers()) {
            containers.add(new ContainerStatusBuilder()
                    .withName(container.getName())
                    .withImage(container.getImage())
                    .withImageID(container.getImage())
                    .withContainerID("containerd://" + containerId(pod, container))
                    .withReady(containerReady)
                    .withStarted(true)
                    .withRestartCount(0)
                    .withState(new ContainerStateBuilder()
                            .withNewRunning()
                            .withStartedAt(now)
                            .endRunning()
                            .build())
                    .build());
        }
        status.setContainerStatuses(containers);
        List<PodCondition> conditions = new ArrayList<>(
                status.getConditions() == null
                        ? List.of()
                        : status.getConditions().stream()
                                .filter(c -> !List.of("PodReadyToStartContainers", "Initialized")
                                        .contains(c.getType()))
                                .toList());
        conditions.add(condition("PodReadyToStartContainers", true, null, now));
        conditions.add(condition("Initialized", true, null, now));
        if (conditions.stream().noneMatch(c -> "PodScheduled".equals(c.getType()))) {
            conditions.add(condition("PodScheduled", true, null, now));
        }
        status.setConditions(conditions);
        pod.setStatus(status);
        withReadiness(pod, containerReady);
        return pod;
    }

    /** Recomputes ContainersReady and Ready the way the kubelet does, keeping every other condition (the gates). */
    private static void withReadiness(Pod pod, boolean containerReady) {
        PodStatus status = pod.getStatus();
        String now = WorkloadControllerStandIn.now();
        boolean ready = containerReady && gatesPassed(pod);
        List<PodCondition> conditions = new ArrayList<>(status.getConditions().stream()
                .filter(c -> !List.of("Ready", "ContainersReady").contains(c.getType()))
                .toList());
        conditions.add(condition("ContainersReady", containerReady, containerReady ? null : "ContainersNotReady", now));
        conditions.add(condition(
                "Ready", ready, ready ? null : containerReady ? "ReadinessGatesNotReady" : "ContainersNotReady", now));
        status.setConditions(conditions);
        status.getContainerStatuses().forEach(c -> c.setReady(containerReady));
    }

    private static boolean terminated(Pod pod) {
        return pod.getStatus() != null
                && List.of("Succeeded", "Failed").contains(pod.getStatus().getPhase());
    }

    private static boolean gatesPassed(Pod pod) {
        List<PodReadinessGate> gates = pod.getSpec().getReadinessGates();
        return gates == null || gates.stream().allMatch(g -> conditionTrue(pod.getStatus(), g.getConditionType()));
    }

    private static boolean conditionTrue(PodStatus status, String type) {
        return status != null
                && status.getConditions() != null
                && status.getConditions().stream()
                        .anyMatch(c -> type.equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private static PodCondition condition(String type, boolean value, String reason, String now) {
        return new PodConditionBuilder()
                .withType(type)
                .withStatus(value ? "True" : "False")
                .withReason(reason)
                .withLastTransitionTime(now)
                .withLastProbeTime(null)
                .build();
    }

    /**
     * Writes the pod's status with the resourceVersion it was read at, as the kubelet does: a conflict (someone else,
     * e.g. the operator opening a readiness gate, wrote in between) re-reads the pod and applies the change again.
     */
    private void updateStatus(Pod pod, UnaryOperator<Pod> change) {
        var resource = client.pods()
                .inNamespace(pod.getMetadata().getNamespace())
                .withName(pod.getMetadata().getName());
        for (int attempt = 1; ; attempt++) {
            Pod current = resource.get();
            if (current == null
                    || !pod.getMetadata().getUid().equals(current.getMetadata().getUid())) {
                return;
            }
            try {
                client.resource(change.apply(current)).updateStatus();
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT || attempt == STATUS_WRITE_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    /** The containers have stopped: removes the pod for good, as the kubelet does at the end of a graceful deletion. */
    private void confirmDeletion(Pod pod) {
        try {
            client.pods()
                    .inNamespace(pod.getMetadata().getNamespace())
                    .withName(pod.getMetadata().getName())
                    .withGracePeriod(0)
                    .delete();
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
                throw e;
            }
        }
    }

    private String allocateAddress() {
        int n = nextAddress.getAndIncrement();
        return "127.0." + (n / 254) + "." + (n % 254 + 1);
    }

    private void stop(String uid) {
        started.remove(uid);
        Future<?> crashLoop = crashLoops.remove(uid);
        if (crashLoop != null) {
            crashLoop.cancel(false);
        }
        Future<?> benchmark = benchmarkRuns.remove(uid);
        if (benchmark != null) {
            benchmark.cancel(true);
        }
        SglangSimulator simulator = simulators.remove(uid);
        if (simulator != null) {
            simulator.close();
        }
    }

    private static String containerId(Pod pod, Container container) {
        return UUID.nameUUIDFromBytes(
                        (pod.getMetadata().getUid() + "/" + container.getName()).getBytes(StandardCharsets.UTF_8))
                .toString()
                .replace("-", "");
    }

    private static List<String> commandLine(Container container) {
        List<String> line = new ArrayList<>();
        if (container.getCommand() != null) {
            line.addAll(container.getCommand());
        }
        if (container.getArgs() != null) {
            line.addAll(container.getArgs());
        }
        return line;
    }

    private static Optional<String> flag(List<String> args, String name) {
        int index = args.indexOf(name);
        return index >= 0 && index + 1 < args.size() ? Optional.of(args.get(index + 1)) : Optional.empty();
    }

    private static ThreadFactory daemon(String name) {
        return r -> {
            Thread thread = new Thread(r, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    @Override
    public void close() {
        closed = true;
        if (informer != null) {
            informer.close();
        }
        loop.shutdownNow();
        benchmarks.shutdownNow();
        List.copyOf(simulators.keySet()).forEach(this::stop);
    }
}
