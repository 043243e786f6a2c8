package dev.llmops.serving.perf;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperimentPhase;
import dev.llmops.serving.e2e.support.LocalControlPlane;
import dev.llmops.serving.e2e.support.ProjectCrds;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The operator's own overhead per ServingExperiment variant on the real control plane, with the packaged operator and
 * the kubelet stand-in: from the last serving pod of one variant gone to the next variant's ModelServer created (the
 * hand-over of the pool), and from a variant's ModelServer Ready to its BenchmarkRun created and to that run's Job
 * created. Every moment is when a watch of this process saw it, so the figures include the watch latency the
 * operator's own informers have. Prints a table and PASS or MISS against the target; writes
 * target/perf/experiment-overhead.json; run it with hack/perf/experiment-overhead.sh [variants].
 */
public final class ExperimentOverheadBenchmark {

    static final String NAMESPACE = "experiment-overhead";
    static final String EXPERIMENT = "overhead";
    static final double TARGET_SECONDS = 5.0;
    static final Duration EXPERIMENT_TIMEOUT = Duration.ofMinutes(15);

    private ExperimentOverheadBenchmark() {}

    public static void main(String[] args) {
        try {
            System.exit(benchmark(args) ? 0 : 1);
        } catch (Exception e) {
            e.printStackTrace();
            System.exit(1);
        }
    }

    private static boolean benchmark(String[] args) throws Exception {
        int variants = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        if (variants < 2) {
            throw new IllegalArgumentException("a hand-over needs at least 2 variants");
        }
        Machine machine = Machine.current();
        System.out.println(machine.describe());
        Path work = OperatorScaleBenchmark.OUTPUT.resolve("experiment-overhead");
        Files.createDirectories(work);
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("machine", machine.toJson());
        report.put("variants", variants);
        try (LocalControlPlane controlPlane = LocalControlPlane.start(work.toAbsolutePath())) {
            KubernetesClient client = controlPlane.client();
            ProjectCrds.install(client);
            MeasuredOperator.createNamespaces(client, NAMESPACE);
            Seen<Pod> podsGone = Seen.deleted(client, Pod.class);
            Seen<ModelServer> serversCreated = Seen.added(client, ModelServer.class);
            Seen<ModelServer> serversReady =
                    Seen.when(client, ModelServer.class, TimeToReadyBenchmark::modelServerReady);
            Seen<BenchmarkRun> runsCreated = Seen.added(client, BenchmarkRun.class);
            Seen<Job> jobsCreated = Seen.added(client, Job.class);
            Path log = work.resolve("operator.log");
            try (MeasuredOperator operator = MeasuredOperator.start(controlPlane.kubeconfig(), log, List.of())) {
                operator.awaitReady(Duration.ofMinutes(2), log);
                operator.awaitLeadership(client);
                client.resource(client.getKubernetesSerialization()
                                .unmarshal(manifest(variants), ServingExperiment.class))
                        .inNamespace(NAMESPACE)
                        .create();
                ScaleObserver.await(
                        "the experiment to succeed",
                        () -> {
                            ServingExperiment sx = client.resources(ServingExperiment.class)
                                    .inNamespace(NAMESPACE)
                                    .withName(EXPERIMENT)
                                    .get();
                            return sx.getStatus() != null && sx.getStatus().phase == ServingExperimentPhase.Succeeded
                                    ? 1
                                    : 0;
                        },
                        1,
                        EXPERIMENT_TIMEOUT);
            }
            List<Double> handOvers = new ArrayList<>();
            List<Double> readyToRun = new ArrayList<>();
            List<Double> readyToJob = new ArrayList<>();
            for (int i = 0; i < variants; i++) {
                String server = EXPERIMENT + "-v" + i;
                if (i > 0) {
                    String previous = EXPERIMENT + "-v" + (i - 1);
                    long lastPodGone = podsGone.moments().entrySet().stream()
                            .filter(e -> e.getKey().startsWith(previous + "-"))
                            .mapToLong(Map.Entry::getValue)
                            .max()
                            .orElseThrow(() -> new IllegalStateException("no pod of " + previous + " seen deleted"));
                    handOvers.add(seconds(lastPodGone, serversCreated.at(server)));
                }
                readyToRun.add(seconds(serversReady.at(server), runsCreated.at(server)));
                readyToJob.add(seconds(serversReady.at(server), jobsCreated.at(server + "-bench")));
            }
            report.put("podsGoneToNextServerCreated", summary(handOvers));
            report.put("readyToRunCreated", summary(readyToRun));
            report.put("readyToJobCreated", summary(readyToJob));
        }
        report.put("loadAverageAtEnd", Machine.loadAverage());
        System.out.println();
        System.out.printf("%-48s %5s %9s %9s%n", "STEP", "N", "MEDIAN s", "MAX s");
        printRow("previous variant's pods gone -> next ModelServer", report.get("podsGoneToNextServerCreated"));
        printRow("ModelServer Ready -> its BenchmarkRun", report.get("readyToRunCreated"));
        printRow("ModelServer Ready -> its run's Job", report.get("readyToJobCreated"));
        Path output = OperatorScaleBenchmark.OUTPUT.resolve("experiment-overhead.json");
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(output.toFile(), report);
        System.out.println("written: " + output);
        double worst = List.of("podsGoneToNextServerCreated", "readyToJobCreated").stream()
                .mapToDouble(key -> (double) ((Map<?, ?>) report.get(key)).get("maxSeconds"))
                .max()
                .orElseThrow();
        boolean met = worst <= TARGET_SECONDS;
        System.out.printf(
                "%s: every hand-over and every Ready-to-Job within %.1f s (worst %.2f s)%n",
                met ? "PASS" : "MISS", TARGET_SECONDS, worst);
        return met;
    }

