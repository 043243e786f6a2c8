package dev.llmops.serving.runner.output;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmops.serving.api.contract.BenchmarkDefaults;
import dev.llmops.serving.api.contract.CapacityMode;
import dev.llmops.serving.api.contract.CompactSummary;
import dev.llmops.serving.api.contract.PlainNumber;
import dev.llmops.serving.api.contract.RunPlan;
import dev.llmops.serving.runner.plan.BenchmarkConfig;
import dev.llmops.serving.runner.plan.CapacitySearch;
import dev.llmops.serving.runner.plan.Slo;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class CompactSummaryWriterTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static BenchmarkReport report(
            String model, int levels, List<String> prompts, List<String> warnings, Map<String, Integer> failures) {
        BenchmarkConfig config = BenchmarkConfig.builder(URI.create("http://127.0.0.1:30000"), model)
                .build();
        List<StageReport> stages = new ArrayList<>();
        stages.add(Reports.stage("single", RunPlan.Mode.SINGLE, 1, 45.678, 9000, Map.of(), List.of()));
        for (int i = 1; i <= levels; i++) {
            stages.add(Reports.stage(
                    "c" + (4096 - i),
                    RunPlan.Mode.CLOSED_LOOP,
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
    void theServersCacheHitRateOfAStageIsCarriedWhereItReportedOne() throws Exception {
        BenchmarkReport plain = report("m", 2, List.of(), List.of(), Map.of());
        List<StageReport> stages = new ArrayList<>(plain.stages());
        stages.set(
                1,
                stages.get(1)
                        .withServer(new ServerStageReport(
                                null, null, null, null, null, null, 0.43125, "counters", null, null, 60.0, 12, 1)));
        BenchmarkReport withCache = BenchmarkReport.of(
                BenchmarkConfig.builder(URI.create("http://127.0.0.1:30000"), "m")
                        .build(),
                plain.startedAt(),
                stages,
                List.of(),
                List.of(),
                null);

        CompactSummary summary = parse(CompactSummaryWriter.write(withCache));

        assertThat(summary.stages())
                .extracting(CompactSummary.Stage::cacheHitRate)
                .containsExactly(null, 0.431, null);
    }

    @Test
    void theCachedShareOfAStagesPromptTokensIsCarriedWhereTheServersUsageReportedIt() throws Exception {
        BenchmarkReport plain = report("m", 2, List.of(), List.of(), Map.of());
        List<StageReport> stages = new ArrayList<>(plain.stages());
        stages.set(2, Reports.withCachedTokens(stages.get(2), 4321, 0.87654));
        BenchmarkReport withCache = BenchmarkReport.of(
                BenchmarkConfig.builder(URI.create("http://127.0.0.1:30000"), "m")
                        .build(),
                plain.startedAt(),
                stages,
                List.of(),
                List.of(),
                null);

        CompactSummary summary = parse(CompactSummaryWriter.write(withCache));

        assertThat(summary.stages())
                .extracting(CompactSummary.Stage::cachedPromptShare)
                .containsExactly(null, null, 0.877);
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

    private static BenchmarkReport rateReport(int stages, List<String> warnings) {
        BenchmarkConfig config = BenchmarkConfig.builder(URI.create("http://127.0.0.1:30000"), "m")
                .findCapacity(CapacityMode.Rate)
                .slo(new Slo(500.0, null, null, null, 0.95))
                .build();
        CapacitySearch search = new CapacitySearch(CapacityMode.Rate, 1, 4, 1800);
        List<StageReport> reports = new ArrayList<>();
        for (int k = 1; k <= stages; k++) {
            reports.add(Reports.rate("r" + k, k, 0.99));
        }
        Optional<Double> next = search.next(0);
        for (int k = 1; next.isPresent(); k++) {
            double rate = next.get();
            boolean met = rate <= 3;
            StageReport probe = Reports.rate("probe" + k + "-r" + PlainNumber.text(rate), rate, met ? 0.98 : 0.5);
            search.record(new CapacitySearch.Verdict(rate, met, false, probe));
            reports.add(probe);
            next = search.next(0);
        }
        return BenchmarkReport.of(
                config,
                "2026-01-01T00:00:00Z",
                reports,
                List.of(),
                warnings,
                CapacityReport.of(CapacityMode.Rate, search));
    }

    @Test
    void version2CarriesRatesGoodputAndTheCapacity() throws Exception {
        CompactSummary summary = parse(CompactSummaryWriter.write(rateReport(4, List.of())));

        assertThat(summary.version()).isEqualTo(2);
        assertThat(summary.truncated()).isNull();
        assertThat(summary.stages())
                .extracting(CompactSummary.Stage::name)
                .containsExactly("r1", "r2", "r3", "r4", "probe1-r1", "probe2-r2", "probe3-r4", "probe4-r3");
        CompactSummary.Stage first = summary.stages().get(4);
        assertThat(first.requestRate()).isEqualTo(1.0);
        assertThat(first.achievedRequestRate()).isEqualTo(0.988);
        assertThat(first.scheduleLagMillis()).containsExactly(0.543, 3.46, 12.3);
        assertThat(first.sloAttainment()).isEqualTo(0.98);
        assertThat(first.goodputRequestsPerSecond()).isEqualTo(12.1);
        assertThat(first.goodputTokensPerSecond()).isEqualTo(1210);
        CompactSummary.Capacity capacity = summary.capacity();
        assertThat(capacity.mode()).isEqualTo("rate");
        assertThat(capacity.outcome()).isEqualTo("budget-exhausted");
        assertThat(capacity.requestRate()).isEqualTo(3.0);
        assertThat(capacity.concurrency()).isNull();
        assertThat(capacity.sloAttainment()).isEqualTo(0.98);
        assertThat(capacity.p99TtftMillis()).isEqualTo(345.7);
        assertThat(capacity.probes()).isEqualTo(4);
        assertThat(capacity.reason()).isNotBlank().hasSizeLessThanOrEqualTo(200);
    }

    @Test
    void truncationDropsScheduleLagWithTheLatencyArraysButNeverGoodputOrTheCapacity() throws Exception {
        List<String> warnings = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            warnings.add("probe" + i + ": the client could not keep the arrival schedule " + "x".repeat(200));
        }
        String json = CompactSummaryWriter.write(rateReport(40, warnings));
        CompactSummary summary = parse(json);

        assertThat(summary.truncated()).isTrue();
        assertThat(summary.stages()).hasSize(44).allSatisfy(stage -> {
            assertThat(stage.scheduleLagMillis()).isNull();
            assertThat(stage.sloAttainment()).isNotNull();
            assertThat(stage.goodputRequestsPerSecond()).isNotNull();
            assertThat(stage.goodputTokensPerSecond()).isNotNull();
        });
        assertThat(summary.capacity()).isNotNull();
        assertThat(summary.capacity().sloAttainment()).isEqualTo(0.98);
        assertThat(summary.capacity().p99E2eMillis()).isNotNull();
    }

    @Test
    void scheduleLagGoesBeforeTtft() throws Exception {
        CompactSummary summary = parse(CompactSummaryWriter.write(rateReport(14, List.of())));

        assertThat(summary.truncated()).isTrue();
        assertThat(summary.stages().get(0).scheduleLagMillis()).isNull();
        assertThat(summary.stages().get(0).ttftMillis()).isNotNull();
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
