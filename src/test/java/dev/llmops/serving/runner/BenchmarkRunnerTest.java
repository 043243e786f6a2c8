package dev.llmops.serving.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.api.contract.CompactSummary;
import dev.llmops.serving.api.contract.RunPlan;
import dev.llmops.serving.runner.output.BenchmarkReport;
import dev.llmops.serving.runner.output.CompactSummaryWriter;
import dev.llmops.serving.runner.output.StageReport;
import dev.llmops.serving.runner.plan.BenchmarkConfig;
import dev.llmops.serving.runner.plan.StagePlan;
import dev.llmops.serving.runner.transport.OpenAiClient;
import dev.llmops.serving.runner.transport.RequestResult;
import dev.llmops.serving.runner.transport.TokenCounting;
import dev.llmops.serving.runner.workload.Dataset;
import dev.llmops.serving.runner.workload.SharedPrefixShape;
import dev.llmops.serving.simulator.Fault;
import dev.llmops.serving.simulator.SglangSimulator;
import dev.llmops.serving.simulator.SimulatedRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The runner against the simulator over real HTTP: its figures must match what the simulator actually sent. The
 * ground truth of a request is what a perfect client would have measured — the simulator's write times minus the
 * runner's send time, on the same clock — so the remaining difference is the client's own error.
 */
class BenchmarkRunnerTest {

    private static OpenAiClient client;

    @BeforeAll
    static void createClient() {
        client = OpenAiClient.create();
    }

    @AfterAll
    static void closeClient() {
        client.close();
    }

    /** Keeps every measured result by stage, so tests can pair it with the simulator's record. */
    static class Recording implements BenchmarkListener {
        final ConcurrentLinkedQueue<Map.Entry<String, RequestResult>> results = new ConcurrentLinkedQueue<>();

        @Override
        public void requestFinished(StagePlan stage, RequestResult result) {
            results.add(Map.entry(stage.name(), result));
        }

        List<RequestResult> of(String stage) {
            return results.stream()
                    .filter(entry -> entry.getKey().equals(stage))
                    .map(Map.Entry::getValue)
                    .toList();
        }
    }

    private static BenchmarkConfig.Builder config(SglangSimulator simulator) {
        return BenchmarkConfig.builder(simulator.baseUrl(), simulator.model())
                .singleRequests(false)
                .warmupRequests(2)
                .timeout(Duration.ofSeconds(20));
    }

    private static BenchmarkReport run(BenchmarkConfig config, BenchmarkListener listener) throws Exception {
        return new BenchmarkRunner(config, client, listener).run();
    }

