package dev.llmops.serving.api.v1alpha1;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
            HasMetadata parsed = client.getKubernetesSerialization().unmarshal(yaml, resourceClass(yaml));
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
            JsonNode tree = client.getKubernetesSerialization().unmarshal(yaml, JsonNode.class);
            JsonNode readBack = client.getKubernetesSerialization().convertValue(read, JsonNode.class);
            assertThat(missingOrDifferent(tree, readBack, ""))
                    .as(example + " : fields of the YAML that the object read back lacks or changes")
                    .isEmpty();
        }
    }

    private static Class<? extends HasMetadata> resourceClass(String yaml) {
        for (Class<? extends HasMetadata> type :
                List.of(ModelServer.class, BenchmarkRun.class, ServingExperiment.class)) {
            if (yaml.contains("\nkind: " + HasMetadata.getKind(type) + "\n")) {
                return type;
            }
        }
        throw new IllegalArgumentException("an example of no kind of the project:\n" + yaml);
    }

    /**
     * The paths of the example's fields, down to its scalars, that the object read back lacks or holds with another
     * value; fields the object has beyond the example (defaults, server-set metadata) are not compared.
     */
    private static List<String> missingOrDifferent(JsonNode expected, JsonNode actual, String path) {
        if (actual == null || actual.isNull()) {
            return expected.isNull() ? List.of() : List.of(path);
        }
        if (expected.isObject()) {
            List<String> differences = new ArrayList<>();
            expected.fields()
                    .forEachRemaining(field -> differences.addAll(missingOrDifferent(
                            field.getValue(), actual.get(field.getKey()), path + "." + field.getKey())));
            return differences;
        }
        if (expected.isArray()) {
            if (!actual.isArray() || actual.size() != expected.size()) {
                return List.of(path);
            }
            List<String> differences = new ArrayList<>();
            for (int i = 0; i < expected.size(); i++) {
                differences.addAll(missingOrDifferent(expected.get(i), actual.get(i), path + "[" + i + "]"));
            }
            return differences;
        }
        boolean same = expected.isNumber() && actual.isNumber()
                ? expected.decimalValue().compareTo(actual.decimalValue()) == 0
                : expected.asText().equals(actual.asText());
        return same ? List.of() : List.of(path + " = " + expected + " but read back " + actual);
    }
}
