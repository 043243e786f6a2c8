package dev.llmops.serving.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.ProjectCrds;
import dev.llmops.serving.e2e.support.TestNamespace;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The CRDs in deploy/crds install on a real API server: structural, with CEL rules within the cost budget. */
@E2eTest
class CrdInstallIT {

    @Test
    void projectCrdsInstallAndAreServed(KubernetesClient client, TestNamespace namespace) {
        List<CustomResourceDefinition> installed = ProjectCrds.install(client);

        assertThat(installed)
                .extracting(crd -> crd.getMetadata().getName())
                .containsExactlyInAnyOrder(
                        "benchmarkruns.serving.llmops.dev",
                        "modelservers.serving.llmops.dev",
                        "servingexperiments.serving.llmops.dev");
        for (CustomResourceDefinition crd : installed) {
            Map<String, String> conditions = client
                    .apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .withName(crd.getMetadata().getName())
                    .get()
                    .getStatus()
                    .getConditions()
                    .stream()
                    .collect(Collectors.toMap(
                            CustomResourceDefinitionCondition::getType, c -> c.getStatus() + " " + c.getMessage()));
            assertThat(conditions)
                    .as(crd.getMetadata().getName())
                    .containsKeys("Established", "NamesAccepted")
                    .doesNotContainKey("NonStructuralSchema");
            assertThat(conditions.get("Established")).startsWith("True");
            assertThat(conditions.get("NamesAccepted")).startsWith("True");
        }
        for (String kind : List.of("ModelServer", "BenchmarkRun", "ServingExperiment")) {
            assertThat(client.genericKubernetesResources("serving.llmops.dev/v1alpha1", kind)
                            .inNamespace(namespace.name())
                            .list()
                            .getItems())
                    .as(kind)
                    .isEmpty();
        }
    }

    @Test
    void reinstallingLeavesTheCrdsUnchanged(KubernetesClient client) {
        Map<String, Long> generations = generations(ProjectCrds.install(client));

        assertThat(generations(ProjectCrds.install(client))).isEqualTo(generations);
    }

    private static Map<String, Long> generations(List<CustomResourceDefinition> crds) {
        return crds.stream()
                .collect(Collectors.toMap(
                        c -> c.getMetadata().getName(), c -> c.getMetadata().getGeneration()));
    }
}
