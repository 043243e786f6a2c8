package dev.llmops.serving.operator.modelserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which updates of a ModelServer's Deployment wake the ModelServer. */
class DeploymentSpecChangedTest {

    private final DeploymentSpecChanged filter = new DeploymentSpecChanged();
    private final Deployment created = new DeploymentBuilder()
            .withNewMetadata()
            .withName("qwen")
            .withGeneration(1L)
            .withLabels(Map.of("app.kubernetes.io/name", "sglang"))
            .endMetadata()
            .withNewSpec()
            .withReplicas(1)
            .endSpec()
            .build();

    @Test
    void theDeploymentControllersStatusAndRevisionDoNotWakeTheServer() {
        Deployment observed = new DeploymentBuilder(created)
                .editMetadata()
                .addToAnnotations("deployment.kubernetes.io/revision", "1")
                .endMetadata()
                .withNewStatus()
                .withObservedGeneration(1L)
                .withReplicas(1)
                .withUpdatedReplicas(1)
                .endStatus()
                .build();

        assertThat(filter.accept(observed, created)).isFalse();
    }

    @Test
    void aChangedSpecLabelsOrADeletionWakeTheServer() {
        assertThat(filter.accept(
                        new DeploymentBuilder(created)
                                .editMetadata()
                                .withGeneration(2L)
                                .endMetadata()
                                .editSpec()
                                .withReplicas(3)
                                .endSpec()
                                .build(),
                        created))
                .isTrue();
        assertThat(filter.accept(
                        new DeploymentBuilder(created)
                                .editMetadata()
                                .withLabels(Map.of())
                                .endMetadata()
                                .build(),
                        created))
                .isTrue();
        assertThat(filter.accept(
                        new DeploymentBuilder(created)
                                .editMetadata()
                                .withDeletionTimestamp("2026-12-03T03:00:00Z")
                                .endMetadata()
                                .build(),
                        created))
                .isTrue();
    }
}
