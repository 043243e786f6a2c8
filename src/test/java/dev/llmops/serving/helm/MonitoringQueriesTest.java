package dev.llmops.serving.helm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.operator.benchmark.BenchmarkMetrics;
import dev.llmops.serving.runner.PinnedSglangMetrics;
import io.javaoperatorsdk.operator.Operator;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every PromQL expression of the chart's dashboard and alerts parses and names only metrics that exist: ones the
 * running operator serves on /q/metrics, or ones the pinned SGLang release declares (a histogram through its _bucket,
 * _sum or _count series). A renamed metric on either side breaks a panel or silences an alert, and fails here instead.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true)
class MonitoringQueriesTest {

    private static final Pattern HISTOGRAM_SERIES = Pattern.compile("_(bucket|sum|count)$");

    @KubernetesTestServer
    KubernetesServer api;

    @Inject
    Operator operator;

    @Inject
    BenchmarkMetrics results;

    @TestHTTPResource("/q/metrics")
    URI metrics;

    @Test
    void everyQueryNamesOnlyMetricsTheOperatorOrThePinnedSglangExports() throws Exception {
        operator.start();
        Set<String> operatorNames = OperatorScrape.sampleNames(api, results, metrics);
        Set<String> sglangNames = PinnedSglangMetrics.declaredNames();
        List<String> queries = MonitoringQueries.of(RenderedChart.render(MonitoringChartTest.BOTH))
                .all();

        List<String> problems = new ArrayList<>();
        for (PromQlSelectors.Parsed parsed : PromQlSelectors.parse(queries).values()) {
            if (parsed.error() != null) {
                problems.add(parsed.expr() + ": " + parsed.error());
                continue;
            }
            assertThat(parsed.metrics()).as("metrics of " + parsed.expr()).isNotEmpty();
            for (String name : parsed.metrics()) {
                String base = HISTOGRAM_SERIES.matcher(name).replaceFirst("");
                if (!operatorNames.contains(name) && !sglangNames.contains(name) && !sglangNames.contains(base)) {
                    problems.add(parsed.expr() + ": " + name + " is exported neither by the operator nor by SGLang "
                            + PinnedSglangMetrics.VERSION);
                }
            }
        }

        assertThat(queries).hasSizeGreaterThan(30);
        assertThat(problems).isEmpty();
    }
}
