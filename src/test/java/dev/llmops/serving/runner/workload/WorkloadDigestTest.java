package dev.llmops.serving.runner.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.runner.plan.BenchmarkConfig;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The workload digest changes with each setting that decides what a request asks for, and only with those. */
class WorkloadDigestTest {

    private static final String SHAREGPT = """
            [{"conversations": [{"from": "human", "value": "What is the tallest mountain in Europe?"},
                                {"from": "gpt", "value": "Mount Elbrus."}]},
             {"conversations": [{"from": "human", "value": "Write a haiku about autumn rain."},
                                {"from": "gpt", "value": "Cold rain on red leaves"}]}]""";

    /** A ShareGPT workload with every sampling setting given, so no change below is a default. */
    private static BenchmarkConfig.Builder workload() {
        return BenchmarkConfig.builder(URI.create("http://sglang.example:30000"), "kimi-k2")
                .dataset(Dataset.SHAREGPT)
                .shareGpt(shareGpt(SHAREGPT, "conversations.json"))
                .seed(7)
                .temperature(0)
                .topP(1)
                .maxTokens(256)
                .quality(true)
                .qualityMaxTokens(32);
    }

    static Stream<Arguments> changes() {
        return Stream.of(
                change("temperature", b -> b.temperature(0.7)),
                change("top_p", b -> b.topP(0.9)),
                change("max_tokens", b -> b.maxTokens(128)),
                change("the quality stage's max_tokens", b -> b.qualityMaxTokens(64)),
                change(
                        "a ShareGPT prompt",
                        b -> b.shareGpt(shareGpt(SHAREGPT.replace("tallest", "highest"), "conversations.json"))),
                change(
                        "the length of a ShareGPT reply",
                        b -> b.shareGpt(shareGpt(
                                SHAREGPT.replace("Mount Elbrus.", "Mount Elbrus, at 5,642 metres."),
                                "conversations.json"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("changes")
    void anotherSettingOfWhatTheRequestsAskForIsAnotherWorkload(
            String setting, UnaryOperator<BenchmarkConfig.Builder> edit) {
        String digest = WorkloadDigest.of(workload().build());

        assertThat(WorkloadDigest.of(edit.apply(workload()).build()))
                .as(setting)
                .hasSize(WorkloadDigest.HEX_CHARS)
                .isNotEqualTo(digest);
    }

    @Test
    void theSameRequestsToAnotherServerFromACopyOfTheFileAreTheSameWorkload() {
        BenchmarkConfig elsewhere = BenchmarkConfig.builder(URI.create("http://other.example:8000"), "kimi-k2")
                .dataset(Dataset.SHAREGPT)
                .shareGpt(shareGpt(SHAREGPT, "copy-of-conversations.json"))
                .seed(7)
                .temperature(0)
                .topP(1)
                .maxTokens(256)
                .quality(true)
                .qualityMaxTokens(32)
                .build();

        assertThat(WorkloadDigest.of(elsewhere))
                .isEqualTo(WorkloadDigest.of(workload().build()));
    }

    private static Arguments change(String setting, UnaryOperator<BenchmarkConfig.Builder> edit) {
        return Arguments.of(setting, edit);
    }

    private static ShareGptDataset shareGpt(String json, String source) {
        try {
            return ShareGptDataset.read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), source);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