    private static StageReport stage(BenchmarkReport report, String name) {
        return report.stages().stream()
                .filter(stage -> stage.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    /** The simulator's record of each request of a stage, by response id, once all are recorded. */
    private static Map<String, SimulatedRequest> truthOf(List<RequestResult> results, SglangSimulator simulator) {
        return await().atMost(Duration.ofSeconds(10))
                .until(
                        () -> simulator.requests().stream()
                                .collect(Collectors.toMap(SimulatedRequest::id, Function.identity())),
                        recorded -> results.stream().allMatch(result -> recorded.containsKey(result.responseId())));
    }

    /**
     * Robust by construction, however busy the machine: what the runner reports for a stage is exactly what its own
     * per-request timestamps say (up to the histogram's 0.1 %), and those timestamps are causal against the server's
     * ground truth (its time just before each write): no token read before the server wrote it, none lost. How close
     * the client's timestamps come to the server's on a busy machine is a performance figure, measured side by side
     * with a Python peer by hack/perf/runner-vs-python.sh (docs/performance.md), not asserted with a tolerance here.
     */
    private static void assertMatchesTruth(StageReport stage, List<RequestResult> results, SglangSimulator simulator) {
        Map<String, SimulatedRequest> truth = truthOf(results, simulator);
        assertThat(stage.failed()).isZero();
        assertThat(stage.completed()).isEqualTo(results.size());
        assertThat(stage.totalOutputTokens())
                .isEqualTo(results.stream()
                        .mapToLong(r -> truth.get(r.responseId()).completionTokens())
                        .sum());
        for (RequestResult result : results) {
            SimulatedRequest served = truth.get(result.responseId());
            long[] sent = served.sentChunkNanos();
            assertThat(result.firstTokenNanos())
                    .as("first token read after it was written")
                    .isGreaterThanOrEqualTo(sent[0]);
            assertThat(result.endNanos())
                    .as("last chunk read after it was written")
                    .isGreaterThanOrEqualTo(sent[sent.length - 1]);
        }
        assertThat(stage.latency(StageReport.TTFT).mean())
                .as("%s mean TTFT from the requests' own timestamps", stage.name())
                .isCloseTo(
                        results.stream()
                                .mapToDouble(r -> (r.firstTokenNanos() - r.sendNanos()) / 1e6)
                                .average()
                                .orElseThrow(),
                        within(1e-6));
        assertThat(stage.latency(StageReport.TPOT).mean())
                .as("%s mean TPOT", stage.name())
                .isCloseTo(
                        results.stream()
                                .mapToDouble(r -> r.tpotMillis().orElseThrow())
                                .average()
                                .orElseThrow(),
                        within(1e-6));
        List<Long> itl = new ArrayList<>();
        results.forEach(r -> r.forEachInterTokenLatency((nanos, tokens) -> {
            for (int k = 0; k < tokens; k++) {
                itl.add(nanos);
            }
        }));
        itl.sort(null);
        double medianItl = itl.get((itl.size() - 1) / 2) / 1e6;
        assertThat(stage.latency(StageReport.ITL).median())
                .as("%s median ITL", stage.name())
                .isCloseTo(medianItl, within(medianItl * 0.002 + 0.001));
        long firstSend =
                results.stream().mapToLong(RequestResult::sendNanos).min().orElseThrow();
        long lastEnd = results.stream().mapToLong(RequestResult::endNanos).max().orElseThrow();
        assertThat(stage.outputThroughput())
                .as("%s output throughput over the window", stage.name())
                .isCloseTo(stage.totalOutputTokens() / ((lastEnd - firstSend) / 1e9), within(1e-6));
    }

    @Test
    void timingsMatchGroundTruthAtConcurrencyOneAndSixtyFour() throws Exception {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .ttft(Duration.ofMillis(30))
                .tokenDelay(Duration.ofMillis(8))
                .start()) {
            Recording recording = new Recording();
            BenchmarkReport report = run(
                    config(simulator).concurrency(List.of(1, 64)).maxTokens(24).build(), recording);

            assertMatchesTruth(stage(report, "c1"), recording.of("c1"), simulator);
            assertMatchesTruth(stage(report, "c64"), recording.of("c64"), simulator);
            assertThat(stage(report, "c64").completed()).isEqualTo(256);
            assertThat(stage(report, "c64").achievedConcurrency()).isGreaterThan(40);
        }
    }

    @Test
    void aChunkOfKTokensCountsAsKTokens() throws Exception {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .ttft(Duration.ofMillis(20))
                .tokenDelay(Duration.ofMillis(3))
                .tokensPerChunk(4)
                .start()) {
            Recording recording = new Recording();
            BenchmarkReport report =
                    run(config(simulator).concurrency(List.of(8)).maxTokens(40).build(), recording);

            StageReport c8 = stage(report, "c8");
            assertMatchesTruth(c8, recording.of("c8"), simulator);
            assertThat(c8.totalOutputTokens()).isEqualTo(32 * 40);
            assertThat(recording.of("c8")).allSatisfy(result -> {
                assertThat(result.tokenChunkTokens()).containsOnly(4);
                assertThat(result.tokenCounting()).isEqualTo(TokenCounting.SERVER_PER_CHUNK);
            });
        }
    }

