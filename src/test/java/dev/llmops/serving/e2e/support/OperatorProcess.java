package dev.llmops.serving.e2e.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmops.serving.helm.RenderedChart;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The packaged operator installed the way the Helm chart installs it: the chart is rendered with the given values, its
 * ServiceAccount and RBAC are applied, and the operator gets the environment of the chart's Deployment and a kubeconfig
 * holding a token of that ServiceAccount, so it can do exactly what the chart grants it. It runs as the built image in
 * podman, with the pod's user, security context, memory limit and emptyDir (see {@link Podman#optionsOf}); or, chosen
 * with {@code -De2e.runtime=process} on a machine without a container runtime, as a child JVM of the packaged
 * jar with the Dockerfile's JVM flags and the memory limit given to the JVM.
 */
public final class OperatorProcess implements AutoCloseable {

    private static final Path JAR = ProjectPaths.resolve("target/quarkus-app/quarkus-run.jar");
    /** Where the container finds its kubeconfig, mounted read-only. */
    private static final String CONTAINER_KUBECONFIG = "/etc/llmops/kubeconfig";

    private static final Path DOCKERFILE = ProjectPaths.resolve("Dockerfile");
    /** The container's writable directory (an emptyDir in the chart), mapped onto a directory of the test run. */
    private static final String CONTAINER_TMP = "/tmp";

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    private static final long TOKEN_SECONDS = 3600;
    /** The kubelet's restart delays of a container that keeps exiting: 10 s, doubled each time, at most 5 min. */
    private static final Duration FIRST_RESTART_BACKOFF = Duration.ofSeconds(10);

    private static final Duration MAX_RESTART_BACKOFF = Duration.ofMinutes(5);
    /** What the API client logs when the API server closed a connection under a request. */
    public static final String CONNECTION_DROPPED = "Connection was closed";
    /** JOSDK's counter of reconciliations that ended without an exception, per controller, in /q/metrics. */
    private static final String RECONCILIATIONS_SUCCEEDED = "operator_sdk_reconciliations_success_total";

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final E2eCluster cluster;
    private final int httpPort;
    private final List<String> command;
    private final Map<String, String> environment;
    private final Path workDirectory;
    private final Path log;
    private final String namespace;
    private final String serviceAccount;
    private final List<HasMetadata> clusterScoped;
    private final String podName;
    /** The container's name in podman; null when the operator runs as a process. */
    private final String containerName;

    private final List<Instant> exits = new CopyOnWriteArrayList<>();
    private volatile Process process;
    private volatile boolean closing;
    private Thread restarter;

    private OperatorProcess(
            E2eCluster cluster,
            int httpPort,
            List<String> command,
            Map<String, String> environment,
            Path workDirectory,
            String namespace,
            String serviceAccount,
            List<HasMetadata> clusterScoped,
            String podName,
            String containerName) {
        this.podName = podName;
        this.containerName = containerName;
        this.cluster = cluster;
        this.namespace = namespace;
        this.serviceAccount = serviceAccount;
        this.httpPort = httpPort;
        this.command = command;
        this.environment = environment;
        this.workDirectory = workDirectory;
        this.log = workDirectory.resolve("operator.log");
        this.clusterScoped = clusterScoped;
    }

    /** An operator released into (and watching) the test namespace. */
    public static Builder in(E2eCluster cluster, TestNamespace namespace) {
        return new Builder(cluster, namespace.name());
    }

    /** Chart values and RBAC changes of one installation. */
    public static final class Builder {

        private final E2eCluster cluster;
        private final String namespace;
        private final Map<String, Object> values = new LinkedHashMap<>();
        private final List<String> withheld = new ArrayList<>();
        private String podName;

        private Builder(E2eCluster cluster, String namespace) {
            this.cluster = cluster;
            this.namespace = namespace;
            // Unique cluster-scoped names (ClusterRoles) per test namespace; the operator watches its namespace only.
            values.put("fullnameOverride", namespace);
            values.put("watchNamespaces[0]", namespace);
        }

        /** A Helm value, as {@code --set key=value}. */
        public Builder value(String key, Object value) {
            values.put(key, value);
            return this;
        }

