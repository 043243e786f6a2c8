package dev.llmops.serving.e2e.support;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Manifests read as plain YAML, untouched by the project's model classes, so the API server judges exactly what a user
 * would apply.
 */
public final class Manifests {

    private Manifests() {}

    public static List<Path> yamlFiles(Path directory) {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + directory, e);
        }
    }

    public static GenericKubernetesResource read(KubernetesClient client, Path file) {
        try {
            return client.getKubernetesSerialization()
                    .unmarshal(Files.readString(file), GenericKubernetesResource.class);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
    }
}
