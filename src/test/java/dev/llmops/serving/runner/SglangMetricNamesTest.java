package dev.llmops.serving.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every metric the runner reads exists, under that name, in the pinned SGLang release ({@link PinnedSglangMetrics}).
 */
class SglangMetricNamesTest {

    @Test
    void everyNameTheRunnerReadsIsDeclaredByThePinnedRelease() throws IOException {
        Set<String> declared = PinnedSglangMetrics.declaredNames();
        assertThat(declared)
                .as("names declared by SGLang " + PinnedSglangMetrics.VERSION)
                .hasSizeGreaterThan(50);
        assertThat(declared).containsAll(SglangMetricNames.ALL);
    }

    @Test
    void theImageTheOperatorPinsIsTheReleaseTheNamesComeFrom() throws IOException {
        String defaults = Files.readString(
                Path.of("src/main/java/dev/llmops/serving/operator/config/OperatorConfig.java"),
                StandardCharsets.UTF_8);
        assertThat(defaults).contains("lmsysorg/sglang:v" + PinnedSglangMetrics.VERSION + "-");
    }
}
