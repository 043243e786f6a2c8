package dev.llmops.serving.perf;

import dev.llmops.serving.e2e.support.FreePort;
import dev.llmops.serving.e2e.support.OperatorProcess;
import dev.llmops.serving.e2e.support.Processes;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The packaged operator as a child JVM, started with the Dockerfile's JVM flags and environment, the memory the Helm
 * chart gives its container and the chart's environment (its JVM options included), so its resident memory is what a
 * cluster would see. Reads its RSS from /proc and its reconcile counts from its Prometheus endpoint.
 */
final class MeasuredOperator implements AutoCloseable {

    static final String LEASE_NAMESPACE = "llm-serving-system";
    private static final String LEASE_NAME = "llm-serving-operator";
    /** USER_HZ, the unit of the CPU times in /proc/<pid>/stat; 100 on Linux. */
    private static final int CLOCK_TICKS_PER_SECOND = 100;

    private static final Path JAR = Path.of("target/quarkus-app/quarkus-run.jar");
    private static final Pattern ENTRYPOINT = Pattern.compile("(?m)^ENTRYPOINT \\[(.*)]$");
    private static final Pattern ENV = Pattern.compile("(?m)^ENV (\\w+)=(\\S+)$");
    private static final Path VALUES = Path.of("helm/llm-serving-operator/values.yaml");
    private static final Pattern JVM_OPTIONS = Pattern.compile("(?m)^jvmOptions: \"([^\"]*)\"$");
    private static final Pattern MEMORY_LIMIT = Pattern.compile("(?m)^  limits:\\n    memory: (\\d+)Mi$");
    private static final Pattern STARTED =
            Pattern.compile("(?m)^operator_sdk_reconciliations_started_total\\{([^}]*)} ([0-9.E+-]+)$");
    private static final Pattern KIND = Pattern.compile("kind=\"([^\"]*)\"");

    /** The benchmarks' option for one more operator JVM flag, e.g. {@code --jvm-flag=-XX:MaxHeapFreeRatio=20}. */
    static final String JVM_FLAG_OPTION = "--jvm-flag=";
    /** What a --jvm-flag may be: one -XX option or system property, nothing a shell or the JVM would read as more. */
    private static final Pattern ALLOWED_JVM_FLAG =
            Pattern.compile("-(XX:[+-]?\\w+(=[\\w.]+)?|Xss\\w+|D[\\w.-]+=[\\w.-]*)");

    private final ProcessBuilder launcher;
    private volatile Process process;
    private final int httpPort;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private MeasuredOperator(ProcessBuilder launcher, int httpPort) throws IOException {
        this.launcher = launcher;
        this.process = launcher.start();
        this.httpPort = httpPort;
    }

    /** Starts the operator against the kubeconfig's cluster; extra JVM flags go after the image's own. */
    static MeasuredOperator start(Path kubeconfig, Path log, List<String> extraJvmFlags) {
        return start(kubeconfig, log, extraJvmFlags, Map.of());
    }