    /** When this process's watch first saw each object of a kind pass a test, by name, in nanoseconds. */
    private record Seen<T extends HasMetadata>(Map<String, Long> moments, SharedIndexInformer<T> informer) {

        static <T extends HasMetadata> Seen<T> added(KubernetesClient client, Class<T> type) {
            return when(client, type, resource -> true);
        }

        static <T extends HasMetadata> Seen<T> when(KubernetesClient client, Class<T> type, Predicate<T> test) {
            Map<String, Long> moments = new ConcurrentHashMap<>();
            SharedIndexInformer<T> informer = client.resources(type)
                    .inNamespace(NAMESPACE)
                    .inform(new ResourceEventHandler<>() {
                        @Override
                        public void onAdd(T resource) {
                            record(resource);
                        }

                        @Override
                        public void onUpdate(T before, T after) {
                            record(after);
                        }

                        @Override
                        public void onDelete(T resource, boolean unknownFinalState) {}

                        private void record(T resource) {
                            if (test.test(resource)) {
                                moments.putIfAbsent(resource.getMetadata().getName(), System.nanoTime());
                            }
                        }
                    });
            return new Seen<>(moments, informer);
        }

        static <T extends HasMetadata> Seen<T> deleted(KubernetesClient client, Class<T> type) {
            Map<String, Long> moments = new ConcurrentHashMap<>();
            SharedIndexInformer<T> informer = client.resources(type)
                    .inNamespace(NAMESPACE)
                    .withLabel(Labels.MODEL_SERVER)
                    .inform(new ResourceEventHandler<>() {
                        @Override
                        public void onAdd(T resource) {}

                        @Override
                        public void onUpdate(T before, T after) {}

                        @Override
                        public void onDelete(T resource, boolean unknownFinalState) {
                            moments.putIfAbsent(resource.getMetadata().getName(), System.nanoTime());
                        }
                    });
            return new Seen<>(moments, informer);
        }

        long at(String name) {
            Long moment = moments.get(name);
            if (moment == null) {
                throw new IllegalStateException(name + " never seen");
            }
            return moment;
        }
    }

    private static double seconds(long fromNanos, long toNanos) {
        return Math.round((toNanos - fromNanos) / 1e7) / 100.0;
    }

    private static Map<String, Object> summary(List<Double> seconds) {
        List<Double> sorted = seconds.stream().sorted().toList();
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("n", n);
        summary.put("medianSeconds", Math.round(median * 100) / 100.0);
        summary.put("maxSeconds", sorted.get(n - 1));
        summary.put("seconds", seconds);
        return summary;
    }

    @SuppressWarnings("unchecked")
    private static void printRow(String step, Object summary) {
        Map<String, Object> s = (Map<String, Object>) summary;
        System.out.printf("%-48s %5s %9s %9s%n", step, s.get("n"), s.get("medianSeconds"), s.get("maxSeconds"));
    }

    /** Variants v0..v(n-1) of one 8-GPU server on an SM120 node, each a few requests at concurrency 1. */
    private static String manifest(int variants) {
        String variantList = IntStream.range(0, variants)
                .mapToObj(i -> "    - name: v" + i + "\n")
                .collect(Collectors.joining());
        return """
                apiVersion: serving.llmops.dev/v1alpha1
                kind: ServingExperiment
                metadata:
                  name: %s
                spec:
                  server:
                    model:
                      path: Qwen/Qwen3-8B
                    accelerator:
                      computeMajor: 12
                      gpusPerReplica: 8
                    parallelism:
                      tp: 8
                    resources:
                      cpu: "4"
                      memory: 32Gi
                    sharedMemorySize: 1Gi
                  variants:
                %s  benchmark:
                    warmup:
                      requests: 1
                      maxTokens: 8
                    singleRequest:
                      prompts: []
                    sweep:
                      concurrency: [1]
                      requestsPerLevel: 4
                    sampling:
                      maxTokens: 16
                """.formatted(EXPERIMENT, variantList);
    }
}
