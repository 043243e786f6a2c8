package dev.llmops.serving.helm;

import static org.awaitility.Awaitility.await;

import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BaselineComparison;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.LatencyStats;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageSpeedup;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.operator.benchmark.BenchmarkMetrics;
import dev.llmops.serving.operator.toolkit.Conditions;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The sample names the running operator serves on /q/metrics once each kind of its meters exists: a ModelServer and a
 * BenchmarkRun reconciled (the controllers' counters and timers, the condition gauges) and a finished run's results
 * and comparisons published. Read from a real scrape, so the names are what Prometheus stores, suffixes included.
 */
final class OperatorScrape {

    private static final Duration SETTLE = Duration.ofSeconds(60);
    private static final int MAX_SCRAPE_BYTES = 8 * 1024 * 1024;
    private static final String NAMESPACE = "monitoring-names";

    private OperatorScrape() {}

    /**
     * Creates the resources, the ModelServer's first reconcile failing on its Deployment with a 403, an error worth a
     * retry (the client itself retries a 5xx, and a 422 fails the server at once without a failed reconcile),
     * waits until every kind of meter is in the scrape, and returns the sample names.
     */
    static Set<String> sampleNames(KubernetesServer api, BenchmarkMetrics results, URI metrics) throws IOException {
        KubernetesClient client = api.getClient();
        api.expect()
                .post()
                .withPath("/apis/apps/v1/namespaces/" + NAMESPACE + "/deployments")
                .andReturn(403, "forbidden once")
                .once();
        client.resource(example(client, "small-model-b200.yaml", ModelServer.class))
                .create();
        client.resource(example(client, "benchmark-small-model.yaml", BenchmarkRun.class))
                .create();
        results.publish(finished());
        results.publishComparisons(finished());
        await().atMost(SETTLE).until(() -> {
            String scrape = scrape(metrics);
            return scrape.contains("kind=\"BenchmarkRun\"")
                    && scrape.contains("kind=\"ModelServer\",name=")
                    && scrape.contains("operator_sdk_reconciliations_failed_total");
        });
        return names(scrape(metrics));
    }

    /** Sample names of a Prometheus text exposition: each line that is not a comment, up to its labels or value. */
    static Set<String> names(String exposition) {
        Set<String> names = new TreeSet<>();
        exposition
                .lines()
                .filter(line -> !line.isBlank() && !line.startsWith("#"))
                .map(line -> line.split("[{ ]", 2)[0])
                .forEach(names::add);
        return names;
    }

    private static String scrape(URI metrics) throws IOException {
        try {
            // HTTP/1.1 as Prometheus scrapes: the JDK client's h2c upgrade against the management endpoint can read the
            // plain-text answer as HTTP/2 frames.
            HttpResponse<InputStream> response = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .build()
                    .send(
                            HttpRequest.newBuilder(metrics)
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream body = response.body()) {
                byte[] bytes = body.readNBytes(MAX_SCRAPE_BYTES);
                if (response.statusCode() != 200) {
                    throw new IOException(metrics + " answered " + response.statusCode());
                }
                return new String(bytes, StandardCharsets.UTF_8);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while scraping " + metrics, e);
        }
    }

    private static <T extends HasMetadata> T example(KubernetesClient client, String file, Class<T> type)
            throws IOException {
        try (InputStream in = Files.newInputStream(Path.of("deploy/examples", file))) {
            T resource = client.getKubernetesSerialization().unmarshal(in, type);
            resource.getMetadata().setNamespace(NAMESPACE);
            return resource;
        }
    }

    /** A run with the results and comparisons a succeeded run reports, regressed against its reference. */
    private static BenchmarkRun finished() {
        BenchmarkRun run = new BenchmarkRun();
        run.setMetadata(new ObjectMetaBuilder()
                .withName("finished")
                .withNamespace(NAMESPACE)
                .build());
        BenchmarkRunStatus status = new BenchmarkRunStatus();
        StageResult stage = new StageResult();
        stage.name = "c8";
        stage.concurrency = 8;
        stage.outputTokensPerSecond = 800.0;
        stage.ttftMillis = latency(120.0);
        stage.tpotMillis = latency(20.0);
        status.stages = List.of(stage);
        Conditions.systemUtc()
                .set(status.conditions, ConditionTypes.REGRESSED, Conditions.TRUE, "Slower", "c8 is slower", 1L);
        StageSpeedup speedup = new StageSpeedup();
        speedup.name = "c8";
        speedup.throughputSpeedup = 0.8;
        BaselineComparison comparison = new BaselineComparison();
        comparison.stages = List.of(speedup);
        status.referenceComparison = comparison;
        status.comparison = comparison;
        run.setStatus(status);
        return run;
    }

    private static LatencyStats latency(double millis) {
        LatencyStats stats = new LatencyStats();
        stats.mean = millis;
        stats.p50 = millis;
        stats.p90 = millis;
        stats.p99 = millis;
        return stats;
    }
}
