package dev.llmops.serving.gitops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.llmops.serving.helm.RenderedChart;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Argo CD example installs a reviewed release, deletes nothing on its own, and lets the operator reconcile the
 * workloads it deploys next to it.
 */
class ArgoCdApplicationTest {

    private static final Path APPLICATIONS = Path.of("deploy/gitops/argocd/application.yaml");

    @Test
    void applicationsFollowTheChartsReleaseTagWithoutPruning() throws IOException {
        JsonNode chart = new ObjectMapper(new YAMLFactory())
                .readTree(RenderedChart.CHART.resolve("Chart.yaml").toFile());
        String releaseTag = "v" + chart.get("version").asText();

        assertThat(applications()).hasSize(2).allSatisfy(application -> {
            JsonNode spec = application.get("spec");
            assertThat(spec.at("/source/targetRevision").asText()).isEqualTo(releaseTag);
            assertThat(spec.at("/syncPolicy/automated/prune").asBoolean(true)).isFalse();
        });
    }

    @Test
    void theOperatorReconcilesTheWorkloadsNamespace() throws IOException {
        List<JsonNode> applications = applications();
        JsonNode operator = applications.get(0).get("spec");
        String workloads = applications.get(1).at("/spec/destination/namespace").asText();
        Map<String, Object> values = new LinkedHashMap<>();
        JsonNode watched = operator.at("/source/helm/valuesObject/watchNamespaces");
        for (int i = 0; i < watched.size(); i++) {
            values.put("watchNamespaces[" + i + "]", watched.get(i).asText());
        }

        List<RenderedChart.ScopedRule> granted = RenderedChart.render(
                        values, operator.at("/destination/namespace").asText())
                .grantedRules();

        assertThat(granted)
                .anySatisfy(rule -> assertThat(rule.permits(workloads, "apps", "deployments", "create"))
                        .isTrue());
    }

    private static List<JsonNode> applications() throws IOException {
        return new ObjectMapper(new YAMLFactory())
                .readValues(new YAMLFactory().createParser(Files.readString(APPLICATIONS)), JsonNode.class)
                .readAll();
    }
}
