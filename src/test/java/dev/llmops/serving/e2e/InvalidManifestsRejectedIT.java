package dev.llmops.serving.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.Manifests;
import dev.llmops.serving.e2e.support.ProjectCrds;
import dev.llmops.serving.e2e.support.ProjectPaths;
import dev.llmops.serving.e2e.support.TestNamespace;
import dev.llmops.serving.operator.crd.RejectionRule;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.FieldValidateable.Validation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The real API server rejects each manifest of the invalid corpus, the one the offline CRD validator checks too, with
 * an error at the offending field and at no other, by the rule the offline validator's test applies
 * ({@link RejectionRule}): OpenAPI schema, CEL rules, and unknown fields under strict field validation (kubectl's
 * default). A manifest starts with {@code # field: <path>} and {@code # message: <text>}; one of two documents is an
 * update from the first to the second.
 */
@E2eTest
class InvalidManifestsRejectedIT {

    private static final String STRICT_DECODING = "strict decoding error: ";
    private static final Pattern UNKNOWN_FIELD = Pattern.compile("unknown field \"([^\"]+)\"");
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
        RejectionRule.assertRejectedAt(
                file.getFileName() + " (HTTP " + rejection.getCode() + ": "
                        + rejection.getStatus().getMessage() + ")",
                field,
                message,
                fieldErrors(rejection.getStatus()));
    }

    /**
     * The field errors of the API server's answer: the causes of a 422, or the unknown fields strict field validation
     * names in the message of a 400 (it gives no causes), worded as the API server words an unknown field's error.
     */
    static List<RejectionRule.Rejected> fieldErrors(Status status) {
        List<StatusCause> causes =
                status.getDetails() == null || status.getDetails().getCauses() == null
                        ? List.of()
                        : status.getDetails().getCauses();
        if (!causes.isEmpty()) {
            return causes.stream()
                    .map(cause ->
                            new RejectionRule.Rejected(cause.getField(), cause.getField() + ": " + cause.getMessage()))
                    .toList();
        }
        String message = status.getMessage() == null ? "" : status.getMessage();
        if (!message.contains(STRICT_DECODING)) {
            return List.of();
        }
        return UNKNOWN_FIELD
                .matcher(message)
                .results()
                .map(unknown -> new RejectionRule.Rejected(unknown.group(1), unknown.group(1) + ": Unknown field"))
                .toList();
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
