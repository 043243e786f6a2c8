package dev.llmops.serving.demo;

import dev.llmops.serving.simulator.SglangSimulator;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodReadinessGate;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;

/**
 * Plays the kubelet (and the cluster DNS) for pods that no real node runs. An SGLang pod gets an SGLang simulator on
 * an address of its own (127.0.0.2, 127.0.0.3, ...) at the pod's port, so whoever probes the pod IP talks to a real
 * HTTP server; its container turns ready when the simulator has loaded, and the pod turns Ready only when every
 * readiness gate is True, as on a real node. A benchmark pod runs the real runner against the service it names and
 * ends with the runner's summary as its termination message. Other pods just run.
 */
public final class KubeletStandIn implements AutoCloseable {

    /** Runs the {@code bench} command line of a benchmark pod in this process, writing its output to the pod's log. */
    @FunctionalInterface
    public interface BenchmarkLauncher {
        int run(List<String> args, PrintWriter log);
    }

    private static final Logger LOG = Logger.getLogger(KubeletStandIn.class);
    private static final Pattern SERVICE_URL = Pattern.compile("^http://([a-z0-9-]+)\\.([a-z0-9-]+)\\.svc(?:\\.cluster\\.local)?:(\\d+)(.*)$");
    private static final String SUMMARY_FILE = "--summary-file";

    private final KubernetesClient client;
    private volatile boolean closed;
    private final Predicate<Pod> scope;
    private final Function<Pod, SimulatedServerProfile> profiles;
    private final BenchmarkLauncher launcher;
    private final Map<String, SglangSimulator> simulators = new ConcurrentHashMap<>();
    private final Map<String, String> started = new ConcurrentHashMap<>();
    private final AtomicInteger nextAddress = new AtomicInteger(2);
    private final ExecutorService benchmarks = Executors.newCachedThreadPool(daemon("benchmark-pod"));
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(daemon("kubelet-stand-in"));

    /**
     * @param scope    the pods this stand-in runs (e.g. those bound to its fake nodes); the others are left alone
     * @param profiles how the simulated server of an SGLang pod behaves
     * @param launcher runs benchmark pods
     */
    public KubeletStandIn(KubernetesClient client, Predicate<Pod> scope, Function<Pod, SimulatedServerProfile> profiles,
            BenchmarkLauncher launcher) {
        this.client = client;
        this.scope = scope;
        this.profiles = profiles;
        this.launcher = launcher;
    }

    public KubeletStandIn start() {
        loop.scheduleWithFixedDelay(this::syncSafely, 0, 200, TimeUnit.MILLISECONDS);
        return this;
    }

    /** The simulator serving a pod, for tests and demos that change its behaviour while it runs. */
    public Optional<SglangSimulator> simulator(String namespace, String podName) {
        return simulators.entrySet().stream()
                .filter(e -> e.getKey().equals(namespace + "/" + podName))
                .map(Map.Entry::getValue)
                .findFirst();
    }

    /** Every running simulator, keyed by namespace/pod. */
    public Map<String, SglangSimulator> simulators() {
        return Map.copyOf(simulators);
    }

    private void syncSafely() {
        try {
            List<Pod> pods = client.pods().inAnyNamespace().list().getItems().stream().filter(scope).toList();
            List<String> alive = pods.stream().map(KubeletStandIn::key).toList();
            simulators.keySet().stream().filter(k -> !alive.contains(k)).toList().forEach(this::stopSimulator);
            started.keySet().retainAll(alive);
            for (Pod pod : pods) {
                if (!started.containsKey(key(pod))) {
                    started.put(key(pod), pod.getMetadata().getUid());
                    startPod(pod);
                } else if (simulators.containsKey(key(pod))) {
                    reportServerStatus(pod);
                }
            }
        } catch (RuntimeException e) {
            if (!closed) {
                LOG.warnf(e, "kubelet stand-in: %s", e.getMessage());
            }
        }
    }

    private void startPod(Pod pod) {
        Container container = pod.getSpec().getContainers().get(0);
        List<String> commandLine = commandLine(container);
        int bench = commandLine.indexOf("bench");
        if (commandLine.stream().anyMatch(a -> a.contains("sglang.launch_server")) && flag(commandLine, "--port").isPresent()) {
            startServer(pod, commandLine);
        } else if (bench >= 0) {
            startBenchmark(pod, commandLine.subList(bench + 1, commandLine.size()));
        } else {
            writeStatus(pod, runningStatus(pod, "127.0.0.1", true));
        }
    }