    @Test
    void withoutPerChunkUsageTheServersTotalIsSpreadOverChunks() throws Exception {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .ttft(Duration.ofMillis(10))
                .tokenDelay(Duration.ofMillis(2))
                .tokensPerChunk(3)
                .start()) {
            Recording recording = new Recording();
            BenchmarkReport report = run(
                    config(simulator)
                            .concurrency(List.of(4))
                            .maxTokens(30)
                            .continuousUsage(false)
                            .build(),
                    recording);

            StageReport c4 = stage(report, "c4");
            assertThat(c4.totalOutputTokens()).isEqualTo(16 * 30);
            assertThat(recording.of("c4")).allSatisfy(result -> {
                assertThat(result.tokenCounting()).isEqualTo(TokenCounting.SERVER_TOTAL);
                assertThat(Arrays.stream(result.tokenChunkTokens()).sum()).isEqualTo(30);
                assertThat(result.tokenChunkTokens()).hasSize(10);
            });
            assertThat(c4.warnings()).anyMatch(warning -> warning.contains("splits chunks by characters"));
        }
    }

    @Test
    void reasoningAndContentTtftAreMeasuredSeparately() throws Exception {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .ttft(Duration.ofMillis(20))
                .tokenDelay(Duration.ofMillis(3))
                .reasoningTokens(10)
                .start()) {
            Recording recording = new Recording();
            BenchmarkReport report =
                    run(config(simulator).concurrency(List.of(4)).maxTokens(20).build(), recording);

            StageReport c4 = stage(report, "c4");
            List<RequestResult> results = recording.of("c4");
            assertMatchesTruth(c4, results, simulator);
            Map<String, SimulatedRequest> truth = truthOf(results, simulator);
            for (RequestResult result : results) {
                SimulatedRequest served = truth.get(result.responseId());
                long[] intended = served.intendedChunkNanos();
                assertThat(intended[served.firstContentChunk()] - intended[0])
                        .as("the server's reasoning phase: 10 tokens × 3 ms")
                        .isEqualTo(Duration.ofMillis(30).toNanos());
                assertThat(result.firstContentNanos())
                        .as("first content read after it was written")
                        .isGreaterThanOrEqualTo(served.sentChunkNanos()[served.firstContentChunk()]);
            }
            assertThat(c4.latency(StageReport.TTFC).mean())
                    .as("TTFC from the requests' own timestamps")
                    .isCloseTo(
                            results.stream()
                                    .mapToDouble(r -> (r.firstContentNanos() - r.sendNanos()) / 1e6)
                                    .average()
                                    .orElseThrow(),
                            within(1e-6));
            assertThat(c4.totalReasoningTokens()).isEqualTo(16 * 10);
        }
    }

    @Test
    void eachFaultIsCountedUnderItsClassAndTheRunStillReports() throws Exception {
        Map<String, Runnable> faults;
        try (SglangSimulator simulator = SglangSimulator.builder()
                .ttft(Duration.ofMillis(5))
                .tokenDelay(Duration.ofMillis(1))
                .start()) {
            faults = Map.of(
                    "c2", () -> simulator.setErrorRate(0.5),
                    "c3",
                            () -> {
                                simulator.setErrorRate(0);
                                simulator.setFault(Fault.DISCONNECT);
                            },
                    "c4", () -> simulator.setFault(Fault.HANG),
                    "c5", () -> simulator.setFault(Fault.NONE));
            BenchmarkListener switcher = new BenchmarkListener() {
                @Override
                public void stageStarted(StagePlan stage, int index, int stages) {
                    faults.get(stage.name()).run();
                }
            };
            BenchmarkReport report = run(
                    config(simulator)
                            .concurrency(List.of(2, 3, 4, 5))
                            .requestsPerLevel(6)
                            .maxTokens(10)
                            .timeout(Duration.ofMillis(1500))
                            .build(),
                    switcher);

            assertThat(stage(report, "c2").failures()).containsExactly(Map.entry("http_500", 3));
            assertThat(stage(report, "c2").errors().get("http_500")).contains("simulated");
            assertThat(stage(report, "c3").failures()).containsExactly(Map.entry("disconnect", 6));
            assertThat(stage(report, "c4").failures()).containsExactly(Map.entry("timeout", 6));
            assertThat(stage(report, "c5").failures()).isEmpty();
            assertThat(stage(report, "c5").completed()).isEqualTo(6);
            assertThat(report.failures())
                    .containsOnly(Map.entry("http_500", 3), Map.entry("disconnect", 6), Map.entry("timeout", 6));
            String summary = CompactSummaryWriter.write(report);
            CompactSummary parsed =
                    new com.fasterxml.jackson.databind.ObjectMapper().readValue(summary, CompactSummary.class);
            assertThat(parsed.failuresByClass()).containsEntry("timeout", 6);
            assertThat(parsed.headline().failedRequests()).isEqualTo(15);
        }
    }

    @Test
    void outputsShortOfMaxTokensUnderIgnoreEosAreCounted() throws Exception {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .ttft(Duration.ofMillis(5))
                .tokenDelay(Duration.ofMillis(1))
                .naturalLength(8)
                .honourIgnoreEos(false)
                .start()) {
            BenchmarkReport report = run(
                    config(simulator)
                            .dataset(Dataset.RANDOM)
                            .inputLength(12)
                            .outputLength(16)
                            .ignoreEos(true)
                            .concurrency(List.of(2))
                            .build(),
                    new BenchmarkListener() {});

            StageReport c2 = stage(report, "c2");
            assertThat(c2.shortOutputs()).isEqualTo(8);
            assertThat(c2.totalOutputTokens()).isEqualTo(8 * 8);
            assertThat(c2.totalInputTokens()).isEqualTo(8 * 12);
            assertThat(c2.warnings()).anyMatch(warning -> warning.contains("fewer than 16 tokens despite ignore_eos"));
        }
    }

    /** Cached over prompt tokens of a stage's requests, by the simulator's ground truth. */
    private static double cachedShareOf(List<RequestResult> results, SglangSimulator simulator) {
        Map<String, SimulatedRequest> truth = truthOf(results, simulator);
        long prompt = results.stream()
                .mapToLong(r -> truth.get(r.responseId()).promptTokens())
                .sum();
        long cached = results.stream()
                .mapToLong(r -> truth.get(r.responseId()).cachedTokens())
                .sum();
        return (double) cached / prompt;
    }

    @Test
    void theCachedShareOfPromptTokensIsTheSimulatorsGroundTruth() throws Exception {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .ttft(Duration.ofMillis(20))
                .tokenDelay(Duration.ofMillis(1))
                .start()) {
            Recording shared = new Recording();
            BenchmarkReport sharedPrefix = run(
                    config(simulator)
                            .dataset(Dataset.SHARED_PREFIX)
                            .sharedPrefix(new SharedPrefixShape(4, 256, 32))
                            .concurrency(List.of(4))
                            .requestsPerLevel(40)
                            .maxTokens(4)
                            .build(),
                    shared);
            Recording random = new Recording();
            BenchmarkReport randomPrompts = run(
                    config(simulator)
                            .dataset(Dataset.RANDOM)
                            .inputLength(256)
                            .concurrency(List.of(4))
                            .requestsPerLevel(40)
                            .maxTokens(4)
                            .build(),
                    random);

            StageReport sharedStage = stage(sharedPrefix, "c4");
            double truth = cachedShareOf(shared.of("c4"), simulator);
            assertThat(truth)
                    .as("all but the first request of each of the 4 groups find its 256-word system prompt cached")
                    .isCloseTo(36 * 256 / (40 * 288.0), within(0.02));
            assertThat(sharedStage.cachedPromptShare()).isCloseTo(truth, within(1e-12));
            assertThat(sharedStage.totalCachedTokens())
                    .isEqualTo(shared.of("c4").stream()
                            .mapToLong(RequestResult::cachedPromptTokens)
                            .sum());
            assertThat(sharedStage.server().cacheHitRate())
                    .as("the server's own counters over the stage agree")
                    .isCloseTo(truth, within(1e-12));
            CompactSummary summary = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readValue(CompactSummaryWriter.write(sharedPrefix), CompactSummary.class);
            assertThat(summary.stages().get(0).cachedPromptShare()).isCloseTo(truth, within(0.001));
            StageReport randomStage = stage(randomPrompts, "c4");
            assertThat(cachedShareOf(random.of("c4"), simulator)).isZero();
            assertThat(randomStage.cachedPromptShare())
                    .as("random prompts share no prefix")
                    .isZero();
            assertThat(randomStage.totalCachedTokens()).isZero();
        }
    }

    @Test
    void aServerThatReportsNoCachedTokensGetsNoCachedShareRatherThanZero() throws Exception {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .ttft(Duration.ofMillis(5))
                .tokenDelay(Duration.ofMillis(1))
                .reportCachedTokens(false)
                .start()) {
            BenchmarkReport report = run(
                    config(simulator)
                            .dataset(Dataset.SHARED_PREFIX)
                            .sharedPrefix(new SharedPrefixShape(1, 64, 8))
                            .concurrency(List.of(2))
                            .requestsPerLevel(6)
                            .maxTokens(4)
                            .build(),
                    new BenchmarkListener() {});

            StageReport c2 = stage(report, "c2");
            assertThat(c2.completed()).isEqualTo(6);
            assertThat(c2.totalCachedTokens()).isNull();
            assertThat(c2.cachedPromptShare()).isNull();
            assertThat(new com.fasterxml.jackson.databind.ObjectMapper()
                            .valueToTree(c2)
                            .has("cached_prompt_share"))
                    .isFalse();
            assertThat(CompactSummaryWriter.write(report)).doesNotContain("\"cps\"");
        }
    }

    @Test
    void openLoopLatencyCountsFromTheIntendedSendTime() throws Exception {
        // The server answers at once; the client's only callback thread is held for 600 ms as the stage starts, so
        // the 20 requests due within about 100 ms are sent only after it: the queueing is the client's own.
        try (SglangSimulator simulator = SglangSimulator.builder()
                        .ttft(Duration.ofMillis(5))
                        .tokenDelay(Duration.ofMillis(1))
                        .maxRunning(64)
                        .start();
                OpenAiClient slowClient = OpenAiClient.create(1, Duration.ofSeconds(10))) {
            BenchmarkListener holdTheClient = new BenchmarkListener() {
                @Override
                public void stageStarted(StagePlan stage, int index, int stages) {
                    slowClient.callbackExecutor().execute(() -> {
                        try {
                            Thread.sleep(600);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    });
                }
            };
            BenchmarkReport report = new BenchmarkRunner(
                            config(simulator)
                                    .concurrency(List.of())
                                    .rates(List.of(200.0))
                                    .requestsPerLevel(20)
                                    .maxTokens(10)
                                    .build(),
                            slowClient,
                            holdTheClient)
                    .run();

            StageReport r200 = stage(report, "r200");
            assertThat(r200.mode()).isEqualTo(RunPlan.Mode.OPEN_LOOP);
            assertThat(r200.requestRate()).isEqualTo(200.0);
            assertThat(r200.completed()).isEqualTo(20);
            assertThat(r200.latency(StageReport.SCHEDULE_LAG).median())
                    .as("the client sent late")
                    .isGreaterThan(300);
            assertThat(r200.latency(StageReport.TTFT).median())
                    .as("TTFT counts the client's delay, not just the server's 5 ms")
                    .isGreaterThan(300);
        }
    }
}
