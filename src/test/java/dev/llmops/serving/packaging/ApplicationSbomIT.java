package dev.llmops.serving.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The build's CycloneDX SBOM must describe what the image ships: every jar the packaged application loads (the
 * {@code lib/} folders the Dockerfile copies) appears as a runtime component with a package URL and the SHA-256 of that
 * very file, so a scanner reading the SBOM sees the bytes that run.
 *
 * <p>Reads what {@code mvn package} wrote (failsafe, {@code mvn verify}).
 */
class ApplicationSbomIT {

    private static final Path SBOM = Path.of("target/quarkus-run-cyclonedx.json");
    private static final Path APPLICATION = Path.of("target/quarkus-app");

    @Test
    void everyShippedJarIsARuntimeComponentWithItsOwnHash() throws IOException {
        JsonNode sbom = new ObjectMapper().readTree(SBOM.toFile());
        assertThat(sbom.path("bomFormat").asText()).isEqualTo("CycloneDX");
        assertThat(sbom.path("specVersion").asText()).isEqualTo("1.6");
        Map<String, JsonNode> runtimeByLocation = runtimeComponentsByLocation(sbom);

        List<Path> jars = shippedJars();
        assertThat(jars).hasSizeGreaterThan(100);
        for (Path jar : jars) {
            String location = APPLICATION.relativize(jar).toString();
            JsonNode component = runtimeByLocation.get(location);
            assertThat(component).as("SBOM component for %s", location).isNotNull();
            assertThat(component.path("purl").asText()).as(location).startsWith("pkg:maven/");
            assertThat(sha256(component)).as("SHA-256 of %s", location).isEqualTo(sha256(jar));
        }
    }

    @Test
    void namesTheOperatorsOwnFrameworksAtTheirBuiltVersions() throws IOException {
        JsonNode sbom = new ObjectMapper().readTree(SBOM.toFile());

        assertThat(runtimeComponentsByLocation(sbom).values())
                .extracting(c -> c.path("group").asText() + ":" + c.path("name").asText())
                .contains(
                        "io.quarkiverse.operatorsdk:quarkus-operator-sdk",
                        "io.javaoperatorsdk:operator-framework-core",
                        "io.fabric8:kubernetes-client",
                        "com.fasterxml.jackson.core:jackson-databind",
                        "org.hdrhistogram:HdrHistogram");
    }

    private static Map<String, JsonNode> runtimeComponentsByLocation(JsonNode sbom) {
        Map<String, JsonNode> byLocation = new HashMap<>();
        for (JsonNode component : sbom.path("components")) {
            boolean runtime = false;
            for (JsonNode property : component.path("properties")) {
                runtime |= property.path("name").asText().equals("quarkus:component:scope")
                        && property.path("value").asText().equals("runtime");
            }
            if (!runtime) {
                continue;
            }
            for (JsonNode occurrence : component.path("evidence").path("occurrences")) {
                byLocation.put(occurrence.path("location").asText(), component);
            }
        }
        return byLocation;
    }

    private static List<Path> shippedJars() throws IOException {
        try (Stream<Path> files = Files.walk(APPLICATION.resolve("lib"))) {
            return files.filter(f -> f.toString().endsWith(".jar")).sorted().toList();
        }
    }

    private static String sha256(JsonNode component) {
        for (JsonNode hash : component.path("hashes")) {
            if (hash.path("alg").asText().equals("SHA-256")) {
                return hash.path("content").asText();
            }
        }
        return null;
    }

    private static String sha256(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[1 << 16];
            for (int read; (read = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, read);
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
