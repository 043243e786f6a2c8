package dev.llmops.serving.operator.crd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.ApiGroup;
import io.fabric8.crdv2.generator.CRDGenerator;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Fails the build when the committed CRDs no longer match what the API classes generate. */
class CrdDriftTest {

    static final Path COMMITTED = Path.of("deploy/crds");
    static final String REGENERATE =
            "mvn -q -B package -DskipTests && cp target/kubernetes/*." + ApiGroup.GROUP + "-v1.yml deploy/crds/";

    @Test
    void committedCrdsAreWhatTheApiClassesGenerate(@TempDir Path generated) throws IOException {
        new CRDGenerator()
                .inOutputDir(generated.toFile())
                .forCRDVersions("v1")
                .withPostProcessor(new GeneratedCrdFixes())
                .customResourceClasses(resourceClasses())
                .generate();

        assertThat(fileNames(COMMITTED))
                .as("deploy/crds holds exactly the generated CRDs: run " + REGENERATE)
                .isEqualTo(fileNames(generated));
        for (String name : fileNames(generated)) {
            String expected = Files.readString(generated.resolve(name));
            String committed = Files.readString(COMMITTED.resolve(name));
            assertThat(committed)
                    .as("deploy/crds is out of date (%s): run %s", name, REGENERATE)
                    .isEqualTo(expected);
        }
    }

    /**
     * Every custom resource class of the API packages, as the build's generator finds them, so a new kind cannot be
     * missed.
     */
    private static List<Class<? extends HasMetadata>> resourceClasses() throws IOException {
        List<Class<? extends HasMetadata>> resources = new ArrayList<>();
        Path classes = Path.of("target/classes");
        try (Stream<Path> files =
                Files.walk(classes.resolve(ApiGroup.class.getPackageName().replace('.', '/')))) {
            for (String file : files.map(f -> classes.relativize(f).toString())
                    .filter(n -> n.endsWith(".class") && !n.contains("$"))
                    .sorted()
                    .toList()) {
                Class<?> type = Class.forName(
                        file.substring(0, file.length() - ".class".length()).replace('/', '.'));
                if (CustomResource.class.isAssignableFrom(type) && !Modifier.isAbstract(type.getModifiers())) {
                    resources.add(type.asSubclass(HasMetadata.class));
                }
            }
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
        assertThat(resources).as("custom resource classes").isNotEmpty();
        return resources;
    }

    private static List<String> fileNames(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".yml") || n.endsWith(".yaml"))
                    .sorted()
                    .toList();
        }
    }
}
