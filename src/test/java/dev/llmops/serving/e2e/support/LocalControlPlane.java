package dev.llmops.serving.e2e.support;

import static org.awaitility.Awaitility.await;

import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.demo.KubeletStandIn;
import dev.llmops.serving.demo.SimulatedServerProfile;
import dev.llmops.serving.simulator.Fault;
import io.fabric8.kubeapitest.KubeAPIServer;
import io.fabric8.kubeapitest.KubeAPIServerConfigBuilder;
import io.fabric8.kubeapitest.process.KubeAPIServerProcess;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * etcd and kube-apiserver through kube-api-test, plus the kube-controller-manager and kube-scheduler it does not run,
 * the fake GPU fleet and a kubelet stand-in for it: a control plane with garbage collection, Deployment/ReplicaSet/Job
 * controllers and real scheduling, whose pods on the fleet run simulated SGLang servers or the real benchmark runner,
 * and whose pod logs the API server reads from the stand-in through the fleet's kubelet log endpoint.
 * A benchmark that brings its own kubelet starts the plane without the stand-in, so one kubelet alone runs the fleet.
 */
public final class LocalControlPlane implements AutoCloseable {

    /**
     * Controllers of kube-controller-manager that are off: without kubelets every node would be marked unreachable,
     * tainted and have its pods evicted.
     */
    static final List<String> DISABLED_CONTROLLERS = List.of("node-lifecycle-controller", "taint-eviction-controller");

    /** The stand-in's name in the pods' managed fields, where it writes their status. */
    public static final String STAND_IN_MANAGER = "kubelet-stand-in";

    private static final Duration COMPONENT_START_TIMEOUT = Duration.ofMinutes(2);

    /**
     * A quick SGLang server: loaded in a second, first token in 30 ms, then 100 tokens/s for one stream, each step 20 %
     * slower per extra running request (as a GPU's decode step grows with the batch), so the concurrency that meets a
     * TPOT limit is known: {@code 10 ms × (1 + 0.2 × (streams − 1))}.
     */
    public static final SimulatedServerProfile SIMULATED_SERVER = new SimulatedServerProfile(
            Duration.ofMillis(30), Duration.ofMillis(10), null, 32, 0.2, Duration.ofSeconds(1), Fault.NONE);

    private final KubeAPIServer apiServer;
    private final KubernetesClient client;
    private final Path kubeconfig;
    private final ApiAudit audit;
    private final List<ComponentProcess> components;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile KubeletStandIn kubelet;
    private volatile KubernetesClient kubeletClient;
    private volatile KubeletLogServer logServer;
    private final Map<String, SimulatedServerProfile> serverProfiles = new ConcurrentHashMap<>();
    /** The API server's command line, kept when it is first stopped, to start it again with the same flags and port. */
    private List<String> apiServerCommand;
    /** The API server started again after an outage; null while kube-api-test's own process serves. */
    private ComponentProcess restartedApiServer;

    private volatile boolean apiServerDown;
    /** Restarts controller-manager and scheduler after they exit on a lost lease, as the kubelet restarts them. */
    private ScheduledExecutorService componentRestarter;

    private LocalControlPlane(
            KubeAPIServer apiServer,
            KubernetesClient client,
            Path kubeconfig,
            ApiAudit audit,
            List<ComponentProcess> components) {
        this.apiServer = apiServer;
        this.client = client;
        this.kubeconfig = kubeconfig;
        this.audit = audit;
        this.components = components;
    }

    static LocalControlPlane start(ControlPlaneBinaries binaries, Path workDirectory) {
        return start(binaries, workDirectory, true);
    }

