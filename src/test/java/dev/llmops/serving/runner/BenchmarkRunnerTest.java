package dev.llmops.serving.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.simulator.Fault;
import dev.llmops.serving.simulator.SglangSimulator;
import dev.llmops.serving.simulator.SimulatedRequest;
import java.time.Duration;
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

    /** What a perfect client would have measured for each request of a stage. */
    record Truth(
            double meanTtftMillis,
            double meanTtfcMillis,
            double medianItlMillis,
            double p99ItlMillis,
            double meanTpotMillis,
            double outputThroughput,
            long outputTokens) {

        static Truth of(List<RequestResult> results, SglangSimulator simulator) {
            Map<String, SimulatedRequest> byId = await().atMost(Duration.ofSeconds(10))
                    .until(
                            () -> simulator.requests().stream()
                                    .collect(Collectors.toMap(SimulatedRequest::id, Function.identity())),
                            recorded -> results.stream().allMatch(result -> recorded.containsKey(result.responseId())));
            double ttft = 0;
            double ttfc = 0;
            double tpot = 0;
            long tokens = 0;
            long firstSend = Long.MAX_VALUE;
            long lastChunk = Long.MIN_VALUE;
            List<Double> itl = new java.util.ArrayList<>();
            for (RequestResult result : results) {
                SimulatedRequest truth = byId.get(result.responseId());
                long[] sent = truth.sentChunkNanos();
                ttft += (sent[0] - result.sendNanos()) / 1e6;
                ttfc += (sent[truth.firstContentChunk()] - result.sendNanos()) / 1e6;
                tpot += (sent[sent.length - 1] - sent[0]) / 1e6 / (truth.completionTokens() - 1);
                for (int i = 1; i < sent.length; i++) {
                    for (int k = 0; k < truth.chunkTokens()[i]; k++) {
                        itl.add((sent[i] - sent[i - 1]) / 1e6 / truth.chunkTokens()[i]);
                    }
                }
                tokens += truth.completionTokens();
                firstSend = Math.min(firstSend, result.sendNanos());
                lastChunk = Math.max(lastChunk, sent[sent.length - 1]);
            }
            double[] sorted =
                    itl.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            int n = results.size();
            return new Truth(
                    ttft / n,
                    ttfc / n,
                    sorted[sorted.length / 2],
                    sorted[(int) Math.ceil(sorted.length * 0.99) - 1],
                    tpot / n,
                    tokens / ((lastChunk - firstSend) / 1e9),
                    tokens);
        }
    }

    /**
     * The stage's figures equal the ground truth within a few milliseconds and a few percent, plus whatever lag the
     * runner measured in itself and reported: on a machine whose CPUs are busy elsewhere the client's threads run late,
     * and then the runner must say so instead of reporting wrong figures silently.
     */
    private static void assertMatchesTruth(StageReport stage, Truth truth) {
        double lag = stage.clientLagP99Millis();
        double lagShare = stage.clientLagMaxMillis() / 1000 / stage.durationSeconds();
        if (lag > StageRecorder.CLIENT_LAG_WARNING_MILLIS) {
            assertThat(stage.warnings())
                    .anyMatch(warning -> warning.contains("the client may have been the bottleneck"));
        }
        assertThat(stage.failed()).isZero();
        assertThat(stage.totalOutputTokens()).isEqualTo(truth.outputTokens());
        double ttftError = stage.latency(StageReport.TTFT).mean() - truth.meanTtftMillis();
        assertThat(ttftError).as("%s mean TTFT error, ms", stage.name()).isBetween(0.0, 3.0 + lag);
        assertThat(stage.latency(StageReport.ITL).median())
                .as("%s median ITL", stage.name())
                .isCloseTo(truth.medianItlMillis(), within(1.0 + lag));
        assertThat(stage.latency(StageReport.ITL).p99())
                .as("%s p99 ITL", stage.name())
                .isCloseTo(truth.p99ItlMillis(), within(3.0 + stage.clientLagMaxMillis()));
        assertThat(stage.latency(StageReport.TPOT).mean())
                .as("%s mean TPOT", stage.name())
                .isCloseTo(truth.meanTpotMillis(), within(0.5 + lag));
        assertThat(stage.outputThroughput())
                .as("%s output throughput", stage.name())
                .isCloseTo(truth.outputThroughput(), within(truth.outputThroughput() * (0.03 + lagShare)));
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

            assertMatchesTruth(stage(report, "c1"), Truth.of(recording.of("c1"), simulator));
            assertMatchesTruth(stage(report, "c64"), Truth.of(recording.of("c64"), simulator));
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
            assertMatchesTruth(c8, Truth.of(recording.of("c8"), simulator));
            assertThat(c8.totalOutputTokens()).isEqualTo(32 * 40);
            assertThat(c8.latency(StageReport.ITL).median()).isCloseTo(3.0, within(1.0));
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
            Truth truth = Truth.of(recording.of("c4"), simulator);
            double lag = c4.clientLagP99Millis();
            assertThat(c4.latency(StageReport.TTFT).mean() - truth.meanTtftMillis())
                    .isBetween(0.0, 3.0 + lag);
            assertThat(c4.latency(StageReport.TTFC).mean() - truth.meanTtfcMillis())
                    .isBetween(0.0, 3.0 + lag);
            assertThat(c4.latency(StageReport.TTFC).mean()
                            - c4.latency(StageReport.TTFT).mean())
                    .as("the reasoning phase: 10 tokens × 3 ms")
                    .isCloseTo(30.0, within(3.0 + lag));
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
            assertThat(r200.mode()).isEqualTo(StagePlan.Mode.OPEN_LOOP);
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