        /** Removes a resource (e.g. {@code leases}, {@code jobs}) from every rule of the chart's RBAC. */
        public Builder withoutGrant(String resource) {
            withheld.add(resource);
            return this;
        }

        /**
         * One replica of several: the name its pod would have, which the container sees as HOSTNAME and the operator
         * takes as its leader-election identity (the Lease's holderIdentity); the replica gets its own directory and
         * log. Without it, a single operator runs with no HOSTNAME and a random identity.
         */
        public Builder replica(String podName) {
            this.podName = podName;
            return this;
        }

        public OperatorProcess start() {
            int httpPort = FreePort.any();
            values.put("http.port", httpPort);
            RenderedChart chart = RenderedChart.render(values, namespace);
            KubernetesClient client = cluster.client();
            List<HasMetadata> clusterScoped = new ArrayList<>();
            for (HasMetadata rbac : rbacObjects(chart)) {
                withhold(rbac, withheld);
                client.resource(rbac).forceConflicts().serverSideApply();
                if (rbac instanceof ClusterRole || rbac instanceof ClusterRoleBinding) {
                    clusterScoped.add(rbac);
                }
            }
            // Absolute: the process runs in this directory, and a KUBECONFIG it cannot find would make the client fall
            // back to the in-cluster address, https://kubernetes.default.svc, unknown outside a cluster.
            Path workDirectory = ProjectPaths.resolve(
                            "target/e2e/operator/" + namespace + (podName == null ? "" : "/" + podName))
                    .toAbsolutePath();
            PodSpec pod = chart.all(Deployment.class)
                    .findFirst()
                    .orElseThrow()
                    .getSpec()
                    .getTemplate()
                    .getSpec();
            Container container = pod.getContainers().get(0);
            String serviceAccount = pod.getServiceAccountName();
            try {
                Files.createDirectories(workDirectory.resolve("tmp"));
                Path kubeconfig = writeKubeconfig(client, namespace, serviceAccount, workDirectory);
                Map<String, String> environment = chartEnvironment(client, container, namespace);
                if (podName != null) {
                    environment.put("HOSTNAME", podName);
                }
                String containerName = Podman.chosenForE2e()
                        ? "llmops-operator-" + namespace + (podName == null ? "" : "-" + podName)
                        : null;
                List<String> command;
                if (containerName == null) {
                    environment.put("HOME", workDirectory.resolve("tmp").toString());
                    environment.put("KUBECONFIG", kubeconfig.toString());
                    command = command(container, workDirectory);
                } else {
                    environment.put("KUBECONFIG", CONTAINER_KUBECONFIG);
                    command = containerCommand(containerName, pod, container, environment, kubeconfig);
                    System.out.println("[operator] " + namespace + ": runs in container " + containerName);
                    environment = new LinkedHashMap<>(Podman.environment());
                }
                OperatorProcess operator = new OperatorProcess(
                        cluster,
                        httpPort,
                        command,
                        environment,
                        workDirectory,
                        namespace,
                        serviceAccount,
                        clusterScoped,
                        podName,
                        containerName);
                operator.launch();
                return operator;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /**
     * Waits until the operator reports ready (the Deployment's readiness probe), failing early if it exits. An exit
     * because the API server dropped the connection of an informer's first list (the SDK stops on an informer's
     * start-up error) is followed by one new start, as the kubelet would restart the container; any other exit fails.
     */
    public OperatorProcess awaitReady() {
        AtomicBoolean restartedAfterDroppedConnection = new AtomicBoolean();
        await("operator ready on :" + httpPort)
                .atMost(READY_TIMEOUT)
                .pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    if (!process.isAlive()) {
                        String tail = logTail();
                        if (!tail.contains(CONNECTION_DROPPED) || restartedAfterDroppedConnection.getAndSet(true)) {
                            throw new AssertionError("the operator exited with " + process.exitValue() + ":\n" + tail);
                        }
                        System.out.println("[operator] exited at start-up after a dropped API connection; started"
                                + " again as the kubelet would");
                        launch();
                    }
                    return ready();
                });
        return this;
    }

