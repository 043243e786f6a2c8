package dev.llmops.serving.runner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class CompactSummaryWriterTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static BenchmarkReport report(
            String model, int levels, List<String> prompts, List<String> warnings, Map<String, Integer> failures) {
        BenchmarkConfig config = BenchmarkConfig.builder(URI.create("http://127.0.0.1:30000"), model)
                .build();
        List<StageReport> stages = new ArrayList<>();
        stages.add(Reports.stage("single", StagePlan.Mode.SINGLE, 1, 45.678, 9000, Map.of(), List.of()));
        for (int i = 1; i <= levels; i++) {
            stages.add(Reports.stage(
                    "c" + (4096 - i),
                    StagePlan.Mode.CLOSED_LOOP,
                    4096 - i,
                    12345.678 + i,
                    40000,
                    i == 1 ? failures : Map.of(),
                    List.of()));
        }
        List<SingleRequestReport> singles = prompts.stream()
                .map(prompt -> new SingleRequestReport(prompt, 4096, 0, 45.678, 123.456, null, 21.9, 90123.4, null))
                .toList();
        return BenchmarkReport.of(config, "2026-01-01T00:00:00Z", stages, singles, warnings, null);
    }

    private static CompactSummary parse(String json) throws Exception {
        assertThat(json.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(CompactSummary.MAX_BYTES);
        return JSON.readValue(json, CompactSummary.class);
    }

    @Test
    void anOrdinaryRunFitsWhole() throws Exception {
        CompactSummary summary = parse(CompactSummaryWriter.write(report(
                "moonshotai/Kimi-K2.5",
                5,
                BenchmarkDefaults.PROMPTS,
                List.of("c64: something to know"),
                Map.of("timeout", 2))));

        assertThat(summary.truncated()).isNull();
        assertThat(summary.model()).isEqualTo("moonshotai/Kimi-K2.5");
        assertThat(summary.stages()).hasSize(6);
        CompactSummary.Stage c4095 = summary.stages().get(1);
        assertThat(c4095.name()).isEqualTo("c4095");
        assertThat(c4095.ttftMillis()).containsExactly(123.5, 111.1, 234.6, 345.7, 456.8);
        assertThat(c4095.outputTokensPerSecond()).isEqualTo(12347);
        assertThat(summary.singleRequests())
                .extracting(CompactSummary.SinglePrompt::prompt)
                .containsExactlyElementsOf(BenchmarkDefaults.PROMPTS);
        assertThat(summary.failuresByClass()).containsEntry("timeout", 2);
        assertThat(summary.headline().peakConcurrency()).isEqualTo(4091);
    }

    @Test
    void aLittleTooMuchLosesThePromptTextsAndMaximaFirst() throws Exception {
        CompactSummary summary = parse(CompactSummaryWriter.write(report(
                "m",
                14,
                List.of("a".repeat(50), "b".repeat(50), "c".repeat(50), "d".repeat(50)),
                List.of(),
                Map.of())));

        assertThat(summary.truncated()).isTrue();
        assertThat(summary.singleRequests()).hasSize(4).allSatisfy(single -> {
            assertThat(single.prompt()).isNull();
            assertThat(single.tokensPerSecond()).isEqualTo(45.7);
        });
        assertThat(summary.stages().get(1).ttftMillis()).containsExactly(123.5, 111.1, 234.6, 345.7);
    }

    @Test
    void theWorstCaseStaysValidAndUnderTheLimit() throws Exception {
        String model = "🦙".repeat(5000);
        List<String> prompts = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            prompts.add("Ünïcödé prompt " + i + " " + "語".repeat(10000));
            warnings.add("c" + i + ": the client may have been the bottleneck " + "\"quoted\" \\ 😀".repeat(500));
        }
        Map<String, Integer> failures = new TreeMap<>();
        for (int status = 400; status < 600; status++) {
            failures.put("http_" + status, 1000000 + status);
        }

        String json = CompactSummaryWriter.write(report(model, 63, prompts, warnings, failures));
        CompactSummary summary = parse(json);

        assertThat(summary.truncated()).isTrue();
        assertThat(summary.version()).isEqualTo(CompactSummary.FORMAT_VERSION);
        assertThat(summary.stages()).hasSize(64).allSatisfy(stage -> {
            assertThat(stage.name()).isNotBlank();
            assertThat(stage.completed()).isPositive();
        });
        assertThat(summary.stages().get(1).failed()).isPositive();
        assertThat(summary.headline().failedRequests()).isPositive();
    }

    @Test
    void aRunThatMeasuredNothingCarriesItsReason() throws Exception {
        CompactSummary summary = parse(CompactSummaryWriter.writeFailure("m", "x".repeat(100000)));

        assertThat(summary.stages()).isEmpty();
        assertThat(summary.warnings()).hasSize(1);
        assertThat(summary.warnings().get(0)).hasSizeLessThanOrEqualTo(300).startsWith("xxx");
    }

    @Test
    void cuttingNeverSplitsASurrogatePair() {
        String cut = CompactSummaryWriter.cut("ab😀😀😀", 4);
        assertThat(cut).isEqualTo("ab😀…");
    }
}
