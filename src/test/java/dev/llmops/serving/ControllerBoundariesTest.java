package dev.llmops.serving;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps each controller to its own package: the names they share (condition types, reasons, labels) live in the API
 * package, so neither controller, nor the tools around them, reaches into a controller for a constant. Read from the
 * sources, because the compiler copies constants into the classes that use them and no bytecode check sees them.
 */
class ControllerBoundariesTest {

    private static final Path SOURCES = Path.of("src/main/java/dev/llmops/serving");
    private static final Pattern PROJECT_REFERENCE =
            Pattern.compile("\\bdev\\.llmops\\.serving\\.operator\\.(\\w+)\\.");
    private static final Map<String, List<String>> FORBIDDEN = Map.of(
            "operator/benchmark", List.of("modelserver"),
            "operator/modelserver", List.of("benchmark"),
            "operator/toolkit", List.of("modelserver", "benchmark"),
            "operator/config", List.of("modelserver", "benchmark"),
            "operator/compatibility", List.of("modelserver", "benchmark"),
            "demo", List.of("modelserver", "benchmark"),
            "cli", List.of("modelserver", "benchmark"),
            "report", List.of("modelserver", "benchmark"),
            "common", List.of("modelserver", "benchmark"));

    @Test
    void noPackageReachesIntoAControllerItDoesNotBelongTo() throws IOException {
        List<String> violations = new ArrayList<>();
        for (var entry : FORBIDDEN.entrySet()) {
            try (Stream<Path> files = Files.walk(SOURCES.resolve(entry.getKey()))) {
                for (Path file :
                        files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    Matcher reference = PROJECT_REFERENCE.matcher(Files.readString(file));
                    while (reference.find()) {
                        if (entry.getValue().contains(reference.group(1))) {
                            violations.add(SOURCES.relativize(file) + " uses " + reference.group(1));
                        }
                    }
                }
            }
        }
        assertThat(violations).isEmpty();
    }
}
