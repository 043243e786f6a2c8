package dev.llmops.serving.crd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.ModelServer;
import io.fabric8.crdv2.generator.CRDGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Fails the build when the committed CRDs no longer match what the API classes generate. */
class CrdDriftTest {

    static final Path COMMITTED = Path.of("deploy/crds");
    static final String REGENERATE = "mvn -q -B package -DskipTests && cp target/kubernetes/modelservers.serving.llmops.dev-v1.yml"
            + " target/kubernetes/benchmarkruns.serving.llmops.dev-v1.yml deploy/crds/";

    @Test
    void committedCrdsAreWhatTheApiClassesGenerate(@TempDir Path generated) throws IOException {
        new CRDGenerator()
                .inOutputDir(generated.toFile())
                .forCRDVersions("v1")
                .withPostProcessor(new PrinterColumnOrder())
                .customResourceClasses(ModelServer.class, BenchmarkRun.class)
                .generate();

        assertThat(fileNames(COMMITTED)).as("deploy/crds holds exactly the generated CRDs: run " + REGENERATE)
                .isEqualTo(fileNames(generated));
        for (String name : fileNames(generated)) {
            String expected = Files.readString(generated.resolve(name));
            String committed = Files.readString(COMMITTED.resolve(name));
            assertThat(committed).as("deploy/crds is out of date (%s): run %s", name, REGENERATE).isEqualTo(expected);
        }
    }

    private static List<String> fileNames(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yml") || n.endsWith(".yaml")).sorted().toList();
        }
    }
}
