package dev.llmops.serving.perf;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.BenchmarkTarget;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.e2e.support.LocalControlPlane;
import dev.llmops.serving.e2e.support.ProjectCrds;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Soak on the real control plane: ModelServers and BenchmarkRuns are created and deleted in a loop for a while, with a
 * bounded number alive, against the packaged operator. Afterwards nothing the operator made may be left behind, its
 * resident memory at the end must be within {@link #RSS_DRIFT_LIMIT_PERCENT} % of its level after the first minute, and
 * its work queue must be empty. Prints a table and writes target/perf/soak.json.
 * Run it with hack/perf/soak.sh [MINUTES | smoke] [--profile] [--jvm-flag=FLAG ...]; --profile starts the operator
 * with native memory tracking and performance data and saves, at the mark and at the end, a heap histogram after a
 * full collection, the heap's layout, the native memory summary and jstat -gc under target/perf/soak/.
 */
public final class SoakBenchmark {

    static final double RSS_DRIFT_LIMIT_PERCENT = 10;
    /** Pairs (a ModelServer and a BenchmarkRun) alive at once; older pairs are deleted. */
    static final int LIVE_PAIRS = 20;

    static final Duration PAIR_INTERVAL = Duration.ofSeconds(1);
    static final Duration RSS_SAMPLE_INTERVAL = Duration.ofSeconds(5);
    static final Duration SMOKE_DURATION = Duration.ofSeconds(30);
    static final Duration CLEANUP_TIMEOUT = Duration.ofMinutes(3);
    /** An external target no one listens on: its run gets a Job (and a pod) at once, which never runs without nodes. */
    static final String UNREACHABLE_URL = "http://127.0.0.1:9";

    /** The operator's reconcile gauges in Prometheus form: queued and executing reconciliations. */
    private static final Pattern QUEUE_GAUGE = Pattern.compile(
            "(?m)^(operator_sdk_reconciliations_(?:queue_size|executions)\\w*)(?:\\{[^}]*})? ([0-9.E+-]+)$");

    private static final Path OUTPUT = Path.of("target/perf");
    private static final String USAGE = "usage: soak.sh [MINUTES | smoke] [--profile] [--jvm-flag=FLAG ...]";
    /** The operator's extra JVM flags of a profiling run: native memory tracking and the counters jstat reads. */
    private static final List<String> PROFILE_JVM_FLAGS =
            List.of("-XX:NativeMemoryTracking=summary", "-XX:+UsePerfData");

    private SoakBenchmark() {}

    public static void main(String[] args) {
        try {
            System.exit(soak(args) ? 0 : 1);
        } catch (Exception e) {
            e.printStackTrace();
            System.exit(1);
        }
    }

    /** Returns false only when a full run misses a target; a smoke run prints its figures without judging them. */
    private static boolean soak(String[] args) throws Exception {
        String mode = null;
        boolean profile = false;
        List<String> jvmFlags = new ArrayList<>();
        for (String arg : args) {
            if (arg.equals("--profile")) {
                profile = true;
            } else if (arg.startsWith(MeasuredOperator.JVM_FLAG_OPTION)) {
                jvmFlags.add(MeasuredOperator.extraJvmFlag(arg));
            } else if (mode == null && !arg.startsWith("-")) {
                mode = arg;
            } else {
                throw new IllegalArgumentException(USAGE + "; unexpected '" + shorten(arg) + "'");
            }
        }
        boolean smoke = "smoke".equals(mode);
        Duration duration = smoke ? SMOKE_DURATION : Duration.ofMinutes(mode == null ? 10 : minutes(mode));
        if (profile) {
            jvmFlags.addAll(PROFILE_JVM_FLAGS);
        }
        Machine machine = Machine.current();
        System.out.println(machine.describe());
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("machine", machine.toJson());
        result.put("mode", smoke ? "smoke" : "full");
        result.put("durationSeconds", duration.toSeconds());
        result.put("livePairs", LIVE_PAIRS);
        result.put("extraJvmFlags", jvmFlags);
        Path work = OUTPUT.resolve("soak");
        Files.createDirectories(work);
        try (LocalControlPlane controlPlane = LocalControlPlane.start(work.toAbsolutePath())) {
            KubernetesClient client = controlPlane.client();
            ProjectCrds.install(client);
            OperatorScaleBenchmark.widenServiceRange(client);
            MeasuredOperator.createNamespaces(client, ScaleWorkload.NAMESPACE);
            Path log = work.resolve("operator.log");
            try (MeasuredOperator operator = MeasuredOperator.start(controlPlane.kubeconfig(), log, jvmFlags);
                    SeenNames jobs = new SeenNames(client.batch().v1().jobs().inNamespace(ScaleWorkload.NAMESPACE));
                    SeenNames pods = new SeenNames(client.pods().inNamespace(ScaleWorkload.NAMESPACE))) {
                operator.awaitReady(Duration.ofMinutes(2), log);
                operator.awaitLeadership(client);
                result.put("idleRssMiB", round(operator.memory().rssMiB()));
                Profiler profiler = profile ? new Profiler(operator, work) : null;
                loop(client, operator, duration, result, profiler);
                result.put("jobsSeen", jobs.count());
                result.put("podsSeen", pods.count());
                cleanUp(client, operator, result);
                result.put("rssAfterCleanupMiB", round(operator.memory().rssMiB()));
            }
        }
        result.put("loadAverageAtEnd", Machine.loadAverage());
        boolean met = judge(result);
        printTable(result, smoke);
        new ObjectMapper()
                .enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(OUTPUT.resolve("soak.json").toFile(), result);
        System.out.println("written: " + OUTPUT.resolve("soak.json"));
        return smoke || met;
    }

    private static long minutes(String argument) {
        try {
            long minutes = Long.parseLong(argument);
            if (minutes < 1 || minutes > 24 * 60) {
                throw new NumberFormatException();
            }
            return minutes;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "MINUTES must be a whole number from 1 to 1440 (or 'smoke'), got '" + shorten(argument) + "'");
        }
    }

    private static String shorten(String argument) {
        return argument.substring(0, Math.min(argument.length(), 40));
    }

    /**
     * Creates a ModelServer and a BenchmarkRun every {@link #PAIR_INTERVAL}, deleting the oldest pair beyond
     * {@link #LIVE_PAIRS}; every other run targets an external URL, so Jobs and pods come and go too. The operator's
     * RSS is sampled throughout; the mark is taken at one minute, or at a tenth of a shorter run.
     */
    private static void loop(
            KubernetesClient client,
            MeasuredOperator operator,
            Duration duration,
            Map<String, Object> result,
            Profiler profiler) {
        Duration mark = duration.dividedBy(10).compareTo(Duration.ofMinutes(1)) < 0
                ? duration.dividedBy(10)
                : Duration.ofMinutes(1);
        List<double[]> samples = new CopyOnWriteArrayList<>();
        long start = System.nanoTime();
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        sampler.scheduleAtFixedRate(
                () -> samples.add(new double[] {
                    (System.nanoTime() - start) / 1e9, operator.memory().rssMiB()
                }),
                0,
                RSS_SAMPLE_INTERVAL.toMillis(),
                TimeUnit.MILLISECONDS);
        Deque<List<HasMetadata>> live = new ArrayDeque<>();
        int created = 0;
        int deleted = 0;
        Double rssAtMark = null;
        long end = start + duration.toNanos();
        for (int index = 0; System.nanoTime() < end; index++) {
            long next = System.nanoTime() + PAIR_INTERVAL.toNanos();
            List<HasMetadata> pair = List.of(
                    client.resource(ScaleWorkload.modelServer(index)).create(),
                    client.resource(run(index)).create());
            live.addLast(pair);
            created += pair.size();
            while (live.size() > LIVE_PAIRS) {
                for (HasMetadata object : live.removeFirst()) {
                    client.resource(object).delete();
                    deleted++;
                }
            }
            if (rssAtMark == null && System.nanoTime() - start >= mark.toNanos()) {
                rssAtMark = operator.memory().rssMiB();
                if (profiler != null) {
                    profiler.snapshot("mark");
                }
            }
            MeasuredOperator.sleep(Duration.ofNanos(Math.max(0, next - System.nanoTime())));
        }
        sampler.shutdownNow();
        double rssAtEnd = operator.memory().rssMiB();
        if (profiler != null) {
            profiler.snapshot("end");
        }
        result.put("objectsCreated", created);
        result.put("objectsDeletedDuringLoop", deleted);
        result.put("rssMarkSeconds", mark.toSeconds());
        result.put("rssAtMarkMiB", round(rssAtMark == null ? rssAtEnd : rssAtMark));
        result.put("rssAtEndMiB", round(rssAtEnd));
        result.put(
                "rssMaxSampledMiB",
                round(samples.stream().mapToDouble(s -> s[1]).max().orElse(rssAtEnd)));
        result.put("peakRssMiB", round(operator.memory().peakRssMiB()));
        result.put(
                "rssDriftPercent",
                round(100 * (rssAtEnd - (double) result.get("rssAtMarkMiB")) / (double) result.get("rssAtMarkMiB")));
        result.put(
                "rssSamples",
                samples.stream().map(s -> List.of(round(s[0]), round(s[1]))).toList());
        result.put("operatorCpuSeconds", round(operator.cpuSeconds()));
    }

    /** The index's BenchmarkRun: even indexes wait for their ModelServer, odd ones target an external URL. */
    private static BenchmarkRun run(int index) {
        BenchmarkRun run = ScaleWorkload.benchmarkRun(index);
        if (index % 2 == 1) {
            run.getSpec().target = new BenchmarkTarget();
            run.getSpec().target.url = UNREACHABLE_URL;
            run.getSpec().target.model = "soak";
        }
        return run;
    }

    /**
     * Deletes every ModelServer and BenchmarkRun left, waits until they are gone and until the garbage collector has
     * removed their children (or the timeout), then counts orphans by kind and the operator's queue.
     */
    private static void cleanUp(KubernetesClient client, MeasuredOperator operator, Map<String, Object> result) {
        int remaining = client.resources(ModelServer.class)
                        .inNamespace(ScaleWorkload.NAMESPACE)
                        .list()
                        .getItems()
                        .size()
                + client.resources(BenchmarkRun.class)
                        .inNamespace(ScaleWorkload.NAMESPACE)
                        .list()
                        .getItems()
                        .size();
        client.resources(ModelServer.class).inNamespace(ScaleWorkload.NAMESPACE).delete();
        client.resources(BenchmarkRun.class)
                .inNamespace(ScaleWorkload.NAMESPACE)
                .delete();
        result.put("objectsDeletedAtEnd", remaining);
        long start = System.nanoTime();
        long deadline = start + CLEANUP_TIMEOUT.toNanos();
        Map<String, Integer> orphans = orphans(client);
        while (System.nanoTime() < deadline && (owners(client) > 0 || total(orphans) > 0)) {
            MeasuredOperator.sleep(Duration.ofSeconds(1));
            orphans = orphans(client);
        }
        result.put("cleanupSeconds", round((System.nanoTime() - start) / 1e9));
        result.put("ownersLeft", owners(client));
        result.put("orphans", orphans);
        result.put("orphansTotal", total(orphans));
        Map<String, Double> gauges = queue(operator);
        while (System.nanoTime() < deadline && (sum(gauges, "queue_size") > 0 || sum(gauges, "executions") > 0)) {
            MeasuredOperator.sleep(Duration.ofSeconds(1));
            gauges = queue(operator);
        }
        result.put("queueGauges", gauges);
        result.put("queueAtEnd", gauges.isEmpty() ? null : sum(gauges, "queue_size"));
        result.put("executingAtEnd", gauges.isEmpty() ? null : sum(gauges, "executions"));
    }

    private static int owners(KubernetesClient client) {
        return client.resources(ModelServer.class)
                        .inNamespace(ScaleWorkload.NAMESPACE)
                        .list()
                        .getItems()
                        .size()
                + client.resources(BenchmarkRun.class)
                        .inNamespace(ScaleWorkload.NAMESPACE)
                        .list()
                        .getItems()
                        .size();
    }

    /**
     * Objects in the namespace the operator made (its managed-by label) or owned by an object that no longer exists,
     * by kind. With every ModelServer and BenchmarkRun deleted, each is an orphan.
     */
    static Map<String, Integer> orphans(KubernetesClient client) {
        String namespace = ScaleWorkload.NAMESPACE;
        Map<String, List<? extends HasMetadata>> byKind = new LinkedHashMap<>();
        byKind.put(
                "Deployment",
                client.apps().deployments().inNamespace(namespace).list().getItems());
        byKind.put("Service", client.services().inNamespace(namespace).list().getItems());
        byKind.put(
                "Job", client.batch().v1().jobs().inNamespace(namespace).list().getItems());
        byKind.put("Pod", client.pods().inNamespace(namespace).list().getItems());
        byKind.put(
                "ConfigMap", client.configMaps().inNamespace(namespace).list().getItems());
        byKind.put(
                "PersistentVolumeClaim",
                client.persistentVolumeClaims().inNamespace(namespace).list().getItems());
        byKind.put(
                "ModelServer",
                client.resources(ModelServer.class)
                        .inNamespace(namespace)
                        .list()
                        .getItems());
        byKind.put(
                "BenchmarkRun",
                client.resources(BenchmarkRun.class)
                        .inNamespace(namespace)
                        .list()
                        .getItems());
        Set<String> liveUids = new HashSet<>();
        byKind.values()
                .forEach(objects ->
                        objects.forEach(o -> liveUids.add(o.getMetadata().getUid())));
        Map<String, Integer> orphans = new LinkedHashMap<>();
        byKind.forEach((kind, objects) -> {
            if (!kind.equals("ModelServer") && !kind.equals("BenchmarkRun")) {
                orphans.put(kind, (int)
                        objects.stream().filter(o -> isOrphan(o, liveUids)).count());
            }
        });
        return orphans;
    }

    private static boolean isOrphan(HasMetadata object, Set<String> liveUids) {
        Map<String, String> labels = object.getMetadata().getLabels();
        boolean operatorMade = labels != null && Labels.OPERATOR.equals(labels.get(Labels.MANAGED_BY));
        List<OwnerReference> owners = object.getMetadata().getOwnerReferences();
        boolean ownerGone = owners != null && owners.stream().anyMatch(owner -> !liveUids.contains(owner.getUid()));
        boolean ownedByLiveOwner = owners != null && !owners.isEmpty() && !ownerGone;
        return ownerGone || (operatorMade && !ownedByLiveOwner);
    }

    private static Map<String, Double> queue(MeasuredOperator operator) {
        Map<String, Double> gauges = new LinkedHashMap<>();
        Matcher line = QUEUE_GAUGE.matcher(operator.metrics());
        while (line.find()) {
            gauges.merge(line.group(1), Double.parseDouble(line.group(2)), Double::sum);
        }
        return gauges;
    }

    /** The sum of the gauges whose name has that part (queue_size, executions), over both controllers. */
    private static double sum(Map<String, Double> gauges, String part) {
        return gauges.entrySet().stream()
                .filter(gauge -> gauge.getKey().contains(part))
                .mapToDouble(Map.Entry::getValue)
                .sum();
    }

    private static int total(Map<String, Integer> counts) {
        return counts.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** Records PASS or MISS per target in the result; true when all are met. */
    private static boolean judge(Map<String, Object> result) {
        Map<String, String> verdicts = new LinkedHashMap<>();
        verdicts.put("orphans 0", (int) result.get("orphansTotal") == 0 ? "PASS" : "MISS");
        verdicts.put(
                "RSS drift within " + (int) RSS_DRIFT_LIMIT_PERCENT + " %",
                Math.abs((double) result.get("rssDriftPercent")) <= RSS_DRIFT_LIMIT_PERCENT ? "PASS" : "MISS");
        Object queue = result.get("queueAtEnd");
        Object executing = result.get("executingAtEnd");
        verdicts.put(
                "queue 0, none executing",
                queue != null && (double) queue == 0 && (double) executing == 0 ? "PASS" : "MISS");
        result.put("verdicts", verdicts);
        return !verdicts.containsValue("MISS");
    }

    @SuppressWarnings("unchecked")
    private static void printTable(Map<String, Object> r, boolean smoke) {
        String format = "%-34s %s%n";
        System.out.println();
        System.out.printf(format, "mode", r.get("mode") + (smoke ? " (targets not judged)" : ""));
        System.out.printf(format, "duration s", r.get("durationSeconds"));
        System.out.printf(format, "objects created", r.get("objectsCreated"));
        System.out.printf(
                format,
                "objects deleted (loop + end)",
                r.get("objectsDeletedDuringLoop") + " + " + r.get("objectsDeletedAtEnd"));
        System.out.printf(format, "Jobs / pods seen", r.get("jobsSeen") + " / " + r.get("podsSeen"));
        System.out.printf(format, "RSS idle MiB", r.get("idleRssMiB"));
        System.out.printf(format, "RSS at " + r.get("rssMarkSeconds") + " s MiB", r.get("rssAtMarkMiB"));
        System.out.printf(format, "RSS at end MiB", r.get("rssAtEndMiB"));
        System.out.printf(
                format, "RSS max sampled / peak MiB", r.get("rssMaxSampledMiB") + " / " + r.get("peakRssMiB"));
        System.out.printf(format, "RSS drift %", r.get("rssDriftPercent"));
        System.out.printf(format, "cleanup s", r.get("cleanupSeconds"));
        System.out.printf(format, "orphans", r.get("orphans"));
        System.out.printf(format, "queue / executing at end", r.get("queueAtEnd") + " / " + r.get("executingAtEnd"));
        System.out.printf(format, "reconcile gauges", r.get("queueGauges"));
        System.out.printf(format, "load average at end", r.get("loadAverageAtEnd"));
        ((Map<String, String>) r.get("verdicts"))
                .forEach((target, verdict) ->
                        System.out.printf(format, target, smoke ? verdict + " (not judged)" : verdict));
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }

    /**
     * Saves the operator's memory at a point of the soak: the histogram first, since it collects the whole heap, then
     * the heap's layout, the native memory summary and the collector's counters, each to profile-POINT-WHAT.txt.
     */
    private record Profiler(MeasuredOperator operator, Path directory) {

        void snapshot(String point) {
            try {
                Files.writeString(
                        directory.resolve("profile-" + point + "-histogram.txt"), operator.jcmd("GC.class_histogram"));
                Files.writeString(directory.resolve("profile-" + point + "-heap.txt"), operator.jcmd("GC.heap_info"));
                Files.writeString(
                        directory.resolve("profile-" + point + "-nmt.txt"),
                        operator.jcmd("VM.native_memory", "summary"));
                Files.writeString(directory.resolve("profile-" + point + "-jstat.txt"), operator.jstat("-gc"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** Names of the objects a watch has seen, to show the soak made Jobs and pods come and go. */
    private static final class SeenNames implements AutoCloseable {

        private final Set<String> names = ConcurrentHashMap.newKeySet();
        private final SharedIndexInformer<?> informer;

        <T extends HasMetadata> SeenNames(Informable<T> source) {
            informer = source.inform(new ResourceEventHandler<T>() {
                @Override
                public void onAdd(T object) {
                    names.add(object.getMetadata().getName());
                }

                @Override
                public void onUpdate(T before, T after) {}

                @Override
                public void onDelete(T object, boolean unknownFinalState) {}
            });
        }

        int count() {
            return names.size();
        }

        @Override
        public void close() {
            informer.close();
        }
    }
}
