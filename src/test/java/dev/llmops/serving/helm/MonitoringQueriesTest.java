package dev.llmops.serving.helm;

import dev.llmops.serving.benchmark.BenchmarkMetrics;
import io.javaoperatorsdk.operator.Operator;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.net.URI;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithKubernetesTestServer(crud = true)
class MonitoringQueriesTest {

    @KubernetesTestServer
    KubernetesServer api;

    @Inject
    Operator operator;

    @Inject
    BenchmarkMetrics results;

    @TestHTTPResource("/q/metrics")
    URI metrics;

    @Test
    void names() throws Exception {
        operator.start();
        OperatorScrape.sampleNames(api, results, metrics).forEach(System.out::println);
        System.out.println(new String(metrics.toURL().openStream().readAllBytes()));
    }
}
