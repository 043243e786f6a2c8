package dev.llmops.serving.perf;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.e2e.support.LocalControlPlane;
import dev.llmops.serving.e2e.support.ProjectCrds;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.networking.v1.ServiceCIDR;
import io.fabric8.kubernetes.api.model.networking.v1.ServiceCIDRBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Operator at scale on the real control plane: for each size, N ModelServers and N BenchmarkRuns are applied to a bare
 * fabric8 client that creates the same Deployments and Services with the operator's concurrency, to the same client
 * applying them server-side (as the operator does), and to the packaged operator, each arm on a fresh control plane.
 * Prints a table and writes target/perf/operator-scale.json.
 * Run it with hack/perf/operator-scale.sh [sizes...] [--profile] [--operator-only] [--jvm-flag=FLAG ...].
 */
public final class OperatorScaleBenchmark {

    /** The operator SDK's default number of reconciler threads; the bare client creates with as many. */
    static final int RECONCILE_THREADS = 50;
    /** Concurrent creations of the applier, which plays kubectl apply for both arms. */
    static final int APPLY_THREADS = 16;

    static final Duration SETTLE_TIMEOUT = Duration.ofMinutes(10);
    static final Duration QUIET = Duration.ofSeconds(5);
    static final Path OUTPUT = Path.of("target/perf");
    static final int JUDGED_SIZE = 1000;
    static final double MAX_RATIO = 2.0;
    static final int MAX_PEAK_RSS_MIB = 300;
    static final double MAX_GROWTH = 1.25;
    private static final String USAGE =
            "usage: operator-scale.sh [SIZE ...] [--profile] [--operator-only] [--jvm-flag=FLAG ...]";

    /** Who makes the children: a bare client creating them, the same client applying them server-side, the operator. */
    enum Arm {
        BARE_CLIENT("bare client"),
        BARE_CLIENT_SSA("bare client, SSA"),
        OPERATOR("operator");

        final String label;

        Arm(String label) {
            this.label = label;
        }
    }

    private OperatorScaleBenchmark() {}

    public static void main(String[] args) {
        try {
            System.exit(benchmark(args) ? 0 : 1);
        } catch (Exception e) {
            e.printStackTrace();
            System.exit(1);
        }
    }

    /** Returns false when a judged target is missed. */
    private static boolean benchmark(String[] args) throws Exception {
        boolean profile = false;
        List<Arm> arms = List.of(Arm.values());
        List<String> extraJvmFlags = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        for (String arg : args) {
            if (arg.equals("--profile")) {
                profile = true;
            } else if (arg.equals("--operator-only")) {
                arms = List.of(Arm.OPERATOR);
            } else if (arg.startsWith(MeasuredOperator.JVM_FLAG_OPTION)) {
                extraJvmFlags.add(MeasuredOperator.extraJvmFlag(arg));
            } else if (arg.matches("[1-9]\\d{0,5}")) {
                sizes.add(Integer.parseInt(arg));
            } else {
                throw new IllegalArgumentException(USAGE + "; unexpected '" + arg + "'");
            }
        }
        if (sizes.isEmpty()) {
            sizes = List.of(100, 500, 1000);
        }
        Machine machine = Machine.current();
        System.out.println(machine.describe());
        List<String> operatorJvmFlags = new ArrayList<>(MeasuredOperator.jvmFlags());
        operatorJvmFlags.addAll(extraJvmFlags);
        System.out.println("operator JVM flags: " + String.join(" ", operatorJvmFlags) + ", environment "
                + MeasuredOperator.operatorEnvironment());
        List<Map<String, Object>> results = new ArrayList<>();
        for (int size : sizes) {
            for (Arm arm : arms) {
                Map<String, Object> result = run(size, arm, profile, extraJvmFlags);
                System.out.println(result);
                results.add(result);
            }
        }
        printTable(results);
        boolean met = judge(results, arms.size() == Arm.values().length);
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("machine", machine.toJson());
        report.put("loadAverageAtEnd", Machine.loadAverage());
        report.put("operatorJvmFlags", operatorJvmFlags);
        report.put("results", results);
        report.put("targetsMet", met);
        Files.createDirectories(OUTPUT);
        new ObjectMapper()
                .enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(OUTPUT.resolve("operator-scale.json").toFile(), report);
        System.out.println("written: " + OUTPUT.resolve("operator-scale.json"));
        return met;
    }

