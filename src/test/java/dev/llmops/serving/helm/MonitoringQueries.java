package dev.llmops.serving.helm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every PromQL expression the chart's dashboard and alerts hold: each dashboard target, each query variable's
 * selector, each alert rule; with Grafana's interval macros replaced by a duration so Prometheus' parser reads them.
 */
record MonitoringQueries(List<String> dashboard, List<String> alerts) {

    static final String DASHBOARD = RenderedChart.FULLNAME + "-dashboard";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Grafana's label_values(selector, label) and query_result(expr) variable queries. */
    private static final Pattern LABEL_VALUES =
            Pattern.compile("^\\s*label_values\\((.+),\\s*[A-Za-z_]\\w*\\s*\\)\\s*$");

    private static final Pattern QUERY_RESULT = Pattern.compile("^\\s*query_result\\((.+)\\)\\s*$");
    private static final Pattern MACRO = Pattern.compile("\\$\\{?__(rate_interval|interval|range)}?");

    static MonitoringQueries of(RenderedChart chart) throws IOException {
        ConfigMap dashboard = chart.find(ConfigMap.class, DASHBOARD).orElseThrow();
        JsonNode json = JSON.readTree(dashboard.getData().values().iterator().next());
        List<String> dashboardQueries = new ArrayList<>();
        collectTargets(json.path("panels"), dashboardQueries);
        for (JsonNode variable : json.path("templating").path("list")) {
            if ("query".equals(variable.path("type").asText())) {
                dashboardQueries.add(
                        variableSelector(variable.path("query").path("query").asText()));
            }
        }
        GenericKubernetesResource rule = (GenericKubernetesResource)
                chart.ofKind("PrometheusRule").findFirst().orElseThrow();
        List<String> alertQueries = new ArrayList<>();
        for (Map<String, Object> group : rule.<List<Map<String, Object>>>get("spec", "groups")) {
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> rules = (List<Map<String, Object>>) group.get("rules");
            rules.forEach(r -> alertQueries.add(String.valueOf(r.get("expr"))));
        }
        return new MonitoringQueries(
                dashboardQueries.stream().map(MonitoringQueries::withoutMacros).toList(), alertQueries);
    }

    List<String> all() {
        List<String> all = new ArrayList<>(dashboard);
        all.addAll(alerts);
        return all;
    }

    /** The expression of a Grafana query variable. */
    static String variableSelector(String query) {
        Matcher labelValues = LABEL_VALUES.matcher(query);
        if (labelValues.matches()) {
            return labelValues.group(1);
        }
        Matcher queryResult = QUERY_RESULT.matcher(query);
        if (queryResult.matches()) {
            return queryResult.group(1);
        }
        throw new IllegalArgumentException("Not a Prometheus variable query this test reads: " + query);
    }

    private static void collectTargets(JsonNode panels, List<String> queries) {
        for (JsonNode panel : panels) {
            for (JsonNode target : panel.path("targets")) {
                if (target.hasNonNull("expr")) {
                    queries.add(target.get("expr").asText());
                }
            }
            collectTargets(panel.path("panels"), queries);
        }
    }

    private static String withoutMacros(String expr) {
        return MACRO.matcher(expr).replaceAll("5m");
    }
}
