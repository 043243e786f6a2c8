package dev.llmops.serving.operator.compatibility;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.operator.config.OperatorConfig;
import io.smallrye.config.WithDefault;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Every flag the compatibility table names exists in the SGLang release the operator pins, as the extract
 * {@code hack/sglang-flag-names.sh} made of its wheel lists them: a rule whose flag was renamed would never match.
 */
class PinnedSglangFlagsTest {

    private static final String PINNED_RELEASE = "0.5.18";

    @Test
    void everyFlagARuleNamesExistsInThePinnedRelease() throws IOException {
        Set<String> declared = declaredFlags();
        assertThat(declared).contains("--attention-backend", "--tp-size");
        assertThat(CompatibilityTable.bundled().rules().stream()
                        .flatMap(rule -> rule.flags().stream())
                        .flatMap(flag -> flag.names().stream()))
                .isNotEmpty()
                .allSatisfy(flag -> assertThat(declared)
                        .as("flags of sglang " + PINNED_RELEASE)
                        .contains(flag));
    }

    @Test
    void theTableWasVerifiedAgainstTheReleaseTheOperatorRunsByDefault() throws NoSuchMethodException {
        String defaultImage = OperatorConfig.Sglang.class
                .getMethod("image")
                .getAnnotation(WithDefault.class)
                .value();
        assertThat(SglangRelease.ofImage(defaultImage)).contains(SglangRelease.parse(PINNED_RELEASE));
        assertThat(CompatibilityTable.bundled().verifiedAgainst()).isEqualTo(PINNED_RELEASE);
    }

    private static Set<String> declaredFlags() throws IOException {
        try (InputStream in =
                PinnedSglangFlagsTest.class.getResourceAsStream("/sglang-" + PINNED_RELEASE + "-flag-names.txt")) {
            return new TreeSet<>(new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .toList());
        }
    }
}