    private static Map<String, Object> run(int size, Arm arm, boolean profile, List<String> extraJvmFlags)
            throws Exception {
        Path work = OUTPUT.resolve("scale-" + size + "-" + arm.name().toLowerCase());
        Files.createDirectories(work);
        try (LocalControlPlane controlPlane = LocalControlPlane.start(work.toAbsolutePath())) {
            KubernetesClient client = controlPlane.client();
            ProjectCrds.install(client);
            widenServiceRange(client);
            MeasuredOperator.createNamespaces(client, ScaleWorkload.NAMESPACE);
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("size", size);
            result.put("arm", arm.label);
            result.put("loadAverageBefore", Machine.loadAverage());
            if (arm != Arm.OPERATOR) {
                try (KubernetesClient bare = new KubernetesClientBuilder()
                                .withConfig(Config.fromKubeconfig(Files.readString(controlPlane.kubeconfig())))
                                .build();
                        ScaleObserver observer = new ScaleObserver(client)) {
                    Consumer<HasMetadata> write = arm == Arm.BARE_CLIENT
                            ? child -> bare.resource(child).create()
                            : child -> bare.resource(child)
                                    .fieldManager("bare-client")
                                    .forceConflicts()
                                    .serverSideApply();
                    measure(size, client, observer, write, result);
                }
                return result;
            }
            Path log = work.resolve("operator.log");
            List<String> extraFlags = new ArrayList<>(extraJvmFlags);
            if (profile) {
                extraFlags.add("-XX:NativeMemoryTracking=summary");
            }
            try (MeasuredOperator operator = MeasuredOperator.start(controlPlane.kubeconfig(), log, extraFlags);
                    ScaleObserver observer = new ScaleObserver(client)) {
                operator.awaitReady(Duration.ofMinutes(2), log);
                operator.awaitLeadership(client);
                MeasuredOperator.Memory idle = operator.memory();
                result.put("idleRssMiB", round(idle.rssMiB()));
                AtomicReference<Double> maxRss = new AtomicReference<>(idle.rssMiB());
                ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
                sampler.scheduleAtFixedRate(
                        () -> maxRss.accumulateAndGet(operator.memory().rssMiB(), Math::max),
                        0,
                        250,
                        TimeUnit.MILLISECONDS);
                double cpuBefore = operator.cpuSeconds();
                ScheduledExecutorService dumps = Executors.newSingleThreadScheduledExecutor();
                if (profile) {
                    Path threads = work.resolve("thread-dumps.txt");
                    dumps.scheduleAtFixedRate(
                            () -> append(threads, operator.jcmd("Thread.print")), 2, 3, TimeUnit.SECONDS);
                }
                long start = measure(size, client, observer, null, result);
                long settled = ScaleObserver.await("statuses", observer::statuses, 2 * size, SETTLE_TIMEOUT);
                result.put("settledSeconds", seconds(settled - start));
                result.put("operatorCpuSecondsToSettle", round(operator.cpuSeconds() - cpuBefore));
                dumps.shutdownNow();
                Map<String, Long> reconciles = awaitQuiet(operator);
                long total =
                        reconciles.values().stream().mapToLong(Long::longValue).sum();
                long quietAt = System.nanoTime() - QUIET.toNanos();
                sampler.shutdownNow();
                result.put("reconciles", reconciles);
                result.put(
                        "reconcilesPerModelServer", round((double) reconciles.getOrDefault("ModelServer", 0L) / size));
                result.put(
                        "reconcilesPerBenchmarkRun",
                        round((double) reconciles.getOrDefault("BenchmarkRun", 0L) / size));
                result.put("reconcilesPerSecond", round(total / seconds(quietAt - start)));
                result.put("quietSeconds", seconds(quietAt - start));
                MeasuredOperator.Memory end = operator.memory();
                result.put("rssMiB", round(end.rssMiB()));
                result.put("maxSampledRssMiB", round(maxRss.get()));
                result.put("peakRssMiB", round(end.peakRssMiB()));
                if (profile) {
                    Files.writeString(work.resolve("native-memory.txt"), operator.jcmd("VM.native_memory", "summary"));
                    Files.writeString(work.resolve("class-histogram.txt"), operator.jcmd("GC.class_histogram"));
                    Files.writeString(work.resolve("heap-info.txt"), operator.jcmd("GC.heap_info"));
                    result.put("profile", work.toString());
                }
            }
            result.put("loadAverageAfter", Machine.loadAverage());
            return result;
        }
    }