    private void startServer(Pod pod, List<String> args) {
        SimulatedServerProfile profile = profiles.apply(pod);
        String address = allocateAddress();
        SglangSimulator simulator = SglangSimulator.builder()
                .host(address)
                .port(Integer.parseInt(flag(args, "--port").orElseThrow()))
                .model(flag(args, "--served-model-name").or(() -> flag(args, "--model-path")).orElse("model"))
                .speculativeAlgorithm(flag(args, "--speculative-algorithm").orElse(null))
                .ttft(profile.ttft())
                .tokenDelay(profile.stepDelay().dividedBy(profile.tokensPerStep()))
                .tokensPerChunk(profile.tokensPerStep())
                .maxRunning(profile.maxRunning())
                .loading(profile.loading())
                .fault(profile.fault())
                .recordGroundTruth(false)
                .start();
        simulators.put(key(pod), simulator);
        LOG.debugf("pod %s serves at %s:%d", key(pod), address, simulator.port());
        writeStatus(pod, runningStatus(pod, address, false));
    }

    /** Keeps the container's readiness (the simulator has loaded) and the pod's Ready (containers and gates) current. */
    private void reportServerStatus(Pod pod) {
        SglangSimulator simulator = simulators.get(key(pod));
        boolean containerReady = !simulator.isLoading();
        PodStatus current = pod.getStatus();
        boolean gatesPassed = gatesPassed(pod);
        boolean shownReady = conditionTrue(current, "Ready");
        boolean shownContainersReady = conditionTrue(current, "ContainersReady");
        if (shownContainersReady != containerReady || shownReady != (containerReady && gatesPassed)) {
            client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).editStatus(p -> {
                p.setStatus(withReadiness(p, containerReady));
                return p;
            });
        }
    }

    private void startBenchmark(Pod pod, List<String> benchArgs) {
        writeStatus(pod, runningStatus(pod, allocateAddress(), true));
        benchmarks.submit(() -> {
            Path summary = null;
            try {
                summary = Files.createTempFile("benchmark-summary", ".json");
                StringWriter log = new StringWriter();
                int exitCode = launcher.run(resolveArgs(pod, benchArgs, summary), new PrintWriter(log, true));
                String message = Files.readString(summary, StandardCharsets.UTF_8);
                finish(pod, exitCode, message.isEmpty() && exitCode != 0 ? tail(log.toString()) : message);
            } catch (Exception | LinkageError e) {
                LOG.warnf(e, "benchmark pod %s failed", key(pod));
                finish(pod, 1, String.valueOf(e.getMessage()));
            } finally {
                if (summary != null) {
                    try {
                        Files.deleteIfExists(summary);
                    } catch (IOException ignored) {
                        // a temp file left behind is harmless
                    }
                }
            }
        });
    }

    /** Points the runner at the pod behind the service URL (the cluster DNS) and at a file instead of /dev/termination-log. */
    private List<String> resolveArgs(Pod pod, List<String> args, Path summary) {
        List<String> resolved = new ArrayList<>(args);
        for (int i = 0; i < resolved.size() - 1; i++) {
            if (SUMMARY_FILE.equals(resolved.get(i))) {
                resolved.set(i + 1, summary.toString());
            }
            if ("--url".equals(resolved.get(i))) {
                resolved.set(i + 1, resolveServiceUrl(pod.getMetadata().getNamespace(), resolved.get(i + 1)));
            }
        }
        if (!resolved.contains(SUMMARY_FILE)) {
            resolved.add(SUMMARY_FILE);
            resolved.add(summary.toString());
        }
        return resolved;
    }

    private String resolveServiceUrl(String namespace, String url) {
        Matcher matcher = SERVICE_URL.matcher(url);
        if (!matcher.matches()) {
            return url;
        }
        Service service = client.services().inNamespace(matcher.group(2)).withName(matcher.group(1)).get();
        if (service == null || service.getSpec().getSelector() == null) {
            return url;
        }
        return client.pods().inNamespace(matcher.group(2)).withLabels(service.getSpec().getSelector()).list().getItems().stream()
                .filter(WorkloadControllerStandIn::isReady)
                .map(p -> p.getStatus().getPodIP())
                .findFirst()
                .map(ip -> "http://" + ip + ":" + matcher.group(3) + matcher.group(4))
                .orElse(url);
    }

    private void finish(Pod pod, int exitCode, String message) {
        String now = WorkloadControllerStandIn.now();
        client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).editStatus(p -> {
            PodStatus status = p.getStatus();
            status.setPhase(exitCode == 0 ? "Succeeded" : "Failed");
            status.getConditions().forEach(c -> {
                if (List.of("Ready", "ContainersReady").contains(c.getType())) {
                    c.setStatus("False");
                    c.setReason("PodCompleted");
                }
            });
            status.setContainerStatuses(List.of(new ContainerStatusBuilder(status.getContainerStatuses().get(0))
                    .withReady(false).withStarted(false)
                    .withState(new ContainerStateBuilder().withNewTerminated()
                            .withExitCode(exitCode).withReason(exitCode == 0 ? "Completed" : "Error")
                            .withMessage(message).withStartedAt(status.getStartTime()).withFinishedAt(now)
                            .endTerminated().build())
                    .build()));
            return p;
        });
    }

    /** What FallbackToLogsOnError keeps: the end of the log, at most 4096 bytes. */
    private static String tail(String log) {
        return log.length() <= 4096 ? log : log.substring(log.length() - 4096);
    }

    private PodStatus runningStatus(Pod pod, String address, boolean containerReady) {
        String now = WorkloadControllerStandIn.now();
        Container container = pod.getSpec().getContainers().get(0);
        ContainerStatus containerStatus = new ContainerStatusBuilder()
                .withName(container.getName()).withImage(container.getImage()).withImageID(container.getImage())
                .withReady(containerReady).withStarted(true).withRestartCount(0)
                .withState(new ContainerStateBuilder().withNewRunning().withStartedAt(now).endRunning().build())
                .build();
        PodStatus status = new PodStatus();
        status.setPhase("Running");
        status.setPodIP(address);
        status.setHostIP("127.0.0.1");
        status.setStartTime(now);
        status.setContainerStatuses(List.of(containerStatus));
        List<PodCondition> conditions = new ArrayList<>();
        for (String type : List.of("PodScheduled", "Initialized")) {
            conditions.add(condition(type, true, null, now));
        }
        status.setConditions(conditions);
        Pod withStatus = new io.fabric8.kubernetes.api.model.PodBuilder(pod).withStatus(status).build();
        return withReadiness(withStatus, containerReady);
    }

    /** Recomputes ContainersReady and Ready the way the kubelet does, keeping every other condition (the gates). */
    private static PodStatus withReadiness(Pod pod, boolean containerReady) {
        PodStatus status = pod.getStatus();
        String now = WorkloadControllerStandIn.now();
        boolean ready = containerReady && gatesPassed(pod);
        List<PodCondition> conditions = new ArrayList<>(status.getConditions().stream()
                .filter(c -> !List.of("Ready", "ContainersReady").contains(c.getType())).toList());
        conditions.add(condition("ContainersReady", containerReady, containerReady ? null : "ContainersNotReady", now));
        conditions.add(condition("Ready", ready, ready ? null : containerReady ? "ReadinessGatesNotReady" : "ContainersNotReady", now));
        status.setConditions(conditions);
        status.getContainerStatuses().forEach(c -> c.setReady(containerReady));
        return status;
    }

    private static boolean gatesPassed(Pod pod) {
        List<PodReadinessGate> gates = pod.getSpec().getReadinessGates();
        return gates == null || gates.stream().allMatch(g -> conditionTrue(pod.getStatus(), g.getConditionType()));
    }

    private static boolean conditionTrue(PodStatus status, String type) {
        return status != null && status.getConditions() != null
                && status.getConditions().stream().anyMatch(c -> type.equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private static PodCondition condition(String type, boolean value, String reason, String now) {
        return new PodConditionBuilder().withType(type).withStatus(value ? "True" : "False").withReason(reason)
                .withLastTransitionTime(now).withLastProbeTime(null).build();
    }

    private void writeStatus(Pod pod, PodStatus status) {
        client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).editStatus(p -> {
            p.setStatus(status);
            return p;
        });
    }

    private String allocateAddress() {
        int n = nextAddress.getAndIncrement();
        return "127.0." + (n / 254) + "." + (n % 254 + 1);
    }

    private void stopSimulator(String key) {
        SglangSimulator simulator = simulators.remove(key);
        if (simulator != null) {
            simulator.close();
        }
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

    private static String key(Pod pod) {
        return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread thread = new Thread(r, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    @Override
    public void close() {
        closed = true;
        loop.shutdownNow();
        benchmarks.shutdownNow();
        List.copyOf(simulators.keySet()).forEach(this::stopSimulator);
    }
}
