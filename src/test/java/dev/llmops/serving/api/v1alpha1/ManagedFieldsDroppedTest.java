package dev.llmops.serving.api.v1alpha1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The operator's own kinds are read without {@code managedFields}, which the informer caches would otherwise hold for
 * every resource, and the rest of the metadata arrives intact.
 */
class ManagedFieldsDroppedTest {

    private final KubernetesSerialization serialization = new KubernetesSerialization();

    @Test
    void modelServerIsReadWithoutManagedFields() {
        assertReadWithoutManagedFields(ModelServer.class, "ModelServer");
    }

    @Test
    void benchmarkRunIsReadWithoutManagedFields() {
        assertReadWithoutManagedFields(BenchmarkRun.class, "BenchmarkRun");
    }

    @Test
    void servingExperimentIsReadWithoutManagedFields() {
        assertReadWithoutManagedFields(ServingExperiment.class, "ServingExperiment");
    }

    @Test
    void managedFieldsSetInMemoryAreNotWritten() {
        ModelServer server = new ModelServer();
        server.getMetadata().setName("kimi");
        server.getMetadata()
                .setManagedFields(List.of(new ManagedFieldsEntryBuilder()
                        .withManager("kubectl")
                        .withOperation("Apply")
                        .build()));

        assertThat(serialization.asJson(server)).contains("\"name\":\"kimi\"").doesNotContain("managedFields");
    }

    private <T extends HasMetadata> void assertReadWithoutManagedFields(Class<T> type, String kind) {
        String json = """
                {"apiVersion": "serving.llmops.dev/v1alpha1", "kind": "%s",
                 "metadata": {"name": "kimi", "namespace": "llm", "uid": "u-1", "generation": 3,
                   "labels": {"team": "a"}, "annotations": {"note": "b"},
                   "managedFields": [{"manager": "kubectl", "operation": "Apply", "apiVersion": "v1",
                     "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:model": {}}}}]}}
                """.formatted(kind);

        T resource = serialization.unmarshal(json, type);

        assertThat(resource.getMetadata().getManagedFields()).isNullOrEmpty();
        assertThat(resource.getMetadata().getName()).isEqualTo("kimi");
        assertThat(resource.getMetadata().getNamespace()).isEqualTo("llm");
        assertThat(resource.getMetadata().getUid()).isEqualTo("u-1");
        assertThat(resource.getMetadata().getGeneration()).isEqualTo(3L);
        assertThat(resource.getMetadata().getLabels()).containsEntry("team", "a");
        assertThat(resource.getMetadata().getAnnotations()).containsEntry("note", "b");
    }
}
