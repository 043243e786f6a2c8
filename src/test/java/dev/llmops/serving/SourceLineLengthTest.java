package dev.llmops.serving;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Java lines stay within 120 characters: the formatter wraps code to that width but not strings and comments. */
class SourceLineLengthTest {

    private static final int LIMIT = 120;

    @Test
    void noJavaLineIsLongerThan120Characters() throws IOException {
        List<String> tooLong = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                List<String> lines = Files.readAllLines(file);
                for (int i = 0; i < lines.size(); i++) {
                    if (lines.get(i).codePointCount(0, lines.get(i).length()) > LIMIT) {
                        tooLong.add(file + ":" + (i + 1));
                    }
                }
            }
        }
        assertThat(tooLong).isEmpty();
    }
}