    /**
     * Applies the workload and waits until every child exists; in a bare-client arm, that client writes the children as
     * each ModelServer is created. Returns the nanotime the apply started.
     */
    private static long measure(
            int size,
            KubernetesClient client,
            ScaleObserver observer,
            Consumer<HasMetadata> bareWrite,
            Map<String, Object> result)
            throws Exception {
        AtomicLongArray applied = new AtomicLongArray(size);
        ExecutorService applier = Executors.newFixedThreadPool(APPLY_THREADS);
        ExecutorService creator = Executors.newFixedThreadPool(RECONCILE_THREADS);
        List<Future<?>> applies = new ArrayList<>();
        List<Future<?>> creations = Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime();
        for (int i = 0; i < size; i++) {
            int index = i;
            applies.add(applier.submit(() -> {
                applied.set(index, System.nanoTime());
                ModelServer created =
                        client.resource(ScaleWorkload.modelServer(index)).create();
                if (bareWrite != null) {
                    creations.add(
                            creator.submit(() -> ScaleWorkload.children(created).forEach(bareWrite)));
                }
                client.resource(ScaleWorkload.benchmarkRun(index)).create();
            }));
        }
        long childrenCreated = ScaleObserver.await("children", observer::children, 2 * size, SETTLE_TIMEOUT);
        for (Future<?> apply : applies) {
            apply.get();
        }
        for (Future<?> creation : List.copyOf(creations)) {
            creation.get();
        }
        applier.shutdown();
        creator.shutdown();
        long[] latencies = new long[size];
        for (int i = 0; i < size; i++) {
            latencies[i] = observer.deploymentSeen(ScaleWorkload.serverName(i)) - applied.get(i);
        }
        Arrays.sort(latencies);
        result.put("childrenSeconds", seconds(childrenCreated - start));
        result.put("applyToDeploymentP50Ms", round(latencies[(int) Math.ceil(0.50 * size) - 1] / 1e6));
        result.put("applyToDeploymentP99Ms", round(latencies[(int) Math.ceil(0.99 * size) - 1] / 1e6));
        return start;
    }

    /**
     * The default Service CIDR of the test API server (a /24) runs out at about 254 Services: a second, larger range,
     * made Ready by the controller-manager, lets the API server allocate from it.
     */
    static void widenServiceRange(KubernetesClient client) {
        ServiceCIDR range = client.resource(new ServiceCIDRBuilder()
                        .withNewMetadata()
                        .withName("scale-benchmark")
                        .endMetadata()
                        .withNewSpec()
                        .withCidrs("10.96.0.0/16")
                        .endSpec()
                        .build())
                .create();
        ScaleObserver.await(
                "ServiceCIDR 10.96.0.0/16 to be Ready",
                () -> {
                    ServiceCIDR current = client.resource(range).get();
                    return current.getStatus() != null
                                    && current.getStatus().getConditions().stream()
                                            .anyMatch(c -> c.getType().equals("Ready")
                                                    && c.getStatus().equals("True"))
                            ? 1
                            : 0;
                },
                1,
                Duration.ofMinutes(1));
    }

    /** Polls the reconcile counters until they have not moved for {@link #QUIET}. */
    private static Map<String, Long> awaitQuiet(MeasuredOperator operator) {
        Map<String, Long> last = operator.reconciles();
        long stableSince = System.nanoTime();
        long deadline = System.nanoTime() + SETTLE_TIMEOUT.toNanos();
        while (System.nanoTime() - stableSince < QUIET.toNanos() && System.nanoTime() < deadline) {
            MeasuredOperator.sleep(Duration.ofMillis(500));
            Map<String, Long> now = operator.reconciles();
            if (!now.equals(last)) {
                last = now;
                stableSince = System.nanoTime();
            }
        }
        return last;
    }

