package dev.llmops.serving.operator.crd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Manifests against the committed CRDs, as the API server would judge them: the examples and the valid fixtures are
 * accepted, and each invalid fixture is rejected with an error at the field its header names.
 *
 * <p>An invalid fixture starts with {@code # field: <path>} and {@code # message: <text the error must contain>};
 * a fixture of two documents is an update from the first to the second.
 */
class ManifestValidationTest {

    static final Path FIXTURES = Path.of("src/test/resources/manifests");

    @ParameterizedTest(name = "{0}")
    @MethodSource("acceptedManifests")
    void isAccepted(Path manifest) {
        Map<String, Object> document = single(manifest);
        assertThat(validatorFor(document).validateCreate(document))
                .as(manifest.toString())
                .isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidManifests")
    void isRejectedAtTheNamedField(Path manifest) throws IOException {
        String field = header(manifest, "field");
        String message = header(manifest, "message");
        List<Map<String, Object>> documents = CrdValidator.readDocuments(manifest);
        CrdValidator validator = validatorFor(documents.get(0));

        List<FieldError> errors;
        if (documents.size() == 2) {
            assertThat(validator.validateCreate(documents.get(0)))
                    .as("the stored object of " + manifest + " is valid")
                    .isEmpty();
            errors = validator.validateUpdate(documents.get(0), documents.get(1));
        } else {
            errors = validator.validateCreate(documents.get(0));
        }

        RejectionRule.assertRejectedAt(
                manifest.toString(),
                field,
                message,
                errors.stream()
                        .map(error -> new RejectionRule.Rejected(error.field(), error.toString()))
                        .toList());
    }

    @Test
    void thereAreEnoughInvalidManifests() {
        assertThat(invalidManifests()).hasSizeGreaterThanOrEqualTo(25);
    }

    @Test
    void aBenchmarkRunMayChangeItsMetadataButNotItsSpec() {
        Map<String, Object> stored = single(FIXTURES.resolve("valid/br-boundary-values.yaml"));
        Map<String, Object> relabelled = new LinkedHashMap<>(stored);
        relabelled.put("metadata", Map.of("name", "boundaries", "labels", Map.of("team", "inference")));
        CrdValidator validator = CrdValidator.forKind("BenchmarkRun");

        assertThat(validator.validateUpdate(stored, relabelled)).isEmpty();
        assertThat(validator.validateUpdate(stored, validator.withDefaults(stored)))
                .as("spelling out the defaults leaves the spec as stored")
                .isEmpty();
    }

    @Test
    void aModelServerSpecMayChange() {
        Map<String, Object> stored = single(Path.of("deploy/examples/small-model-b200.yaml"));
        Map<String, Object> changed = CrdValidator.forKind("ModelServer").withDefaults(stored);
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = (Map<String, Object>) changed.get("spec");
        spec.put("replicas", 2L);

        assertThat(CrdValidator.forKind("ModelServer").validateUpdate(stored, changed))
                .isEmpty();
    }

    @Test
    void aServingExperimentMayChangeItsBudgetAndKeepWinnerOnly() {
        CrdValidator validator = CrdValidator.forKind("ServingExperiment");
        Map<String, Object> stored =
                validator.withDefaults(single(Path.of("deploy/examples/servingexperiment-kimi.yaml")));
        Map<String, Object> changed = validator.withDefaults(stored);
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = (Map<String, Object>) changed.get("spec");
        spec.put("maxDurationMinutes", 960L);
        spec.put("keepWinner", true);

        assertThat(validator.validateUpdate(stored, changed)).isEmpty();
        spec.remove("maxDurationMinutes");
        assertThat(validator.validateUpdate(stored, changed))
                .as("the budget may be lifted too")
                .isEmpty();
    }

    @Test
    void anErrorPrintsLikeTheApiServers() {
        List<FieldError> errors = CrdValidator.forKind("ModelServer")
                .validateCreate(single(FIXTURES.resolve("invalid/ms-compute-major-9.yaml")));

        assertThat(errors)
                .extracting(FieldError::toString)
                .containsExactly("spec.accelerator.computeMajor: Invalid value: 9:"
                        + " spec.accelerator.computeMajor must be 10 (B200, B300, GB200: SM100/SM103) or 12 "
                        + "(RTX PRO 6000, RTX 50xx: SM120)");
    }

    @Test
    void aBlockingSchemaErrorStopsRuleEvaluation() {
        List<FieldError> errors = CrdValidator.forKind("BenchmarkRun")
                .validateCreate(single(FIXTURES.resolve("invalid/br-too-many-levels.yaml")));

        assertThat(errors)
                .extracting(FieldError::toString)
                .containsExactly(
                        "spec.sweep.concurrency: Too many: 33: must have at most 32 items",
                        "<nil>: Invalid value: some validation rules were not checked because the object was invalid;"
                                + " correct the existing errors to complete validation");
    }

    static Stream<Path> acceptedManifests() {
        return Stream.concat(
                yamlFiles(Path.of("deploy/examples")).stream(), yamlFiles(FIXTURES.resolve("valid")).stream());
    }

    static List<Path> invalidManifests() {
        return yamlFiles(FIXTURES.resolve("invalid"));
    }

    private static List<Path> yamlFiles(Path directory) {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, Object> single(Path manifest) {
        List<Map<String, Object>> documents = CrdValidator.readDocuments(manifest);
        assertThat(documents).as(manifest.toString()).hasSize(1);
        return documents.get(0);
    }

    private static CrdValidator validatorFor(Map<String, Object> manifest) {
        return CrdValidator.forKind((String) manifest.get("kind"));
    }

    private static String header(Path manifest, String name) throws IOException {
        String prefix = "# " + name + ": ";
        return Files.readAllLines(manifest).stream()
                .filter(line -> line.startsWith(prefix))
                .findFirst()
                .map(line -> line.substring(prefix.length()))
                .orElseThrow(() -> new IllegalStateException(manifest + " has no '" + prefix + "' line"));
    }
}
