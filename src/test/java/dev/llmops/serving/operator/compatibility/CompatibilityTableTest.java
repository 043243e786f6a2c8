package dev.llmops.serving.operator.compatibility;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The shipped table loads, and a broken one is refused naming its mistake, before any operator reads it. */
class CompatibilityTableTest {

    private static final String ONE_RULE = """
            verifiedAgainst: "0.5.18"
            architectures:
              - {computeMajor: 12, name: SM120, products: [NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition]}
            rules:
              - name: fa4-on-sm120
                flags: [{names: [--attention-backend], values: [fa4]}]
                computeMajors: [12]
                message: needs tcgen05
                fix: use triton
                source: https://github.com/sgl-project/sglang/issues/15342
                verifiedIn: srt/arg_groups/overrides.py
            """;

    @Test
    void theShippedTableLoadsWithEveryRuleNamed() {
        CompatibilityTable table = CompatibilityTable.bundled();
        assertThat(table.rules()).isNotEmpty();
        assertThat(table.architectureOfProduct("NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition")
                        .map(CompatibilityTable.Architecture::name))
                .contains("SM120");
        assertThat(table.architectureOfProduct("NVIDIA-B200").map(CompatibilityTable.Architecture::name))
                .contains("SM100");
    }

    @Test
    void aWellFormedTableIsRead() throws IOException {
        assertThat(read(ONE_RULE).rules()).extracting(CompatibilityRule::name).containsExactly("fa4-on-sm120");
    }

    @Test
    void aRuleNamedTwiceIsRefused() {
        String twice = ONE_RULE + ONE_RULE.substring(ONE_RULE.indexOf("  - name:"));
        assertThatThrownBy(() -> read(twice)).hasMessageContaining("rule name used twice: fa4-on-sm120");
    }

    @Test
    void aRuleWithoutASourceLinkIsRefused() {
        assertThatThrownBy(() -> read(ONE_RULE.replace("https://github.com/sgl-project/sglang/issues/15342", "ask")))
                .hasMessageContaining("no source link");
    }

    @Test
    void aRuleForAnArchitectureTheTableDoesNotNameIsRefused() {
        assertThatThrownBy(() -> read(ONE_RULE.replace("computeMajors: [12]", "computeMajors: [9]")))
                .hasMessageContaining("unknown compute major 9");
    }

    @Test
    void aMisspelledFieldIsRefused() {
        assertThatThrownBy(() -> read(ONE_RULE.replace("computeMajors:", "computeMajor:")))
                .hasMessageContaining("computeMajor");
    }

    @Test
    void anInvertedVersionRangeIsRefused() {
        String inverted = ONE_RULE.replace(
                "computeMajors: [12]",
                "computeMajors: [12]\n    sglangVersions: {from: \"0.5.20\", through: \"0.5.18\"}");
        assertThatThrownBy(() -> read(inverted)).hasMessageContaining("sglangVersions.from is after through");
    }

    @Test
    void theReleaseOfAnImageIsKnownOnlyForOfficialVersionTags() {
        assertThat(SglangRelease.ofImage("lmsysorg/sglang:v0.5.18-cu130")).contains(new SglangRelease(0, 5, 18));
        assertThat(SglangRelease.ofImage("docker.io/lmsysorg/sglang:v0.5.23@sha256:abc"))
                .contains(new SglangRelease(0, 5, 23));
        assertThat(SglangRelease.ofImage("lmsysorg/sglang:latest")).isEqualTo(Optional.empty());
        assertThat(SglangRelease.ofImage("registry.example/lmsysorg/sglang:v0.5.18"))
                .isEmpty();
        assertThat(SglangRelease.ofImage("lmsysorg/sglang")).isEmpty();
    }

    private static CompatibilityTable read(String yaml) throws IOException {
        return CompatibilityTable.read(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)));
    }
}
