package dev.llmops.serving.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmops.serving.helm.RenderedChart;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The image Jib built without a Docker daemon (hack/image/build.sh, the {@code image} profile), opened as the tarball a
 * registry or kind would receive: its configuration must match the Dockerfile and the chart (user, working directory,
 * environment, entry point with the JVM flags, port, OCI labels), the dependencies must sit in a layer apart from the
 * application, and its own layers must stay small. ContainerRuntimeIT runs it.
 */
class ContainerImageIT {

    private static final Path TARBALL =
            Path.of(System.getProperty("image.tarball", "target/llm-serving-operator-image.tar"));
    private static final Path APPLICATION = Path.of("target/quarkus-app");
    /** Compressed size of the layers the build adds on top of the base image; today about 45 MB. */
    private static final long OWN_LAYERS_BUDGET_BYTES = 64L << 20;
    /** The application's own code, rebuilt on every change: today about 0.8 MB compressed. */
    private static final long APPLICATION_LAYER_BUDGET_BYTES = 4L << 20;

    private static JsonNode config;
    private static List<Layer> layers;
    private static List<Layer> ownLayers;

    /** One layer of the image: its file in the tarball, compressed size, and the paths it holds. */
    record Layer(String file, long compressedBytes, List<String> paths) {}

    @BeforeAll
    static void openTarball() throws IOException {
        assertThat(TARBALL)
                .as("the image tarball; build it with hack/image/build.sh")
                .exists();
        Map<String, byte[]> small = new HashMap<>();
        Map<String, Long> sizes = new HashMap<>();
        Map<String, List<String>> contents = new HashMap<>();
        try (TarArchiveInputStream tar = new TarArchiveInputStream(Files.newInputStream(TARBALL))) {
            for (TarArchiveEntry entry; (entry = tar.getNextEntry()) != null; ) {
                sizes.put(entry.getName(), entry.getSize());
                if (entry.getName().endsWith(".json")) {
                    small.put(entry.getName(), tar.readAllBytes());
                } else {
                    contents.put(entry.getName(), paths(tar));
                }
            }
        }
        ObjectMapper json = new ObjectMapper();
        JsonNode manifest = json.readTree(small.get("manifest.json")).get(0);
        config = json.readTree(small.get(manifest.path("Config").asText()));
        layers = new ArrayList<>();
        for (JsonNode file : manifest.path("Layers")) {
            layers.add(new Layer(file.asText(), sizes.get(file.asText()), contents.get(file.asText())));
        }
        long baseLayers = 0;
        for (JsonNode step : config.path("history")) {
            baseLayers += step.path("author").asText().equals("Jib") ? 0 : 1;
        }
        ownLayers = layers.stream()
                .filter(l -> l.paths().stream().allMatch(p -> p.startsWith("app")))
                .toList();
        System.out.printf(
                "image %s: %d layers (%d of the base), own layers %.1f MB compressed%n",
                TARBALL,
                layers.size(),
                baseLayers,
                ownLayers.stream().mapToLong(Layer::compressedBytes).sum() / 1e6);
    }

    @Test
    void runsLikeTheDockerfileAndTheChartSay() throws IOException {
        Dockerfile dockerfile = Dockerfile.read();
        JsonNode container = config.path("config");

        assertThat(container.path("User").asText())
                .isEqualTo(dockerfile.single("USER").arguments())
                .isEqualTo(chartUser());
        assertThat(container.path("WorkingDir").asText())
                .isEqualTo(dockerfile.single("WORKDIR").arguments());
        assertThat(strings(container.path("Entrypoint"))).isEqualTo(dockerfile.entryPoint());
        assertThat(strings(container.path("Cmd"))).isEmpty();
        assertThat(environment(container)).containsAllEntriesOf(dockerfile.pairs("ENV"));
        assertThat(container.path("ExposedPorts").fieldNames())
                .toIterable()
                .containsExactly(dockerfile.single("EXPOSE").arguments() + "/tcp");
    }

    @Test
    void carriesTheOpenContainerLabels() throws IOException {
        Map<String, String> labels = new LinkedHashMap<>();
        config.path("config")
                .path("Labels")
                .fields()
                .forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
        Map<String, String> dockerfileLabels = Dockerfile.read().pairs("LABEL");

        for (String label : List.of("title", "description", "source", "licenses")) {
            String key = "org.opencontainers.image." + label;
            assertThat(labels.get(key)).as(key).isNotBlank().isEqualTo(dockerfileLabels.get(key));
        }
        assertThat(labels.get("org.opencontainers.image.version")).isEqualTo(System.getProperty("project.version"));
        assertThat(Files.readString(Path.of("LICENSE")))
                .contains("Apache License")
                .contains("Version 2.0");
        assertThat(labels.get("org.opencontainers.image.licenses")).isEqualTo("Apache-2.0");
    }

    @Test
    void keepsTheDependenciesInALayerApartFromTheApplication() throws IOException {
        Layer dependencies = layerHolding("app/lib/main/");
        Layer application = layerHolding("app/app/");

        assertThat(dependencies).isNotEqualTo(application);
        assertThat(dependencies.paths()).containsAll(shippedFiles("lib"));
        assertThat(application.paths()).containsAll(shippedFiles("app"));
        assertThat(application.paths()).noneMatch(p -> p.startsWith("app/lib/"));
        assertThat(application.compressedBytes()).isLessThan(APPLICATION_LAYER_BUDGET_BYTES);
        assertThat(ownLayers.stream().mapToLong(Layer::compressedBytes).sum()).isLessThan(OWN_LAYERS_BUDGET_BYTES);
    }

    private static List<String> paths(InputStream layer) throws IOException {
        List<String> paths = new ArrayList<>();
        TarArchiveInputStream tar = new TarArchiveInputStream(uncompressed(layer));
        for (TarArchiveEntry entry; (entry = tar.getNextEntry()) != null; ) {
            paths.add(entry.getName().replaceFirst("^\\./", ""));
        }
        return paths;
    }

    /** A layer's tar stream, gunzipped when Jib compressed it. */
    private static InputStream uncompressed(InputStream layer) throws IOException {
        BufferedInputStream buffered = new BufferedInputStream(layer);
        buffered.mark(2);
        boolean gzip = buffered.read() == 0x1f && buffered.read() == 0x8b;
        buffered.reset();
        return gzip ? new GZIPInputStream(buffered) : buffered;
    }

    private static Layer layerHolding(String prefix) {
        return layers.stream()
                .filter(l -> l.paths().stream().anyMatch(p -> p.startsWith(prefix) && !p.endsWith("/")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no layer holds " + prefix));
    }

    private static List<String> shippedFiles(String folder) throws IOException {
        try (Stream<Path> files = Files.walk(APPLICATION.resolve(folder))) {
            return files.filter(Files::isRegularFile)
                    .map(f -> "app/" + APPLICATION.relativize(f))
                    .toList();
        }
    }

    private static String chartUser() {
        var security = RenderedChart.render(Map.of())
                .deployment()
                .getSpec()
                .getTemplate()
                .getSpec()
                .getSecurityContext();
        return security.getRunAsUser() + ":" + security.getRunAsGroup();
    }

    private static Map<String, String> environment(JsonNode container) {
        Map<String, String> environment = new LinkedHashMap<>();
        for (JsonNode variable : container.path("Env")) {
            String[] pair = variable.asText().split("=", 2);
            environment.put(pair[0], pair[1]);
        }
        return environment;
    }

    private static List<String> strings(JsonNode array) {
        List<String> strings = new ArrayList<>();
        array.forEach(s -> strings.add(s.asText()));
        return strings;
    }
}