    /** As {@link #start(Path, Path, List)}, with more environment variables (Helm values the chart would set). */
    static MeasuredOperator start(
            Path kubeconfig, Path log, List<String> extraJvmFlags, Map<String, String> extraEnvironment) {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException(JAR + " is missing: run mvn -B -o package -DskipTests first");
        }
        int port = FreePort.any();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmFlags());
        command.addAll(extraJvmFlags);
        command.addAll(List.of("-jar", JAR.toString(), "operator"));
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> env = builder.environment();
        env.putAll(operatorEnvironment());
        env.put("KUBECONFIG", kubeconfig.toAbsolutePath().toString());
        env.put("QUARKUS_HTTP_PORT", String.valueOf(port));
        env.put("QUARKUS_OPERATOR_SDK_NAMESPACES", "JOSDK_ALL_NAMESPACES");
        env.put("LLMOPS_LEADER_ELECTION_LEASE_NAME", LEASE_NAME);
        env.put("LLMOPS_LEADER_ELECTION_LEASE_NAMESPACE", LEASE_NAMESPACE);
        env.put("QUARKUS_LOG_LEVEL", "INFO");
        env.putAll(extraEnvironment);
        try {
            return new MeasuredOperator(builder, port);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start " + command, e);
        }
    }

    /** The flag of a {@value #JVM_FLAG_OPTION} argument, refused unless it is one -XX:, -Xss or -D option. */
    static String extraJvmFlag(String argument) {
        String flag = argument.substring(JVM_FLAG_OPTION.length());
        if (!ALLOWED_JVM_FLAG.matcher(flag).matches()) {
            throw new IllegalArgumentException("--jvm-flag must be one -XX:, -Xss or -D option, got '"
                    + flag.substring(0, Math.min(flag.length(), 40)) + "'");
        }
        return flag;
    }

    /**
     * The image's JVM flags (its ENTRYPOINT between "java" and "-jar"), plus -XX:MaxRAM at the chart's memory limit: in
     * a container the JVM sizes its heap from the cgroup limit, here it would otherwise size it from the host's RAM.
     */
    static List<String> jvmFlags() {
        try {
            Matcher entrypoint = ENTRYPOINT.matcher(Files.readString(Path.of("Dockerfile")));
            Matcher limit = MEMORY_LIMIT.matcher(Files.readString(VALUES));
            if (!entrypoint.find() || !limit.find()) {
                throw new IllegalStateException(
                        "Dockerfile ENTRYPOINT or the chart's resources.limits.memory not found");
            }
            List<String> words = new ArrayList<>();
            for (String quoted : entrypoint.group(1).split(",\\s*")) {
                words.add(quoted.trim().replaceAll("^\"|\"$", ""));
            }
            List<String> flags = new ArrayList<>(words.subList(1, words.indexOf("-jar")));
            flags.add("-XX:MaxRAM=" + limit.group(1) + "m");
            return flags;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The ENV lines of the Dockerfile (HOME, MALLOC_ARENA_MAX) and the chart's {@code jvmOptions} as the
     * JDK_JAVA_OPTIONS its Deployment sets.
     */
    static Map<String, String> operatorEnvironment() {
        try {
            Matcher line = ENV.matcher(Files.readString(Path.of("Dockerfile")));
            Map<String, String> env = new TreeMap<>();
            while (line.find()) {
                env.put(line.group(1), line.group(2));
            }
            Matcher jvmOptions = JVM_OPTIONS.matcher(Files.readString(VALUES));
            if (jvmOptions.find() && !jvmOptions.group(1).isEmpty()) {
                env.put("JDK_JAVA_OPTIONS", jvmOptions.group(1));
            }
            return env;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Waits until the operator reports ready (its informers have synced), failing with its log if it exits. An exit
     * because the API server dropped the connection of an informer's first list (the SDK stops on an informer's
     * start-up error) is followed by one new start, as the kubelet would restart the container.
     */
    void awaitReady(Duration timeout, Path log) {
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean restarted = false;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                if (restarted || !droppedConnection(log)) {
                    throw new IllegalStateException("The operator exited with " + process.exitValue() + "; see " + log);
                }
                System.out.println("The operator exited at start-up after a dropped API connection; started again");
                restarted = true;
                relaunch(log);
            }
            try {
                if (get("/q/health/ready").statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            sleep(Duration.ofMillis(200));
        }
        throw new IllegalStateException("The operator was not ready within " + timeout + "; see " + log);
    }

    private static boolean droppedConnection(Path log) {
        try {
            return Files.readString(log).contains(OperatorProcess.CONNECTION_DROPPED);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void relaunch(Path log) {
        try {
            process = launcher.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start the operator again", e);
        }
    }

    /** Waits until the operator holds its leader lease, that is, reconciles. */
    void awaitLeadership(KubernetesClient client) {
        ScaleObserver.await(
                "the operator's leader lease",
                () -> {
                    Lease lease = client.leases()
                            .inNamespace(LEASE_NAMESPACE)
                            .withName(LEASE_NAME)
                            .get();
                    return lease != null && lease.getSpec().getHolderIdentity() != null ? 1 : 0;
                },
                1,
                Duration.ofMinutes(1));
    }

    /** VmRSS and VmHWM (peak RSS) in MiB. */
    Memory memory() {
        try {
            String status = Files.readString(Path.of("/proc", String.valueOf(process.pid()), "status"));
            return new Memory(kibField(status, "VmRSS") / 1024.0, kibField(status, "VmHWM") / 1024.0);
        } catch (IOException e) {
            throw new UncheckedIOException("The operator process is gone", e);
        }
    }

    record Memory(double rssMiB, double peakRssMiB) {}

    /** CPU time the operator process has used (user + system), from /proc/<pid>/stat. */
    double cpuSeconds() {
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(process.pid()), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / (double) CLOCK_TICKS_PER_SECOND;
        } catch (IOException e) {
            throw new UncheckedIOException("The operator process is gone", e);
        }
    }

    /** Reconciliations started since the operator started, by resource kind. */
    Map<String, Long> reconciles() {
        Map<String, Long> byKind = new TreeMap<>();
        try {
            Matcher line = STARTED.matcher(get("/q/metrics").body());
            while (line.find()) {
                Matcher kind = KIND.matcher(line.group(1));
                byKind.merge(
                        kind.find() ? kind.group(1) : "unknown", (long) Double.parseDouble(line.group(2)), Long::sum);
            }
        } catch (IOException e) {
            throw new IllegalStateException(
                    process.isAlive()
                            ? "Cannot read the operator's metrics"
                            : "The operator exited with " + process.exitValue()
                                    + " (see its log; 3 is -XX:+ExitOnOutOfMemoryError)",
                    e);
        }
        return byKind;
    }

    /** The operator's Prometheus page. */
    String metrics() {
        try {
            return get("/q/metrics").body();
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read the operator's metrics", e);
        }
    }

    /** Runs jcmd against the operator, for the native-memory summary and the heap histogram of a profiling run. */
    String jcmd(String... arguments) {
        List<String> command = new ArrayList<>(List.of(String.valueOf(process.pid())));
        command.addAll(List.of(arguments));
        return jdkTool("jcmd", command);
    }

    /** Runs jstat against the operator once (it needs -XX:+UsePerfData, which the image turns off). */
    String jstat(String option) {
        return jdkTool("jstat", List.of(option, String.valueOf(process.pid())));
    }

    private static String jdkTool(String tool, List<String> arguments) {
        List<String> command = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", tool).toString()));
        command.addAll(arguments);
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes());
            process.waitFor(60, TimeUnit.SECONDS);
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private HttpResponse<String> get(String path) throws IOException {
        try {
            return http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + path))
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private static long kibField(String status, String field) {
        Matcher matcher = Pattern.compile("(?m)^" + field + ":\\s+(\\d+) kB$").matcher(status);
        if (!matcher.find()) {
            throw new IllegalStateException(field + " missing in /proc/<pid>/status");
        }
        return Long.parseLong(matcher.group(1));
    }

    static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        Processes.stop(process, Duration.ofSeconds(20));
    }

    /** Creates the benchmark's namespace and the one the operator keeps its leader-election Lease in. */
    static void createNamespaces(KubernetesClient client, String workloadNamespace) {
        for (String namespace : List.of(workloadNamespace, LEASE_NAMESPACE)) {
            client.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(namespace)
                            .endMetadata()
                            .build())
                    .create();
        }
    }
}
