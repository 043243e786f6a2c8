package dev.llmops.serving.crd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class ManifestValidationTest {

    @Test
    void everyExampleIsAccepted() throws IOException {
        List<Path> examples;
        try (Stream<Path> files = Files.list(Path.of("deploy/examples"))) {
            examples = files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        for (Path example : examples) {
            Map<String, Object> manifest = CrdValidator.readManifest(example);
            CrdValidator validator = CrdValidator.forKind((String) manifest.get("kind"));
            System.out.println(example + " -> " + validator.validateCreate(manifest) + "\n" + validator.withDefaults(manifest));
        }
    }
}
