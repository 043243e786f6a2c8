package dev.llmops.serving.perf;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.BenchmarkTarget;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.RetentionSpec;
import dev.llmops.serving.e2e.support.LocalControlPlane;
import dev.llmops.serving.e2e.support.ProjectCrds;
import dev.llmops.serving.e2e.support.S3Store;
import dev.llmops.serving.operator.toolkit.Owners;
import dev.llmops.serving.report.RunLoader;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Retention soak on the real control plane: BenchmarkRuns finish one after another, each with a samples ConfigMap and
 * a Job, under {@code keepLast: 50}, against the packaged operator archiving them to an S3-compatible store (S3Proxy).
 * The number of runs, ConfigMaps, Jobs and pods etcd holds and the operator's memory are sampled as runs accumulate;
 * both must stay flat, and every run must reach the archive. Runs are finished by this harness (it writes the status a
 * runner's summary gives, from a recorded run, and the samples ConfigMap), not by benchmark pods: what is measured is
 * what the operator keeps and deletes. Prints a table and writes target/perf/retention-soak.json.
 * Run it with hack/perf/retention-soak.sh [RUNS | smoke].
 */
public final class RetentionSoakBenchmark {

    static final int KEEP_LAST = 50;
    static final int FULL_RUNS = 1000;
    static final int SMOKE_RUNS = 60;
    /** Incompressible bytes standing in for the samples of a five-level sweep (about 1500 requests). */
    static final int SAMPLES_BYTES = 160 * 1024;
    /** Growth of a count or of the operator's RSS from the mark to the end that still counts as flat. */
    static final double FLAT_LIMIT_PERCENT = 10;

    static final Duration JOB_TIMEOUT = Duration.ofSeconds(60);
    static final Duration SETTLE_TIMEOUT = Duration.ofMinutes(3);
    private static final String BUCKET = "benchmark-results";
    private static final String UNREACHABLE_URL = "http://127.0.0.1:9";
    private static final Path RECORDED = Path.of("src/test/resources/report/benchmarkrun-autoregressive.yaml");
    private static final Path OUTPUT = Path.of("target/perf");
    private static final String USAGE = "usage: retention-soak.sh [RUNS | smoke]";

    private RetentionSoakBenchmark() {}

    public static void main(String[] args) {
        try {
            System.exit(soak(args) ? 0 : 1);
        } catch (Exception e) {
            e.printStackTrace();
            System.exit(1);
        }
    }

    private static boolean soak(String[] args) throws Exception {
        if (args.length > 1) {
            throw new IllegalArgumentException(USAGE);
        }
        boolean smoke = args.length == 1 && args[0].equals("smoke");
        int runs = smoke ? SMOKE_RUNS : args.length == 1 ? runs(args[0]) : FULL_RUNS;
        Machine machine = Machine.current();
        System.out.println(machine.describe());
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("machine", machine.toJson());
        result.put("mode", smoke ? "smoke" : "full");
        result.put("runs", runs);
        result.put("keepLast", KEEP_LAST);
        result.put("samplesBytesPerRun", SAMPLES_BYTES);
        Path work = OUTPUT.resolve("retention-soak").toAbsolutePath();
        Files.createDirectories(work);
        BenchmarkRunStatus recorded = new RunLoader()
                .load(Files.readString(RECORDED), RECORDED.toString())
                .getStatus();
        try (LocalControlPlane controlPlane = LocalControlPlane.start(work);
                S3Store store = S3Store.start(work.resolve("s3"))) {
            store.createBucket(BUCKET);
            KubernetesClient client = controlPlane.client();
            ProjectCrds.install(client);
            MeasuredOperator.createNamespaces(client, ScaleWorkload.NAMESPACE);
            Path log = work.resolve("operator.log");
            Map<String, String> archive = Map.of(
                    "LLMOPS_RESULTS_S3_ENDPOINT",
                    store.endpoint().toString(),
                    "LLMOPS_RESULTS_S3_BUCKET",
                    BUCKET,
                    "LLMOPS_RESULTS_S3_PATH_STYLE",
                    "true",
                    "AWS_ACCESS_KEY_ID",
                    S3Store.ACCESS_KEY,
                    "AWS_SECRET_ACCESS_KEY",
                    S3Store.SECRET_KEY);
            try (MeasuredOperator operator =
                    MeasuredOperator.start(controlPlane.kubeconfig(), log, List.of(), archive)) {
                operator.awaitReady(Duration.ofMinutes(2), log);
                operator.awaitLeadership(client);
                List<Map<String, Object>> samples = new ArrayList<>();
                samples.add(sample(client, operator, 0));
                long start = System.nanoTime();
                Random random = new Random(runs);
                for (int index = 0; index < runs; index++) {
                    finish(client, create(client, index), recorded, random);
                    if ((index + 1) % KEEP_LAST == 0 || index + 1 == runs) {
                        samples.add(sample(client, operator, index + 1));
                    }
                }
                result.put("loopSeconds", round((System.nanoTime() - start) / 1e9));
                long settle = System.nanoTime();
                while (System.nanoTime() - settle < SETTLE_TIMEOUT.toNanos()
                        && (count(client, "BenchmarkRun") > KEEP_LAST || archived(store) < runs)) {
                    MeasuredOperator.sleep(Duration.ofSeconds(1));
                }
                result.put("settleSeconds", round((System.nanoTime() - settle) / 1e9));
                samples.add(sample(client, operator, runs));
                result.put("samples", samples);
                result.put("archivedRecords", archived(store));
                result.put("operatorCpuSeconds", round(operator.cpuSeconds()));
                result.put("peakRssMiB", round(operator.memory().peakRssMiB()));
            }
        }
        boolean met = judge(result, runs);
        printTable(result);
        new ObjectMapper()
                .enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(OUTPUT.resolve("retention-soak.json").toFile(), result);
        System.out.println("written: " + OUTPUT.resolve("retention-soak.json"));
        return smoke || met;
    }

    private static int runs(String argument) {
        try {
            int runs = Integer.parseInt(argument);
            if (runs < KEEP_LAST * 2 || runs > 100_000) {
                throw new NumberFormatException();
            }
            return runs;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    USAGE + "; RUNS must be a whole number from " + KEEP_LAST * 2 + " to 100000");
        }
    }

    /** A run against a URL no one listens on: the operator gives it a Job (and a pod) at once. */
    private static String create(KubernetesClient client, int index) {
        BenchmarkRun run = ScaleWorkload.benchmarkRun(index);
        run.getMetadata().setName("nightly-%05d".formatted(index));
        run.getSpec().target = new BenchmarkTarget();
        run.getSpec().target.url = UNREACHABLE_URL;
        run.getSpec().target.model = "soak";
        run.getSpec().retention = new RetentionSpec();
        run.getSpec().retention.keepLast = KEEP_LAST;
        client.resource(run).create();
        return run.getMetadata().getName();
    }

    /**
     * Once the operator has made the run's Job: the samples ConfigMap the operator writes from the runner's log, owned
     * by the run, and the status of the recorded run, Succeeded now.
     */
    private static void finish(KubernetesClient client, String name, BenchmarkRunStatus recorded, Random random)
            throws Exception {
        var runs = client.resources(BenchmarkRun.class).inNamespace(ScaleWorkload.NAMESPACE);
        long deadline = System.nanoTime() + JOB_TIMEOUT.toNanos();
        BenchmarkRun run = runs.withName(name).get();
        while (run.getStatus() == null || run.getStatus().jobName == null) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the operator made no Job for " + name + " in " + JOB_TIMEOUT);
            }
            MeasuredOperator.sleep(Duration.ofMillis(50));
            run = runs.withName(name).get();
        }
        byte[] gzip = new byte[SAMPLES_BYTES];
        random.nextBytes(gzip);
        String samples = name + "-samples";
        client.resource(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName(samples)
                        .withNamespace(ScaleWorkload.NAMESPACE)
                        .addToOwnerReferences(Owners.controllerReference(run))
                        .endMetadata()
                        .withImmutable(true)
                        .addToBinaryData("samples.json.gz", Base64.getEncoder().encodeToString(gzip))
                        .build())
                .create();
        String sha256 =
                HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(gzip));
        for (int attempt = 0; ; attempt++) {
            BenchmarkRunStatus status = new ObjectMapper().convertValue(recorded, BenchmarkRunStatus.class);
            status.phase = BenchmarkRunPhase.Succeeded;
            status.jobName = run.getStatus().jobName;
            status.target = run.getStatus().target;
            status.completionTime = Instant.now().toString();
            status.samples = samples;
            status.samplesSha256 = sha256;
            status.observedGeneration = run.getMetadata().getGeneration();
            run.setStatus(status);
            try {
                client.resource(run).updateStatus();
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt > 20) {
                    throw e;
                }
                run = runs.withName(name).get();
            }
        }
    }

    /** The workload's kinds etcd holds (lists read from etcd) and the operator's RSS, once {@code finished} ran. */
    private static Map<String, Object> sample(KubernetesClient client, MeasuredOperator operator, int finished) {
        Map<String, Object> sample = new LinkedHashMap<>();
        sample.put("finished", finished);
        for (String kind : List.of("BenchmarkRun", "ConfigMap", "Job", "Pod")) {
            sample.put(kind, count(client, kind));
        }
        sample.put("rssMiB", round(operator.memory().rssMiB()));
        return sample;
    }

    private static int count(KubernetesClient client, String kind) {
        String namespace = ScaleWorkload.NAMESPACE;
        return switch (kind) {
            case "BenchmarkRun" ->
                client.resources(BenchmarkRun.class)
                        .inNamespace(namespace)
                        .list()
                        .getItems()
                        .size();
            case "ConfigMap" ->
                client.configMaps().inNamespace(namespace).list().getItems().size();
            case "Job" ->
                client.batch()
                        .v1()
                        .jobs()
                        .inNamespace(namespace)
                        .list()
                        .getItems()
                        .size();
            case "Pod" -> client.pods().inNamespace(namespace).list().getItems().size();
            default -> throw new IllegalArgumentException(kind);
        };
    }

    private static long archived(S3Store store) {
        return store.keys(BUCKET, "benchmarkruns/" + ScaleWorkload.NAMESPACE + "/").stream()
                .filter(key -> key.endsWith("/run.json"))
                .count();
    }

    /**
     * Flat: at the end at most keepLast runs (and their ConfigMaps and Jobs) are left, every run was archived, and
     * from the mark (once twice keepLast runs had finished, or all of a shorter run) to the end neither the counts
     * nor the operator's RSS grew by more than {@link #FLAT_LIMIT_PERCENT} %.
     */
    @SuppressWarnings("unchecked")
    private static boolean judge(Map<String, Object> result, int runs) {
        List<Map<String, Object>> samples = (List<Map<String, Object>>) result.get("samples");
        Map<String, Object> mark = samples.stream()
                .filter(sample -> (int) sample.get("finished") >= Math.min(2 * KEEP_LAST, runs))
                .findFirst()
                .orElseThrow();
        Map<String, Object> end = samples.get(samples.size() - 1);
        boolean met = true;
        met &= verdict("runs left at the end", (int) end.get("BenchmarkRun") <= KEEP_LAST, end.get("BenchmarkRun"));
        met &= verdict(
                "every run archived", (long) result.get("archivedRecords") == runs, result.get("archivedRecords"));
        for (String kind : List.of("BenchmarkRun", "ConfigMap", "Job")) {
            int at = (int) mark.get(kind);
            int max = samples.subList(samples.indexOf(mark), samples.size()).stream()
                    .mapToInt(sample -> (int) sample.get(kind))
                    .max()
                    .orElse(at);
            met &= verdict(kind + " count flat after the mark", max <= at * (1 + FLAT_LIMIT_PERCENT / 100), max);
        }
        double rssAtMark = (double) mark.get("rssMiB");
        double rssAtEnd = (double) end.get("rssMiB");
        double drift = 100 * (rssAtEnd - rssAtMark) / rssAtMark;
        result.put("rssDriftPercent", round(drift));
        met &= verdict("operator RSS flat after the mark", drift <= FLAT_LIMIT_PERCENT, round(drift) + " %");
        return met;
    }

    private static boolean verdict(String target, boolean met, Object measured) {
        System.out.printf("%-40s %-12s %s%n", target, measured, met ? "met" : "MISSED");
        return met;
    }

    @SuppressWarnings("unchecked")
    private static void printTable(Map<String, Object> result) {
        System.out.printf(
                "%n%d runs under keepLast %d, %d KiB of samples each; loop %s s, settled in %s s%n",
                result.get("runs"),
                KEEP_LAST,
                SAMPLES_BYTES / 1024,
                result.get("loopSeconds"),
                result.get("settleSeconds"));
        System.out.printf(
                "%9s %13s %10s %5s %5s %8s%n", "finished", "BenchmarkRun", "ConfigMap", "Job", "Pod", "RSS MiB");
        for (Map<String, Object> sample : (List<Map<String, Object>>) result.get("samples")) {
            System.out.printf(
                    "%9s %13s %10s %5s %5s %8s%n",
                    sample.get("finished"),
                    sample.get("BenchmarkRun"),
                    sample.get("ConfigMap"),
                    sample.get("Job"),
                    sample.get("Pod"),
                    sample.get("rssMiB"));
        }
        System.out.printf(
                "archived records %s; operator CPU %s s; peak RSS %s MiB%n",
                result.get("archivedRecords"), result.get("operatorCpuSeconds"), result.get("peakRssMiB"));
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }
}
