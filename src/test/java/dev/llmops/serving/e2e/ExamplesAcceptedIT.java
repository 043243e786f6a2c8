package dev.llmops.serving.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every example in deploy/examples is accepted by the real API server, and none of its fields is pruned. */
@E2eTest
class ExamplesAcceptedIT {

    private static final Path EXAMPLES = Path.of(System.getProperty("e2e.projectDir", "."), "deploy", "examples");

    @BeforeAll
    static void installCrds(KubernetesClient client) {
        ProjectCrds.install(client);
    }

    static List<Path> examples() {
        List<Path> examples = Manifests.yamlFiles(EXAMPLES);
        assertThat(examples).as("examples in " + EXAMPLES).hasSizeGreaterThanOrEqualTo(5);
        return examples;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void exampleIsAcceptedAsWritten(Path example, KubernetesClient client, TestNamespace namespace) {
        GenericKubernetesResource manifest = Manifests.read(client, example);

        GenericKubernetesResource stored = client.resource(manifest).inNamespace(namespace.name()).create();

        // The API server silently prunes fields its schema does not know: every field written must come back.
        List<String> lost = new ArrayList<>();
        collectLost("spec", manifest.get("spec"), stored.get("spec"), lost);
        assertThat(lost).as(example.getFileName() + ": fields pruned or changed by the API server").isEmpty();
    }

    private static void collectLost(String path, Object written, Object stored, List<String> lost) {
        if (written instanceof Map<?, ?> writtenMap && stored instanceof Map<?, ?> storedMap) {
            writtenMap.forEach((key, value) -> collectLost(path + "." + key, value, storedMap.get(key), lost));
        } else if (written instanceof List<?> writtenList && stored instanceof List<?> storedList
                && writtenList.size() == storedList.size()) {
            for (int i = 0; i < writtenList.size(); i++) {
                collectLost(path + "[" + i + "]", writtenList.get(i), storedList.get(i), lost);
            }
        } else if (!Objects.equals(String.valueOf(written), String.valueOf(stored))) {
            lost.add(path + ": wrote " + written + ", stored " + stored);
        }
    }
}