    private static void printTable(List<Map<String, Object>> results) {
        System.out.println();
        String format = "%-6s %-18s %10s %10s %10s %10s %11s %11s %9s %9s%n";
        System.out.printf(
                format,
                "SIZE",
                "ARM",
                "CHILDREN s",
                "SETTLED s",
                "DEPL P50",
                "DEPL P99",
                "REC/SERVER",
                "REC/s",
                "RSS MiB",
                "PEAK MiB");
        for (Map<String, Object> r : results) {
            System.out.printf(
                    format,
                    r.get("size"),
                    r.get("arm"),
                    r.get("childrenSeconds"),
                    r.getOrDefault("settledSeconds", "-"),
                    r.get("applyToDeploymentP50Ms") + " ms",
                    r.get("applyToDeploymentP99Ms") + " ms",
                    r.getOrDefault("reconcilesPerModelServer", "-"),
                    r.getOrDefault("reconcilesPerSecond", "-"),
                    r.getOrDefault("rssMiB", "-"),
                    r.getOrDefault("peakRssMiB", "-"));
        }
    }

    /**
     * Prints each size's ratio to the bare client and, from {@value #JUDGED_SIZE} ModelServers up, PASS or MISS for the
     * targets: settled within {@value #MAX_RATIO}x the bare client, peak RSS under {@value #MAX_PEAK_RSS_MIB} MiB, and
     * with two or more sizes, time per ModelServer at the largest within {@value #MAX_GROWTH}x of the smallest's.
     * Returns whether no judged target was missed.
     */
    private static boolean judge(List<Map<String, Object>> results, boolean allArms) {
        if (!allArms) {
            System.out.println("operator arm only: no ratio to the bare client, targets not judged");
            return true;
        }
        boolean met = true;
        Map<Integer, Double> msPerServer = new LinkedHashMap<>();
        for (int i = 0; i + 2 < results.size(); i += Arm.values().length) {
            Map<String, Object> bare = results.get(i);
            Map<String, Object> bareSsa = results.get(i + 1);
            Map<String, Object> operator = results.get(i + 2);
            int size = (int) bare.get("size");
            double settled = (double) operator.get("settledSeconds");
            double ratio = settled / (double) bare.get("childrenSeconds");
            double peak = (double) operator.get("peakRssMiB");
            msPerServer.put(size, 1000 * settled / size);
            System.out.printf(
                    "size %d: operator settled in %.2fx the bare client's time (%.2fx with server-side apply); %.1f "
                            + "ms per ModelServer; peak RSS %.0f MiB%n",
                    size, ratio, settled / (double) bareSsa.get("childrenSeconds"), msPerServer.get(size), peak);
            if (size < JUDGED_SIZE) {
                System.out.printf("size %d: targets are judged from %d ModelServers up%n", size, JUDGED_SIZE);
                continue;
            }
            met &= verdict("settled within " + MAX_RATIO + "x the bare client", ratio <= MAX_RATIO, "%.2fx", ratio);
            met &= verdict("peak RSS under " + MAX_PEAK_RSS_MIB + " MiB", peak < MAX_PEAK_RSS_MIB, "%.0f MiB", peak);
        }
        List<Integer> sizes = msPerServer.keySet().stream().sorted().toList();
        if (sizes.size() > 1 && sizes.get(sizes.size() - 1) >= JUDGED_SIZE) {
            double growth = msPerServer.get(sizes.get(sizes.size() - 1)) / msPerServer.get(sizes.get(0));
            met &= verdict(
                    "time per ModelServer at the largest size within " + MAX_GROWTH + "x of the smallest's (linear)",
                    growth <= MAX_GROWTH,
                    "%.2fx",
                    growth);
        }
        return met;
    }

    private static boolean verdict(String target, boolean met, String format, double measured) {
        System.out.printf("%s: %s (" + format + ")%n", met ? "PASS" : "MISS", target, measured);
        return met;
    }

    private static void append(Path file, String text) {
        try {
            Files.writeString(file, text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static double seconds(long nanos) {
        return round(nanos / 1e9);
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