    /** Whether {@code /q/health/ready}, the chart's readiness probe, answers 200. */
    public boolean ready() {
        try {
            HttpResponse<Void> response = HTTP.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/q/health/ready"))
                            .timeout(Duration.ofSeconds(5))
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
            return response.statusCode() == HttpURLConnection.HTTP_OK;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** SIGKILL: no shutdown hook runs, the leader-election lease is not released. */
    public void kill() {
        if (containerName == null) {
            process.destroyForcibly();
        } else {
            Podman.require().kill(containerName, "KILL");
        }
        awaitExit();
    }

    /** Starts the same installation again (the log continues in the same file). */
    public OperatorProcess restart() {
        launch();
        return this;
    }

    /**
     * From now on the process is started again whenever it exits, as the kubelet restarts the container of the
     * chart's Deployment ({@code restartPolicy: Always}): at once the first time, then after 10 s, 20 s, 40 s, ... up
     * to 5 min (CrashLoopBackOff).
     */
    public synchronized OperatorProcess restartWhenExited() {
        if (restarter == null) {
            restarter = new Thread(this::restartOnExit, "operator-restarts-" + namespace);
            restarter.setDaemon(true);
            restarter.start();
        }
        return this;
    }

    private void restartOnExit() {
        try {
            while (!closing) {
                process.waitFor();
                if (closing) {
                    return;
                }
                exits.add(Instant.now());
                Thread.sleep(restartDelay(exits.size()).toMillis());
                launch();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Duration restartDelay(int exitsSoFar) {
        if (exitsSoFar == 1) {
            return Duration.ZERO;
        }
        Duration delay = FIRST_RESTART_BACKOFF.multipliedBy(1L << Math.min(exitsSoFar - 2, 10));
        return delay.compareTo(MAX_RESTART_BACKOFF) > 0 ? MAX_RESTART_BACKOFF : delay;
    }

    /** When the process exited while restarts were on ({@link #restartWhenExited()}), oldest first. */
    public List<Instant> exits() {
        return List.copyOf(exits);
    }

    /** Whether the JVM (in its container) runs now. */
    public boolean running() {
        return process.isAlive();
    }

    /** The replica's identity in the Lease ({@link Builder#replica(String)}). */
    public String identity() {
        if (podName == null) {
            throw new IllegalStateException("a single operator has a random identity; name the replica");
        }
        return podName;
    }

    /** Whether the leader-election Lease names this replica as its holder now. */
    public boolean leads() {
        // The chart names the Lease after the release; the suite's releases are named after their namespace.
        Lease lease = cluster.client()
                .leases()
                .inNamespace(namespace)
                .withName(namespace)
                .get();
        return lease != null && identity().equals(lease.getSpec().getHolderIdentity());
    }

    /**
     * How many reconciliations of all controllers the running process has finished without an exception, from its
     * Prometheus metrics; -1 while it does not answer (not started, or exited).
     */
    public long successfulReconciliations() {
        try {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/q/metrics"))
                            .timeout(Duration.ofSeconds(5))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != HttpURLConnection.HTTP_OK) {
                return -1;
            }
            return Math.round(response.body()
                    .lines()
                    .filter(line -> line.startsWith(RECONCILIATIONS_SUCCEEDED + "{")
                            || line.startsWith(RECONCILIATIONS_SUCCEEDED + " "))
                    .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                    .sum());
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** Everything the operator printed, across restarts. */
    public String log() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Fails if the API server refused any call: the chart's RBAC lacks a rule the operator needs. The local control
     * plane's audit log sees every refusal; the operator's log only those it logs at INFO or above.
     */
    public void assertNothingForbidden() {
        assertThat(forbiddenCalls())
                .as("calls the API server refused (audit log)")
                .isEmpty();
        assertThat(log())
                .as("operator log " + log)
                .doesNotContainIgnoringCase("forbidden")
                .as("operator log %s: an HTTP 403 (not digits of a UUID or a timestamp)", log)
                .doesNotContainPattern("(?<![0-9a-fA-F,.:-])403(?![0-9a-fA-F-])");
    }

    /** The calls of this operator's service account the API server refused, from its audit log; empty without one. */
    public List<String> forbiddenCalls() {
        return cluster.audit()
                .map(audit -> audit.forbidden(namespace, serviceAccount))
                .orElse(List.of());
    }

    /**
     * The create, update and patch calls this operator made on {@code resource} (a plural, e.g.
     * {@code leaderworkersets}) in {@code objectNamespace}, from the audit log; empty without one.
     */
    public List<String> writes(String resource, String objectNamespace) {
        return cluster.audit()
                .map(audit -> audit.writes(namespace, serviceAccount, resource, objectNamespace))
                .orElse(List.of());
    }

    private String logTail() {
        List<String> lines = log().lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    private void launch() {
        try {
            Files.writeString(
                    log,
                    "=== operator started with " + command + "\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
            if (containerName != null) {
                // A container the runtime still holds after a kill, as the kubelet removes it before a restart.
                Podman.require().remove(containerName);
            }
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .directory(workDirectory.toFile());
            builder.environment().clear();
            builder.environment().putAll(environment);
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start " + command, e);
        }
    }

    private void awaitExit() {
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new AssertionError("the operator did not exit within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    @Override
    public void close() {
        closing = true;
        Thread running = restarter;
        if (running != null) {
            running.interrupt();
            try {
                running.join(Duration.ofSeconds(30).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (process.isAlive()) {
            Processes.stop(process, Duration.ofSeconds(20));
        }
        if (containerName != null) {
            Podman.require().remove(containerName);
        }
        clusterScoped.forEach(o -> cluster.client().resource(o).delete());
    }

    private static List<HasMetadata> rbacObjects(RenderedChart chart) {
        List<HasMetadata> objects = new ArrayList<>();
        objects.addAll(chart.all(ServiceAccount.class).toList());
        objects.addAll(chart.all(ClusterRole.class).toList());
        objects.addAll(chart.all(Role.class).toList());
        objects.addAll(chart.all(ClusterRoleBinding.class).toList());
        objects.addAll(chart.all(RoleBinding.class).toList());
        return objects;
    }

    private static void withhold(HasMetadata rbac, List<String> resources) {
        List<PolicyRule> rules =
                rbac instanceof ClusterRole role ? role.getRules() : rbac instanceof Role role ? role.getRules() : null;
        if (rules == null || resources.isEmpty()) {
            return;
        }
        rules.forEach(rule -> rule.setResources(
                rule.getResources().stream().filter(r -> !resources.contains(r)).toList()));
        rules.removeIf(rule -> rule.getResources().isEmpty());
    }

    /** The JVM of the Dockerfile's ENTRYPOINT, with the container's memory limit from the chart, running `operator`. */
    private static List<String> command(Container container, Path workDirectory) throws IOException {
        assertThat(JAR)
                .as("the packaged operator (mvn package runs before the e2e suite)")
                .exists();
        List<String> entrypoint = dockerfileEntrypoint();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Quantity memoryLimit =
                container.getResources() == null || container.getResources().getLimits() == null
                        ? null
                        : container.getResources().getLimits().get("memory");
        if (memoryLimit != null) {
            // What the container runtime tells the JVM: MaxRAMPercentage applies to the pod's limit, not the host.
            command.add("-XX:MaxRAM=" + memoryLimit.getNumericalAmount().longValue());
        }
        for (String argument : entrypoint.subList(1, entrypoint.indexOf("-jar"))) {
            command.add(argument.replace("=" + CONTAINER_TMP, "=" + workDirectory.resolve("tmp")));
        }
        command.add("-jar");
        command.add(JAR.toAbsolutePath().toString());
        command.add("operator");
        return command;
    }

    private static List<String> dockerfileEntrypoint() throws IOException {
        String line = Files.readAllLines(DOCKERFILE).stream()
                .filter(l -> l.startsWith("ENTRYPOINT "))
                .reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError("no ENTRYPOINT in " + DOCKERFILE));
        List<String> entrypoint =
                List.of(new ObjectMapper().readValue(line.substring("ENTRYPOINT ".length()), String[].class));
        assertThat(entrypoint).as("Dockerfile ENTRYPOINT").startsWith("java").contains("-jar");
        return entrypoint;
    }

    /**
     * The container's environment from the chart (the downward API's namespace and the Secrets' keys resolved, as the
     * kubelet resolves them), and nothing of the test JVM's environment: no in-cluster settings or credentials of the
     * machine leak in.
     */
    private static Map<String, String> chartEnvironment(
            KubernetesClient client, Container container, String namespace) {
        Map<String, String> environment = new LinkedHashMap<>();
        // A token file of the machine, if it runs in a pod, must not replace the chart's ServiceAccount.
        environment.put("KUBERNETES_AUTH_TRYSERVICEACCOUNT", "false");
        for (EnvVar variable : container.getEnv()) {
            if (variable.getValueFrom() == null) {
                environment.put(variable.getName(), variable.getValue());
            } else if (variable.getValueFrom().getFieldRef() != null
                    && "metadata.namespace"
                            .equals(variable.getValueFrom().getFieldRef().getFieldPath())) {
                environment.put(variable.getName(), namespace);
            } else if (variable.getValueFrom().getSecretKeyRef() != null) {
                environment.put(variable.getName(), secretValue(client, namespace, variable));
            } else {
                throw new AssertionError("environment variable " + variable.getName() + " of the chart has a source"
                        + " the suite does not resolve: " + variable.getValueFrom());
            }
        }
        return environment;
    }

    private static String secretValue(KubernetesClient client, String namespace, EnvVar variable) {
        var reference = variable.getValueFrom().getSecretKeyRef();
        Secret secret = client.secrets()
                .inNamespace(namespace)
                .withName(reference.getName())
                .get();
        String encoded = secret == null || secret.getData() == null
                ? null
                : secret.getData().get(reference.getKey());
        if (encoded == null) {
            throw new AssertionError("environment variable " + variable.getName() + " of the chart names key "
                    + reference.getKey() + " of Secret " + reference.getName() + ", which does not exist");
        }
        return new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
    }

    /** podman running the built image as the chart's pod, with the environment given and the kubeconfig mounted. */
    private static List<String> containerCommand(
            String name, PodSpec pod, Container container, Map<String, String> environment, Path kubeconfig)
            throws IOException {
        // The container's user reads it; it holds a token of the test namespace's ServiceAccount only.
        Files.setPosixFilePermissions(kubeconfig, PosixFilePermissions.fromString("rw-r--r--"));
        List<String> options = new ArrayList<>(Podman.optionsOf(pod, container));
        environment.forEach((variable, value) -> options.add("--env=" + variable + "=" + value));
        options.add("--volume=" + kubeconfig.toAbsolutePath() + ":" + CONTAINER_KUBECONFIG + ":ro");
        List<String> arguments = container.getArgs() == null ? List.of() : container.getArgs();
        return Podman.require().runCommand(name, options, Podman.require().builtImage(), arguments);
    }

    /** A kubeconfig with a token of the ServiceAccount (TokenRequest API) and the cluster's CA. */
    private static Path writeKubeconfig(
            KubernetesClient client, String namespace, String serviceAccount, Path workDirectory) throws IOException {
        String token = client.serviceAccounts()
                .inNamespace(namespace)
                .withName(serviceAccount)
                .tokenRequest(new TokenRequestBuilder()
                        .withNewSpec()
                        .withExpirationSeconds(TOKEN_SECONDS)
                        .endSpec()
                        .build())
                .getStatus()
                .getToken();
        Config config = client.getConfiguration();
        String caData = config.getCaCertData() != null
                ? config.getCaCertData()
                : Base64.getEncoder().encodeToString(Files.readAllBytes(Path.of(config.getCaCertFile())));
        String kubeconfig =
                """
                apiVersion: v1
                kind: Config
                clusters:
                - name: e2e
                  cluster:
                    server: %s
                    certificate-authority-data: %s
                users:
                - name: %s
                  user:
                    token: %s
                contexts:
                - name: e2e
                  context:
                    cluster: e2e
                    user: %s
                    namespace: %s
                current-context: e2e
                """.formatted(config.getMasterUrl(), caData, serviceAccount, token, serviceAccount, namespace);
        return Files.writeString(workDirectory.resolve("kubeconfig"), kubeconfig, StandardCharsets.UTF_8);
    }
}
