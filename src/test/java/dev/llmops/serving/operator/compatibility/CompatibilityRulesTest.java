package dev.llmops.serving.operator.compatibility;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerSpec;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelSpec;
import dev.llmops.serving.api.v1alpha1.modelserver.SpeculativeDecodingSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each rule of the shipped table against a spec that breaks it and a near miss that does not. */
class CompatibilityRulesTest {

    private static final String PINNED = "lmsysorg/sglang:v0.5.18-cu130";
    private static final CompatibilityCheck CHECK = new CompatibilityCheck(CompatibilityTable.bundled());

    /** A rule, a spec and image that break it, and a near miss: the same but for one detail. */
    record Case(String rule, Spec breaks, Spec nearMiss) {}

    /** The parts of a ModelServer the rules look at. */
    record Spec(Integer computeMajor, String product, String algorithm, String image, List<String> extraArgs) {

        ModelServerSpec toSpec() {
            ModelServerSpec spec = new ModelServerSpec();
            spec.model = new ModelSpec();
            spec.model.path = "moonshotai/Kimi-K2.5";
            spec.accelerator.computeMajor = computeMajor;
            spec.accelerator.product = product;
            if (algorithm != null) {
                spec.speculativeDecoding = new SpeculativeDecodingSpec();
                spec.speculativeDecoding.algorithm = algorithm;
                spec.speculativeDecoding.draftModelPath = "draft/model";
            }
            spec.extraArgs = extraArgs;
            return spec;
        }
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                        new Case(
                                "trtllm-mla-on-sm120",
                                new Spec(12, null, null, PINNED, List.of("--attention-backend", "trtllm_mla")),
                                new Spec(10, null, null, PINNED, List.of("--attention-backend", "trtllm_mla"))),
                        new Case(
                                "trtllm-mla-on-sm120",
                                new Spec(
                                        null,
                                        "NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition",
                                        null,
                                        PINNED,
                                        List.of("--decode-attention-backend=trtllm_mla")),
                                new Spec(
                                        null,
                                        "NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition",
                                        null,
                                        PINNED,
                                        List.of("--decode-attention-backend=flashinfer"))),
                        new Case(
                                "trtllm-mha-prefill-on-sm120",
                                new Spec(12, null, null, PINNED, List.of("--attention-backend", "trtllm_mha")),
                                new Spec(12, null, null, PINNED, List.of("--decode-attention-backend", "trtllm_mha"))),
                        new Case(
                                "fa4-on-sm120",
                                new Spec(
                                        12,
                                        null,
                                        "DFLASH",
                                        PINNED,
                                        List.of("--speculative-draft-attention-backend", "fa4")),
                                new Spec(
                                        12,
                                        null,
                                        "DFLASH",
                                        PINNED,
                                        List.of("--speculative-draft-attention-backend", "triton"))),
                        new Case(
                                "fa4-on-sm120",
                                new Spec(12, null, null, PINNED, List.of("--attention-backend", "fa4")),
                                new Spec(null, "NVIDIA-B200", null, PINNED, List.of("--attention-backend", "fa4"))),
                        new Case(
                                "dflash-pipeline-parallel",
                                new Spec(10, null, "DFLASH", PINNED, List.of("--pp-size", "2")),
                                new Spec(10, null, "DFLASH", PINNED, List.of("--pp-size", "1"))),
                        new Case(
                                "dflash-pipeline-parallel",
                                new Spec(12, null, "DFLASH", PINNED, List.of("--pipeline-parallel-size=4")),
                                new Spec(12, null, "EAGLE3", PINNED, List.of("--pipeline-parallel-size=4"))),
                        new Case(
                                "ddtree-not-released",
                                new Spec(12, null, "DDTREE", PINNED, List.of()),
                                new Spec(12, null, "DDTREE", "ghcr.io/example/sglang-ddtree:v0.5.18", List.of())),
                        new Case(
                                "ddtree-not-released",
                                new Spec(10, null, "DDTREE", "docker.io/lmsysorg/sglang:v0.5.23", List.of()),
                                new Spec(10, null, "DFLASH", "lmsysorg/sglang:v0.5.23", List.of())))
                .map(c -> Arguments.of(c.rule(), c));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aRuleMatchesItsCaseAndNotItsNearMiss(String rule, Case c) {
        assertThat(ruleNames(c.breaks())).as("breaks " + rule).contains(rule);
        assertThat(ruleNames(c.nearMiss())).as("near miss of " + rule).doesNotContain(rule);
    }

    @Test
    void everyRuleOfTheTableHasACase() {
        assertThat(cases().map(arguments -> arguments.get()[0]).distinct())
                .containsExactlyInAnyOrderElementsOf(CompatibilityTable.bundled().rules().stream()
                        .map(CompatibilityRule::name)
                        .toList());
    }

    @Test
    void theOperationsGuideListsEveryRuleWithItsSource() throws IOException {
        String guide = Files.readString(Path.of("docs/operations.md"));
        String section = guide.substring(guide.indexOf("### SGLang on RTX PRO 6000 (SM120)"));
        assertThat(CompatibilityTable.bundled().rules())
                .allSatisfy(rule -> assertThat(section)
                        .contains("`" + rule.name() + "`")
                        .contains(rule.source().split(" ")[0]));
    }

    @Test
    void theKimiDflashRecipeBreaksBothAttentionRulesOnSm120AndNoneOnSm100() {
        List<String> recipe = List.of(
                "--attention-backend",
                "trtllm_mla",
                "--speculative-draft-attention-backend",
                "fa4",
                "--speculative-dflash-draft-window-size",
                "4096");
        List<CompatibilityCheck.Breach> onSm120 =
                CHECK.breaches(new Spec(12, null, "DFLASH", PINNED, recipe).toSpec(), PINNED);
        assertThat(onSm120).extracting(b -> b.rule().name()).containsExactly("trtllm-mla-on-sm120", "fa4-on-sm120");
        assertThat(onSm120.get(0).describe())
                .contains("--attention-backend trtllm_mla")
                .contains("SM120")
                .contains("fix: --attention-backend triton")
                .contains("https://github.com/sgl-project/sglang/issues/24633");
        assertThat(CHECK.breaches(new Spec(10, null, "DFLASH", PINNED, recipe).toSpec(), PINNED))
                .isEmpty();
    }

    @Test
    void theLastValueOfARepeatedFlagIsTheOneSglangUses() {
        assertThat(CompatibilityCheck.lastValues(
                        List.of("--attention-backend", "trtllm_mla", "--enable-foo", "--attention-backend=triton")))
                .containsEntry("--attention-backend", "triton")
                .containsEntry("--enable-foo", null);
    }

    private static List<String> ruleNames(Spec spec) {
        return CHECK.breaches(spec.toSpec(), spec.image()).stream()
                .map(b -> b.rule().name())
                .toList();
    }
}
