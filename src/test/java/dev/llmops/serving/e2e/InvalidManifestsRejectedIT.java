package dev.llmops.serving.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The real API server rejects each invalid manifest with a message that names the offending field, through the CRDs'
 * OpenAPI schema and CEL rules. Each manifest states the field in a {@code # field: <path>} comment.
 */
@E2eTest
class InvalidManifestsRejectedIT {

    private static final Path CORPUS = Path.of(System.getProperty("e2e.projectDir", "."),
            "src", "test", "resources", "e2e", "invalid");
    private static final String FIELD_COMMENT = "# field: ";

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
    void invalidManifestIsRejectedNamingTheField(Path file, KubernetesClient client, TestNamespace namespace) {
        String field = expectedField(file);
        GenericKubernetesResource manifest = Manifests.read(client, file);

        KubernetesClientException rejection = catchThrowableOfType(KubernetesClientException.class,
                () -> client.resource(manifest).inNamespace(namespace.name()).create());

        assertThat(rejection).as(file.getFileName() + " was accepted").isNotNull();
        assertThat(rejection.getCode()).as(rejection.getMessage()).isEqualTo(422);
        assertThat(rejection.getStatus().getDetails().getCauses())
                .as(rejection.getStatus().getMessage())
                .anySatisfy(cause -> assertThat(cause.getField()).isEqualTo(field));
        assertThat(rejection.getStatus().getMessage()).contains(field);
    }

    @Test
    void benchmarkRunSpecCannotChangeAfterCreation(KubernetesClient client, TestNamespace namespace) {
        GenericKubernetesResource run = client.resource(Manifests.read(client,
                Path.of(System.getProperty("e2e.projectDir", "."), "deploy", "examples", "benchmark-eagle3.yaml")))
                .inNamespace(namespace.name()).create();

        assertThatThrownBy(() -> client.resource(run).inNamespace(namespace.name()).edit(r -> {
            r.getAdditionalProperties().put("spec", Map.of("target", Map.of("modelServer", "another-server")));
            return r;
        })).isInstanceOfSatisfying(KubernetesClientException.class, e -> {
            assertThat(e.getCode()).isEqualTo(422);
            assertThat(e.getStatus().getMessage()).contains("spec is immutable");
        });
    }

    private static String expectedField(Path file) {
        try {
            return Files.readAllLines(file).stream().filter(line -> line.startsWith(FIELD_COMMENT))
                    .map(line -> line.substring(FIELD_COMMENT.length()).trim()).findFirst()
                    .orElseThrow(() -> new IllegalStateException(file + " has no '" + FIELD_COMMENT + "<path>' line"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
