package dev.llmops.serving.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.ModelServer;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every example survives a create and read through a Kubernetes API with the project's model classes unchanged. */
@QuarkusTest
@WithKubernetesTestServer(crud = true)
class ExamplesRoundTripTest {

    @Inject
    KubernetesClient client;

    @Test
    void everyExampleRoundTripsThroughTheApi() throws IOException {
        List<Path> examples;
        try (Stream<Path> files = Files.list(Path.of("deploy/examples"))) {
            examples =
                    files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        assertThat(examples).hasSizeGreaterThanOrEqualTo(5);
        for (Path example : examples) {
            String yaml = Files.readString(example);
            Class<? extends HasMetadata> type =
                    yaml.contains("\nkind: ModelServer\n") ? ModelServer.class : BenchmarkRun.class;
            HasMetadata parsed = client.getKubernetesSerialization().unmarshal(yaml, type);
            parsed.getMetadata().setNamespace("examples");
            HasMetadata created = client.resource(parsed).create();
            HasMetadata read = client.resources(parsed.getClass())
                    .inNamespace("examples")
                    .withName(parsed.getMetadata().getName())
                    .get();
            assertThat(read)
                    .as(example.toString())
                    .usingRecursiveComparison()
                    .ignoringFields(
                            "metadata.resourceVersion",
                            "metadata.uid",
                            "metadata.creationTimestamp",
                            "metadata.generation")
                    .isEqualTo(created);
            Object spec = parsed instanceof ModelServer ms ? ms.getSpec() : ((BenchmarkRun) parsed).getSpec();
            Object readSpec = read instanceof ModelServer ms ? ms.getSpec() : ((BenchmarkRun) read).getSpec();
            assertThat(readSpec)
                    .as(example.toString())
                    .usingRecursiveComparison()
                    .isEqualTo(spec);
        }
    }
}
