package dev.llmops.serving.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The chart's dashboard and alerts: off unless asked for, the dashboard the editable file under the chart, the alerts
 * with the waits the values give and a hint at kubectl describe, and every figure the dashboard promises on it.
 */
class MonitoringChartTest {

    static final Map<String, Object> BOTH =
            Map.of("monitoring.dashboard.enabled", true, "monitoring.alerts.enabled", true);

    @Test
    void neitherIsRenderedByDefault() {
        RenderedChart chart = RenderedChart.render(Map.of());

        assertThat(chart.find(ConfigMap.class, MonitoringQueries.DASHBOARD)).isEmpty();
        assertThat(chart.ofKind("PrometheusRule")).isEmpty();
    }

    @Test
    void theDashboardIsTheChartsFileWithTheSidecarsLabel() throws IOException {
        String file = Files.readString(RenderedChart.CHART.resolve("dashboards/llm-serving-operator.json"));

        ConfigMap byDefault = RenderedChart.render(BOTH)
                .find(ConfigMap.class, MonitoringQueries.DASHBOARD)
                .orElseThrow();
        ConfigMap relabelled = RenderedChart.render(Map.of(
                        "monitoring.dashboard.enabled", true,
                        "monitoring.dashboard.labels.grafana_dashboard", "llm",
                        "monitoring.dashboard.namespace", "grafana"))
                .find(ConfigMap.class, MonitoringQueries.DASHBOARD)
                .orElseThrow();

        assertThat(byDefault.getMetadata().getLabels()).containsEntry("grafana_dashboard", "1");
        assertThat(byDefault.getMetadata().getNamespace()).isEqualTo(RenderedChart.NAMESPACE);
        assertThat(byDefault.getData()).containsExactly(Map.entry("llm-serving-operator.json", file.strip()));
        assertThat(relabelled.getMetadata().getLabels()).containsEntry("grafana_dashboard", "llm");
        assertThat(relabelled.getMetadata().getNamespace()).isEqualTo("grafana");
    }

    @Test
    void alertsWaitAsConfiguredAndTellWhatToDescribe() {
        GenericKubernetesResource rule = (GenericKubernetesResource) RenderedChart.render(Map.of(
                        "monitoring.alerts.enabled", true,
                        "monitoring.alerts.notReadyFor", "45m",
                        "monitoring.alerts.labels.release", "kube-prometheus-stack"))
                .ofKind("PrometheusRule")
                .findFirst()
                .orElseThrow();
        List<Map<String, Object>> groups = rule.get("spec", "groups");
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> rules = groups.stream()
                .flatMap(g -> ((List<Map<String, Object>>) g.get("rules")).stream())
                .collect(Collectors.toMap(r -> (String) r.get("alert"), r -> r));

        assertThat(rule.getMetadata().getLabels()).containsEntry("release", "kube-prometheus-stack");
        assertThat(rules).containsOnlyKeys("ModelServerNotReady", "LlmServingResourceStalled", "BenchmarkRunRegressed");
        assertThat(rules.get("ModelServerNotReady")).containsEntry("for", "45m");
        assertThat(rules.get("LlmServingResourceStalled")).containsEntry("for", "5m");
        rules.forEach((name, r) -> {
            @SuppressWarnings("unchecked")
            Map<String, String> annotations = (Map<String, String>) r.get("annotations");
            assertThat(annotations).as(name).containsKeys("summary", "description", "runbook");
            assertThat(annotations.get("summary")).as(name).contains("{{ $labels.namespace }}/{{ $labels.name }}");
            assertThat(annotations.get("runbook")).as(name).startsWith("kubectl describe ");
            assertThat(r.get("labels")).as(name).isEqualTo(Map.of("severity", "warning"));
        });
        assertThat(rules.get("ModelServerNotReady").get("annotations").toString())
                .contains("for 45m");
    }

    @Test
    void aWaitThatIsNoPrometheusDurationIsRefused() {
        assertThatThrownBy(() -> RenderedChart.render(
                        Map.of("monitoring.alerts.enabled", true, "monitoring.alerts.notReadyFor", "soon")))
                .hasMessageContaining("notReadyFor");
    }

    @Test
    void theDashboardShowsEveryPromisedFigureAndTheAlertsReadTheConditionAndRegressionGauges() throws Exception {
        MonitoringQueries queries = MonitoringQueries.of(RenderedChart.render(BOTH));

        assertThat(names(queries.dashboard()))
                .contains(
                        "operator_sdk_reconciliations_started_total",
                        "operator_sdk_reconciliations_failed_total",
                        "operator_sdk_controllers_execution_reconcile_seconds_sum",
                        "llm_serving_status_condition",
                        "llmops_benchmark_output_tokens_per_second",
                        "llmops_benchmark_ttft_seconds",
                        "llmops_benchmark_tpot_seconds",
                        "llm_serving_benchmark_speedup",
                        "llm_serving_benchmark_regressed",
                        "sglang:generation_tokens_total",
                        "sglang:time_to_first_token_seconds_bucket",
                        "sglang:inter_token_latency_seconds_bucket",
                        "sglang:num_running_reqs",
                        "sglang:num_queue_reqs",
                        "sglang:token_usage",
                        "sglang:spec_accept_length",
                        "sglang:spec_verify_calls_total");
        assertThat(names(queries.alerts()))
                .containsExactlyInAnyOrder("llm_serving_status_condition", "llm_serving_benchmark_regressed");
    }

    private static Set<String> names(List<String> expressions) throws Exception {
        Set<String> names = new TreeSet<>();
        PromQlSelectors.parse(expressions).values().forEach(p -> names.addAll(p.metrics()));
        return names;
    }
}
