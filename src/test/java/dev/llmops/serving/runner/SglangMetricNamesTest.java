package dev.llmops.serving.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * Every metric the runner reads exists, under that name, in the pinned SGLang release. The names come from the
 * release's wheel when {@code -Dsglang.wheel=FILE} (or {@code SGLANG_WHEEL}) points at one, else from the extract
 * {@code hack/sglang-metric-names.sh} made of it.
 */
class SglangMetricNamesTest {

    private static final String VERSION = "0.5.18";
    private static final String COLLECTOR = "sglang/srt/observability/metrics_collector.py";
    private static final Pattern DECLARED = Pattern.compile("name=\"(sglang:[A-Za-z0-9_:]+)\"");

    @Test
    void everyNameTheRunnerReadsIsDeclaredByThePinnedRelease() throws IOException {
        Set<String> declared = declaredNames();
        assertThat(declared).as("names declared by SGLang " + VERSION).hasSizeGreaterThan(50);
        assertThat(declared).containsAll(SglangMetricNames.ALL);
    }

    @Test
    void theImageTheOperatorPinsIsTheReleaseTheNamesComeFrom() throws IOException {
        String defaults = Files.readString(
                Path.of("src/main/java/dev/llmops/serving/config/OperatorConfig.java"), StandardCharsets.UTF_8);
        assertThat(defaults).contains("lmsysorg/sglang:v" + VERSION + "-");
    }

    private static Set<String> declaredNames() throws IOException {
        String wheel = System.getProperty("sglang.wheel", System.getenv("SGLANG_WHEEL"));
        if (wheel != null && Files.isRegularFile(Path.of(wheel))) {
            try (ZipFile zip = new ZipFile(wheel);
                    InputStream in = zip.getInputStream(zip.getEntry(COLLECTOR))) {
                Matcher matcher = DECLARED.matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                Set<String> names = new TreeSet<>();
                while (matcher.find()) {
                    names.add(matcher.group(1));
                }
                return names;
            }
        }
        try (InputStream in =
                SglangMetricNamesTest.class.getResourceAsStream("/sglang-" + VERSION + "-metric-names.txt")) {
            return new TreeSet<>(new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .toList());
        }
    }
}