    private static LocalControlPlane start(ControlPlaneBinaries binaries, Path workDirectory, boolean standIn) {
        KubeAPIServer apiServer = new KubeAPIServer(KubeAPIServerConfigBuilder.anAPIServerConfig()
                .withTestDir(binaries.kubeApiTestDir().toString())
                .withApiServerVersion(binaries.version())
                .withOfflineMode(true)
                .withUpdateKubeConfig(false)
                .withStartupTimeout((int) COMPONENT_START_TIMEOUT.toMillis())
                // Serve on loopback only, independent of the host's network: no endpoints for the kubernetes Service,
                // since no pod runs to call it.
                .withApiServerFlag("--bind-address", "127.0.0.1")
                .withApiServerFlag("--advertise-address", "127.0.0.1")
                .withApiServerFlag("--endpoint-reconciler-type", "none")
                // Every refused call is recorded, whatever the caller logs: the suite fails on a 403 (ApiAudit).
                .withApiServerFlag(
                        "--audit-policy-file",
                        ApiAudit.writePolicy(workDirectory).toString())
                .withApiServerFlag(
                        "--audit-log-path", ApiAudit.logPath(workDirectory).toString())
                .build());
        apiServer.start();
        Path kubeconfig = writeKubeconfig(apiServer.getKubeConfigYaml(), workDirectory);
        KubernetesClient client = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(apiServer.getKubeConfigYaml()))
                .build();
        Path logs = workDirectory.resolve("logs");
        List<ComponentProcess> components = List.of(
                ComponentProcess.start(
                        binaries.path("kube-controller-manager"),
                        controllerManagerFlags(kubeconfig, binaries.kubeApiTestDir()),
                        logs),
                ComponentProcess.start(binaries.path("kube-scheduler"), componentFlags(kubeconfig), logs));
        LocalControlPlane controlPlane = new LocalControlPlane(
                apiServer, client, kubeconfig, new ApiAudit(ApiAudit.logPath(workDirectory)), components);
        // Stops the processes also when the test JVM is terminated before the run ends.
        Runtime.getRuntime().addShutdownHook(new Thread(controlPlane::close));
        try {
            controlPlane.awaitLeader("kube-controller-manager");
            controlPlane.awaitLeader("kube-scheduler");
            if (standIn) {
                controlPlane.kubeletClient = controlPlane.clientAs(STAND_IN_MANAGER);
                controlPlane.kubelet = new KubeletStandIn(
                        controlPlane.kubeletClient,
                        FakeGpuNodes::boundToFleet,
                        controlPlane::profileOf,
                        Podman.chosenForE2e() ? new RunnerContainer() : new RunnerProcess());
                controlPlane.logServer = KubeletLogServer.start(
                        controlPlane.kubelet.logs(),
                        binaries.kubeApiTestDir().resolve("apiserver.crt"),
                        binaries.kubeApiTestDir().resolve("apiserver.key"));
                FakeGpuNodes.register(client, OptionalInt.of(controlPlane.logServer.port()));
                controlPlane.kubelet.start();
            } else {
                FakeGpuNodes.register(client, OptionalInt.empty());
            }
        } catch (RuntimeException e) {
            controlPlane.close();
            throw e;
        }
        return controlPlane;
    }

    /** For benchmarks outside the suite: the control plane of the pinned binaries, its files under workDirectory. */
    public static LocalControlPlane start(Path workDirectory) {
        return start(ControlPlaneBinaries.locate(), workDirectory);
    }

    /** As {@link #start(Path)}, but no kubelet runs the fleet's pods: for a benchmark whose own kubelet runs them. */
    public static LocalControlPlane startWithoutKubelet(Path workDirectory) {
        return start(ControlPlaneBinaries.locate(), workDirectory, false);
    }

    public KubernetesClient client() {
        return client;
    }

    /**
     * A client of its own whose user agent names its writes in the objects' managed fields, so a kubelet's status
     * writes can be told from another's; the caller closes it.
     */
    public KubernetesClient clientAs(String manager) {
        return new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder(client.getConfiguration())
                        .withUserAgent(manager)
                        .build())
                .build();
    }

    /**
     * How the simulated servers of a ModelServer's pods behave from now on (the others: {@link #SIMULATED_SERVER}), so
     * a test can compare servers of known, different speeds.
     */
    public void simulate(String namespace, String modelServer, SimulatedServerProfile profile) {
        serverProfiles.put(namespace + "/" + modelServer, profile);
    }

    /**
     * How the simulated server of the pods named {@code podName} behaves from their next start on, whatever their
     * ModelServer's profile: one pod of a group failing alone, also after its controller recreates it under that name.
     * A null profile gives them back their ModelServer's.
     */
    public void simulatePod(String namespace, String podName, SimulatedServerProfile profile) {
        String key = namespace + "/pod/" + podName;
        if (profile == null) {
            serverProfiles.remove(key);
        } else {
            serverProfiles.put(key, profile);
        }
    }

    private SimulatedServerProfile profileOf(Pod pod) {
        String namespace = pod.getMetadata().getNamespace();
        SimulatedServerProfile ownProfile =
                serverProfiles.get(namespace + "/pod/" + pod.getMetadata().getName());
        if (ownProfile != null) {
            return ownProfile;
        }
        String modelServer = pod.getMetadata().getLabels() == null
                ? null
                : pod.getMetadata().getLabels().get(Labels.MODEL_SERVER);
        return serverProfiles.getOrDefault(namespace + "/" + modelServer, SIMULATED_SERVER);
    }

    public Path kubeconfig() {
        return kubeconfig;
    }

    /** The API server's audit of the calls made by service accounts, which the operators under test run as. */
    public ApiAudit audit() {
        return audit;
    }

    /**
     * Stops kube-apiserver alone with SIGKILL, as a crash would; etcd keeps running. Clients get "connection refused"
     * until {@link #startApiServer()}. Controller-manager and scheduler, which exit when they cannot renew their
     * leases, are restarted from then on whenever they exit while the API server is up, as the kubelet restarts static
     * pods.
     */
    public synchronized void stopApiServer() {
        if (apiServerDown) {
            throw new IllegalStateException("the API server is already stopped");
        }
        apiServerDown = true;
        if (restartedApiServer != null) {
            restartedApiServer.kill();
            return;
        }
        // kube-api-test takes etcd down too when its API server ends unexpectedly: its own stop marks it expected.
        KubeAPIServerProcess original = field(apiServer, "kubeApiServerProcess", KubeAPIServerProcess.class);
        Process process = field(original, "apiServerProcess", Process.class);
        List<String> command = new ArrayList<>();
        command.add(process.info().command().orElseThrow());
        command.addAll(List.of(process.info().arguments().orElseThrow()));
        apiServerCommand = List.copyOf(command);
        original.stopApiServer();
        componentRestarter = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "control-plane-component-restarter");
            thread.setDaemon(true);
            return thread;
        });
        componentRestarter.scheduleWithFixedDelay(this::restartExitedComponents, 1, 1, TimeUnit.SECONDS);
    }

    /**
     * Starts kube-apiserver again with the command line (flags, port, certificates) it had, and waits until it answers
     * {@code /readyz}; returns that instant, when the API is back for its clients.
     */
    public synchronized Instant startApiServer() {
        if (!apiServerDown) {
            throw new IllegalStateException("the API server is running");
        }
        if (restartedApiServer == null) {
            restartedApiServer = ComponentProcess.start(
                    Path.of(apiServerCommand.get(0)),
                    apiServerCommand.subList(1, apiServerCommand.size()),
                    kubeconfig.resolveSibling("logs"));
        } else {
            restartedApiServer.restartIfExited();
        }
        Config probeConfig = new ConfigBuilder(client.getConfiguration())
                .withRequestRetryBackoffLimit(0)
                .withRequestTimeout((int) Duration.ofSeconds(2).toMillis())
                .build();
        try (KubernetesClient probe =
                new KubernetesClientBuilder().withConfig(probeConfig).build()) {
            await("kube-apiserver ready again")
                    .atMost(COMPONENT_START_TIMEOUT)
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> {
                        restartedApiServer.assertAlive();
                        return "ok".equals(readyz(probe));
                    });
        }
        apiServerDown = false;
        return Instant.now();
    }

    /**
     * Freezes kube-apiserver (SIGSTOP) for the given time, then lets it go on (SIGCONT): a short outage in which
     * connections hang instead of being refused, and that needs no restart, so its length is exactly the pause.
     */
    public synchronized void pauseApiServer(Duration pause) {
        if (apiServerDown) {
            throw new IllegalStateException("the API server is stopped");
        }
        long pid = restartedApiServer != null
                ? restartedApiServer.pid()
                : field(
                                field(apiServer, "kubeApiServerProcess", KubeAPIServerProcess.class),
                                "apiServerProcess",
                                Process.class)
                        .pid();
        signal("STOP", pid);
        try {
            Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            signal("CONT", pid);
        }
    }

    private static void signal(String signal, long pid) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
                    .redirectErrorStream(true)
                    .start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + pid + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending SIG" + signal, e);
        }
    }

    private static String readyz(KubernetesClient probe) {
        try {
            return probe.raw("/readyz");
        } catch (KubernetesClientException e) {
            return null;
        }
    }

    private void restartExitedComponents() {
        if (!apiServerDown && !closed.get()) {
            components.forEach(ComponentProcess::restartIfExited);
        }
    }

    private static <T> T field(Object owner, String name, Class<T> type) {
        try {
            Field field = owner.getClass().getDeclaredField(name);
            field.setAccessible(true);
            return type.cast(field.get(owner));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(
                    "kube-api-test changed: no field " + name + " in "
                            + owner.getClass().getName(),
                    e);
        }
    }

    private static List<String> componentFlags(Path kubeconfig) {
        return List.of(
                "--kubeconfig=" + kubeconfig,
                "--authentication-kubeconfig=" + kubeconfig,
                "--authorization-kubeconfig=" + kubeconfig,
                "--secure-port=0",
                "--leader-elect=true");
    }

    private static List<String> controllerManagerFlags(Path kubeconfig, Path certificates) {
        List<String> flags = new ArrayList<>(componentFlags(kubeconfig));
        flags.add("--controllers=*,"
                + String.join(
                        ",", DISABLED_CONTROLLERS.stream().map(c -> "-" + c).toList()));
        // kube-api-test signs service account tokens with the API server's key, and its certificate is its own CA.
        flags.add("--service-account-private-key-file=" + certificates.resolve("apiserver.key"));
        flags.add("--root-ca-file=" + certificates.resolve("apiserver.crt"));
        return flags;
    }

    /** Waits until the component holds its leader lease, that is, runs its controllers or scheduling loop. */
    private void awaitLeader(String component) {
        await(component + " to take its leader lease")
                .atMost(COMPONENT_START_TIMEOUT)
                .pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    components.forEach(ComponentProcess::assertAlive);
                    Lease lease = client.leases()
                            .inNamespace("kube-system")
                            .withName(component)
                            .get();
                    return lease != null && lease.getSpec().getHolderIdentity() != null;
                });
    }

    private static Path writeKubeconfig(String yaml, Path workDirectory) {
        try {
            Files.createDirectories(workDirectory);
            return Files.writeString(workDirectory.resolve("kubeconfig"), yaml);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (kubelet != null) {
            kubelet.close();
        }
        if (logServer != null) {
            logServer.close();
        }
        if (kubeletClient != null) {
            kubeletClient.close();
        }
        if (componentRestarter != null) {
            componentRestarter.shutdownNow();
        }
        components.forEach(ComponentProcess::close);
        client.close();
        if (restartedApiServer != null) {
            restartedApiServer.close();
        }
        apiServer.stop();
    }
}
