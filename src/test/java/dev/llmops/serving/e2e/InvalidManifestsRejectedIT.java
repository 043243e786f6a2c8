package dev.llmops.serving.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.FieldValidateable.Validation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The real API server rejects each manifest of the invalid corpus, the one the offline CRD validator checks too, with
 * a message that names the offending field: OpenAPI schema, CEL rules, and unknown fields under strict field
 * validation (kubectl's default). A manifest starts with {@code # field: <path>} and {@code # message: <text>}; one of
 * two documents is an update from the first to the second.
 */
@E2eTest
class InvalidManifestsRejectedIT {

    private static final Path CORPUS = ProjectPaths.resolve("src/test/resources/manifests/invalid");

    @BeforeAll
    static void installCrds(KubernetesClient client) {
        ProjectCrds.install(client);
    }

    static List<Path> invalidManifests() {
        List<Path> manifests = Manifests.yamlFiles(CORPUS);
        assertThat(manifests).as("invalid manifests in " + CORPUS).hasSizeGreaterThanOrEqualTo(25);
        return manifests;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidManifests")
    void isRejectedNamingTheField(Path file, KubernetesClient client, TestNamespace namespace) throws IOException {
        String content = Files.readString(file);
        String field = header(file, content, "field");
        String message = header(file, content, "message");
        List<GenericKubernetesResource> documents = documents(client, content);

        KubernetesClientException rejection = catchThrowableOfType(KubernetesClientException.class, () -> {
            if (documents.size() == 2) {
                GenericKubernetesResource stored = client.resource(documents.get(0))
                        .inNamespace(namespace.name())
                        .create();
                documents
                        .get(1)
                        .getMetadata()
                        .setResourceVersion(stored.getMetadata().getResourceVersion());
                client.resource(documents.get(1))
                        .inNamespace(namespace.name())
                        .fieldValidation(Validation.STRICT)
                        .update();
            } else {
                client.resource(documents.get(0))
                        .inNamespace(namespace.name())
                        .fieldValidation(Validation.STRICT)
                        .create();
            }
        });

        assertThat(rejection).as(file.getFileName() + " was accepted").isNotNull();
        // Case aside: the server words an unknown field "strict decoding error: unknown field" (HTTP 400).
        assertThat(rejection.getStatus().getMessage())
                .as("HTTP " + rejection.getCode())
                .contains(field)
                .containsIgnoringCase(message);
    }

    private static List<GenericKubernetesResource> documents(KubernetesClient client, String content) {
        return Arrays.stream(content.split("(?m)^---\\s*$"))
                .map(document ->
                        client.getKubernetesSerialization().unmarshal(document, GenericKubernetesResource.class))
                .filter(Objects::nonNull)
                .toList();
    }

    private static String header(Path file, String content, String name) {
        String prefix = "# " + name + ": ";
        return content.lines()
                .filter(line -> line.startsWith(prefix))
                .map(line -> line.substring(prefix.length()).trim())
                .findFirst()
                .orElseThrow(() -> new IllegalStateException(file + " has no '" + prefix + "...' line"));
    }
}
