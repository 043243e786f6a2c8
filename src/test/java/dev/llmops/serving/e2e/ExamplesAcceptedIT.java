package dev.llmops.serving.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.Manifests;
import dev.llmops.serving.e2e.support.ProjectCrds;
import dev.llmops.serving.e2e.support.ProjectPaths;
import dev.llmops.serving.e2e.support.TestNamespace;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.FieldValidateable.Validation;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every example in deploy/examples, and every valid manifest of the corpus the offline CRD validator checks, is
 * accepted by the real API server as written.
 */
@E2eTest
class ExamplesAcceptedIT {

    private static final Path EXAMPLES = ProjectPaths.resolve("deploy/examples");
    private static final Path VALID_MANIFESTS = ProjectPaths.resolve("src/test/resources/manifests/valid");

    @BeforeAll
    static void installCrds(KubernetesClient client) {
        ProjectCrds.install(client);
    }

    static Stream<Path> validManifests() {
        List<Path> examples = Manifests.yamlFiles(EXAMPLES);
        assertThat(examples).as("examples in " + EXAMPLES).hasSizeGreaterThanOrEqualTo(5);
        return Stream.concat(examples.stream(), Manifests.yamlFiles(VALID_MANIFESTS).stream());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("validManifests")
    void isAcceptedAsWritten(Path manifest, KubernetesClient client, TestNamespace namespace) {
        GenericKubernetesResource resource = Manifests.read(client, manifest);

        // Strict field validation, kubectl's default: a field the schema does not know is an error, not pruned.
        assertThatCode(() -> client.resource(resource)
                        .inNamespace(namespace.name())
                        .fieldValidation(Validation.STRICT)
                        .create())
                .as(manifest.toString())
                .doesNotThrowAnyException();
    }
}
