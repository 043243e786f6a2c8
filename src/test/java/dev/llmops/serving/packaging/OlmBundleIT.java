package dev.llmops.serving.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.llmops.serving.helm.RenderedChart;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The OLM bundle installs the operator the Helm chart installs: its ClusterServiceVersion owns both CRDs, grants the
 * chart's RBAC and runs the chart's image with the chart's security settings, and its CRDs are the committed ones.
 *
 * <p>Reads what {@code mvn package} wrote (failsafe, {@code mvn verify}).
 */
class OlmBundleIT {

    private static final Path BUNDLE = Path.of("target/bundle/llm-serving-operator");
    private static final Path MANIFESTS = BUNDLE.resolve("manifests");
    private static final Path CSV = MANIFESTS.resolve("llm-serving-operator.clusterserviceversion.yaml");
    private static final Path COMMITTED_CRDS = Path.of("deploy/crds");
    private static final YAMLMapper YAML = new YAMLMapper();

    @Test
    void ownsEveryCrdAtItsVersion() throws IOException {
        JsonNode owned = csv().path("spec").path("customresourcedefinitions").path("owned");

        Set<String> ownedCrds = new TreeSet<>();
        owned.forEach(crd -> ownedCrds.add(crd.path("name").asText() + "/"
                + crd.path("version").asText() + "/" + crd.path("kind").asText()));
        assertThat(ownedCrds)
                .containsExactly(
                        "benchmarkruns.serving.llmops.dev/v1alpha1/BenchmarkRun",
                        "modelservers.serving.llmops.dev/v1alpha1/ModelServer",
                        "servingexperiments.serving.llmops.dev/v1alpha1/ServingExperiment");
    }

    @Test
    void grantsTheChartsRulesNamespacedAndClusterWide() throws IOException {
        JsonNode install = csv().path("spec").path("install").path("spec");
        Set<String> namespaced = triples(install.path("permissions"));
        Set<String> clusterWide = triples(install.path("clusterPermissions"));

        RenderedChart byDefault = RenderedChart.render(Map.of());
        assertThat(namespaced).isEqualTo(chartTriples(byDefault, false));
        assertThat(clusterWide).isEqualTo(chartTriples(byDefault, true));

        Set<String> all = new TreeSet<>(namespaced);
        all.addAll(clusterWide);
        assertThat(all).isEqualTo(chartTriples(RenderedChart.render(Map.of("watchAllNamespaces", "true")), null));
    }

    @Test
    void runsTheChartsImageWithTheChartsSecurity() throws IOException {
        JsonNode deployments = csv().path("spec").path("install").path("spec").path("deployments");
        assertThat(deployments).hasSize(1);
        JsonNode pod = deployments.get(0).path("spec").path("template").path("spec");
        JsonNode container = pod.path("containers").get(0);
        Container chart = RenderedChart.render(Map.of()).operatorContainer();

        assertThat(container.path("image").asText()).isEqualTo(chart.getImage());
        assertThat(csv().path("metadata")
                        .path("annotations")
                        .path("containerImage")
                        .asText())
                .isEqualTo(chart.getImage());
        assertThat(pod.path("securityContext").path("runAsUser").asLong()).isEqualTo(10001);
        assertThat(container
                        .path("securityContext")
                        .path("readOnlyRootFilesystem")
                        .asBoolean())
                .isTrue();
        assertThat(container.path("volumeMounts").findValuesAsText("mountPath")).containsExactly("/tmp");
        assertThat(pod.path("serviceAccountName").asText()).isEqualTo("llm-serving-operator");
        Map<String, Probe> chartProbes = Map.of(
                "startupProbe", chart.getStartupProbe(),
                "livenessProbe", chart.getLivenessProbe(),
                "readinessProbe", chart.getReadinessProbe());
        chartProbes.forEach((name, expected) -> {
            JsonNode probe = container.path(name);
            assertThat(probe.path("httpGet").path("path").asText())
                    .as(name)
                    .isEqualTo(expected.getHttpGet().getPath());
            assertThat(probe.path("httpGet").path("port").asInt()).as(name).isEqualTo(8080);
            assertThat(probe.path("periodSeconds").asInt()).as(name).isEqualTo(expected.getPeriodSeconds());
            assertThat(probe.path("failureThreshold").asInt()).as(name).isEqualTo(expected.getFailureThreshold());
        });
        Set<String> env = new TreeSet<>(container.path("env").findValuesAsText("name"));
        chart.getEnv().forEach(variable -> assertThat(env).contains(variable.getName()));
        String chartJvmOptions = chart.getEnv().stream()
                .filter(variable -> variable.getName().equals("JDK_JAVA_OPTIONS"))
                .findFirst()
                .orElseThrow()
                .getValue();
        for (JsonNode variable : container.path("env")) {
            if (variable.path("name").asText().equals("JDK_JAVA_OPTIONS")) {
                assertThat(variable.path("value").asText())
                        .as("JDK_JAVA_OPTIONS")
                        .isEqualTo(chartJvmOptions);
            }
        }
    }

