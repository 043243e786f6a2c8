package dev.llmops.serving.e2e.support;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Installs the CRDs the project ships in deploy/crds, exactly as a user would, and waits until they serve. */
public final class ProjectCrds {

    static final Path DIRECTORY = ProjectPaths.resolve("deploy/crds");
    private static final String FIELD_MANAGER = "llm-serving-operator-e2e";

    private ProjectCrds() {}

    /**
     * Applies every CRD server-side (idempotent) and waits until each is Established; fails with the API server's own
     * words when it rejects one.
     */
    public static List<CustomResourceDefinition> install(KubernetesClient client) {
        List<CustomResourceDefinition> installed = new ArrayList<>();
        for (Path file : files()) {
            CustomResourceDefinition crd = load(client, file);
            try {
                installed.add(client.apiextensions()
                        .v1()
                        .customResourceDefinitions()
                        .resource(crd)
                        .fieldManager(FIELD_MANAGER)
                        .forceConflicts()
                        .serverSideApply());
            } catch (KubernetesClientException e) {
                throw new AssertionError(
                        "The API server rejected " + file.getFileName() + ": HTTP " + e.getCode() + " "
                                + (e.getStatus() != null ? e.getStatus().getMessage() : e.getMessage()),
                        e);
            }
        }
        for (CustomResourceDefinition crd : installed) {
            String name = crd.getMetadata().getName();
            await(name + " to be Established")
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> isEstablished(client.apiextensions()
                            .v1()
                            .customResourceDefinitions()
                            .withName(name)
                            .get()));
        }
        return installed;
    }

    static List<Path> files() {
        try (Stream<Path> files = Files.list(DIRECTORY)) {
            return files.filter(
                            f -> f.toString().endsWith(".yml") || f.toString().endsWith(".yaml"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static boolean isEstablished(CustomResourceDefinition crd) {
        return crd != null
                && crd.getStatus() != null
                && crd.getStatus().getConditions() != null
                && crd.getStatus().getConditions().stream()
                        .anyMatch(c -> c.getType().equals("Established")
                                && c.getStatus().equals("True"));
    }

    private static CustomResourceDefinition load(KubernetesClient client, Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