    @Test
    void bundlesTheCommittedCrds() throws IOException {
        Map<String, JsonNode> bundled = crdsByName(MANIFESTS, ".crd.yml");
        Map<String, JsonNode> committed = crdsByName(COMMITTED_CRDS, ".yml");
        assertThat(bundled.keySet()).containsExactlyInAnyOrderElementsOf(committed.keySet());
        committed.forEach((name, crd) -> assertThat(bundled.get(name)).as(name).isEqualTo(crd));
    }

    private static JsonNode csv() throws IOException {
        return YAML.readTree(CSV.toFile());
    }

    /** Each (apiGroup, resource, verb) the permissions' rules allow. */
    private static Set<String> triples(JsonNode permissions) {
        Set<String> triples = new TreeSet<>();
        permissions.forEach(permission -> permission.path("rules").forEach(rule -> {
            rule.path("apiGroups")
                    .forEach(group -> rule.path("resources")
                            .forEach(resource -> rule.path("verbs")
                                    .forEach(verb ->
                                            triples.add(triple(group.asText(), resource.asText(), verb.asText())))));
            assertThat(rule.path("resourceNames").isEmpty())
                    .as("rules naming objects")
                    .isTrue();
        }));
        return triples;
    }

    /** The chart's granted triples: cluster-wide only (true), namespaced only (false) or all (null). */
    private static Set<String> chartTriples(RenderedChart chart, Boolean clusterWide) {
        Set<String> triples = new TreeSet<>();
        chart.grantedRules().stream()
                .filter(scoped -> clusterWide == null || clusterWide == (scoped.namespace() == null))
                .map(RenderedChart.ScopedRule::rule)
                .forEach(rule -> add(triples, rule));
        return triples;
    }

    private static void add(Set<String> triples, PolicyRule rule) {
        assertThat(rule.getResourceNames()).as("rules naming objects").isNullOrEmpty();
        for (String group : rule.getApiGroups()) {
            for (String resource : rule.getResources()) {
                rule.getVerbs().forEach(verb -> triples.add(triple(group, resource, verb)));
            }
        }
    }

    private static String triple(String group, String resource, String verb) {
        return group + "/" + resource + ":" + verb;
    }

    private static Map<String, JsonNode> crdsByName(Path directory, String suffix) throws IOException {
        Map<String, JsonNode> crds = new HashMap<>();
        List<Path> files = new ArrayList<>();
        try (Stream<Path> listed = Files.list(directory)) {
            listed.filter(f -> f.getFileName().toString().endsWith(suffix)).forEach(files::add);
        }
        for (Path file : files) {
            JsonNode crd = YAML.readTree(file.toFile());
            crds.put(crd.path("metadata").path("name").asText(), crd);
        }
        return crds;
    }
}
