package dev.llmops.serving.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.llmops.serving.runner.transport.CompletionRequest;
import dev.llmops.serving.runner.transport.OpenAiClient;
import dev.llmops.serving.runner.transport.RequestResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The capacities a simulator's settings imply, worked out by hand for a few settings, and checked against the
 * simulator itself under a closed loop measured by the runner's client.
 */
class SimulatedCapacityTest {

    /** ttft 50 ms, token delay 10 ms, +10 % per extra running request, batch limit 8. */
    private static final SimulatedCapacity SLOWING =
            new SimulatedCapacity(Duration.ofMillis(50), Duration.ofMillis(10), 0.1, 8);

    @Test
    void tpotGrowsWithTheRunningBatchUpToTheLimit() {
        assertThat(SLOWING.tpotMillis(1)).isCloseTo(10, within(1e-9));
        assertThat(SLOWING.tpotMillis(4)).isCloseTo(13, within(1e-9));
        assertThat(SLOWING.closedLoopTpotMillis(8)).isCloseTo(17, within(1e-9));
        assertThat(SLOWING.closedLoopTpotMillis(20))
                .as("above the limit the batch stays 8")
                .isCloseTo(17, within(1e-9));
    }

    @Test
    void aTpotLimitCapsTheConcurrencyWhereTheBatchGetsTooSlow() {
        assertThat(SLOWING.maxConcurrency(13.0, null)).isEqualTo(4);
        assertThat(SLOWING.maxConcurrency(13.5, null)).isEqualTo(4);
        assertThat(SLOWING.maxConcurrency(14.0, null)).isEqualTo(5);
        assertThat(SLOWING.maxConcurrency(9.0, null))
                .as("one stream is already too slow")
                .isZero();
        assertThat(SLOWING.maxConcurrency(17.0, null))
                .as("the full batch meets it, so queueing streams do too")
                .isEqualTo(SimulatedCapacity.UNBOUNDED_CONCURRENCY);
        assertThat(SLOWING.maxConcurrency(null, null)).isEqualTo(SimulatedCapacity.UNBOUNDED_CONCURRENCY);
    }

    @Test
    void queuedRequestsWaitWholeServiceTimesInWavesOfTheBatchLimit() {
        // 32 output tokens at batch 8: service time S = 50 + 31 × 17 = 577 ms.
        assertThat(SLOWING.closedLoopTtftMillis(8, 32)).isCloseTo(50, within(1e-9));
        assertThat(SLOWING.closedLoopTtftMillis(9, 32)).isCloseTo(627, within(1e-9));
        assertThat(SLOWING.closedLoopTtftMillis(16, 32)).isCloseTo(627, within(1e-9));
        assertThat(SLOWING.closedLoopTtftMillis(17, 32)).isCloseTo(50 + 2 * 577, within(1e-9));

        assertThat(SLOWING.maxConcurrency(null, 100.0, 32)).isEqualTo(8);
        assertThat(SLOWING.maxConcurrency(null, 627.0, 32)).isEqualTo(16);
        assertThat(SLOWING.maxConcurrency(null, 1203.0, 32)).isEqualTo(16);
        assertThat(SLOWING.maxConcurrency(null, 1204.0, 32)).isEqualTo(24);
        assertThat(SLOWING.maxConcurrency(14.0, 5000.0, 32))
                .as("the tighter limit wins")
                .isEqualTo(5);
        assertThat(SLOWING.maxConcurrency(null, 40.0, 32))
                .as("TTFT alone breaks it")
                .isZero();
    }

    @Test
    void withoutTheOutputLengthATtftLimitDecidesOnlyWhenNoQueuedRequestCanMeetIt() {
        assertThat(SLOWING.maxConcurrency(null, 99.0))
                .as("a queued request waits at least one TTFT more")
                .isEqualTo(8);
        assertThat(SLOWING.maxConcurrency(14.0, 500.0))
                .as("the batch limit is not reached")
                .isEqualTo(5);
        assertThatThrownBy(() -> SLOWING.maxConcurrency(null, 500.0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outputTokens");
    }

    @Test
    void aConstantRateRunsTheBatchItsArrivalsFillUntilTheBatchLimit() {
        var noSlowdown = new SimulatedCapacity(Duration.ofMillis(50), Duration.ofMillis(10), 0, 8);
        // E2E = 50 + 31 × 10 = 360 ms whatever the load; 8 slots hold 8 / 0.36 s = 22.2 req/s.
        assertThat(noSlowdown.constantRateTpotMillis(20, 32)).isCloseTo(10, within(1e-9));
        assertThat(noSlowdown.maxConstantRate(null, null, 32)).isCloseTo(8 / 0.36, within(1e-6));
        assertThat(noSlowdown.constantRateTpotMillis(23, 32)).isInfinite();
        assertThat(new SimulatedCapacity(Duration.ofMillis(50), Duration.ofMillis(10), 0, 0)
                        .maxConstantRate(10.0, null, 32))
                .isInfinite();
    }

    @Test
    void withSlowdownTheRateSolvesTheFixedPointOfBatchAndLatency() {
        var unlimited = new SimulatedCapacity(Duration.ofMillis(50), Duration.ofMillis(10), 0.1, 0);
        int tokens = 101;
        double rate = unlimited.maxConstantRate(15.0, null, tokens);
        // TPOT 15 ms means a mean batch of 6 and E2E = 50 + 100 × 15 = 1550 ms, so about 6 / 1.55 s = 3.9 req/s.
        assertThat(rate).isCloseTo(6 / 1.55, within(0.05));
        assertThat(unlimited.constantRateTpotMillis(rate, tokens)).isCloseTo(15, within(1e-6));
        assertThat(unlimited.constantRateTpotMillis(rate * 0.9, tokens)).isLessThan(15);

        assertThat(unlimited.maxConstantRate(null, null, tokens))
                .as("without limits only the run-away bounds it: E2E ≈ (50 + 900) / (1 − 100 × 10 ms × 0.1 × λ)")
                .isCloseTo(10, within(0.3));

        var limited = new SimulatedCapacity(Duration.ofMillis(50), Duration.ofMillis(10), 0.1, 4);
        assertThat(limited.maxConstantRate(15.0, null, tokens))
                .as("the batch limit binds first: 4 running at E2E 50 + 100 × 10 × (1 + 0.1 × ~3)")
                .isCloseTo(4 / 1.35, within(0.05));
        assertThat(limited.maxConstantRate(9.0, null, tokens)).isZero();
        assertThat(limited.maxConstantRate(null, 40.0, tokens)).isZero();
    }

    @Test
    void theServerUnderAClosedLoopMeasuresWhatTheModelSays() {
        int tokens = 40;
        try (SglangSimulator simulator = SglangSimulator.builder()
                        .ttft(Duration.ofMillis(20))
                        .tokenDelay(Duration.ofMillis(5))
                        .batchSlowdown(0.25)
                        .maxRunning(4)
                        .recordGroundTruth(false)
                        .start();
                OpenAiClient client = OpenAiClient.create()) {
            SimulatedCapacity model = simulator.capacity();

            List<RequestResult> two = closedLoop(client, simulator, 2, 3, tokens);
            assertThat(medianTpot(two)).isCloseTo(model.closedLoopTpotMillis(2), within(0.5));
            assertThat(model.closedLoopTpotMillis(2)).isCloseTo(6.25, within(1e-9));

            List<RequestResult> five = closedLoop(client, simulator, 5, 4, tokens);
            assertThat(medianTpot(five))
                    .as("above the batch limit the batch stays 4")
                    .isCloseTo(model.closedLoopTpotMillis(5), within(0.5));
            assertThat(model.closedLoopTpotMillis(5)).isCloseTo(8.75, within(1e-9));
            double longestTtft = five.stream()
                    .mapToDouble(result -> result.ttft().orElseThrow().toNanos() / 1e6)
                    .max()
                    .orElseThrow();
            assertThat(longestTtft)
                    .as("a queued request waits one whole request time of the full batch")
                    .isCloseTo(
                            model.closedLoopTtftMillis(5, tokens), within(0.1 * model.closedLoopTtftMillis(5, tokens)));
        }
    }

    @Test
    void theServerUnderConstantArrivalsMeasuresTheSteadyStateOfTheModel() throws InterruptedException {
        int tokens = 40;
        double rate = 10;
        try (SglangSimulator simulator = SglangSimulator.builder()
                        .ttft(Duration.ofMillis(20))
                        .tokenDelay(Duration.ofMillis(5))
                        .batchSlowdown(0.25)
                        .recordGroundTruth(false)
                        .start();
                OpenAiClient client = OpenAiClient.create()) {
            double expected = simulator.capacity().constantRateTpotMillis(rate, tokens);
            assertThat(expected).as("about 3.2 running at once").isBetween(7.5, 8.1);

            CompletionRequest request = request(simulator, tokens);
            List<CompletableFuture<RequestResult>> sent = new ArrayList<>();
            ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor();
            try {
                clock.scheduleAtFixedRate(
                        () -> sent.add(client.complete(request)), 0, Math.round(1000 / rate), TimeUnit.MILLISECONDS);
                Thread.sleep(3000);
            } finally {
                clock.shutdown();
                assertThat(clock.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
            }
            List<RequestResult> steady =
                    sent.stream().skip(10).map(CompletableFuture::join).toList();
            assertThat(medianTpot(steady)).isCloseTo(expected, within(0.5));
        }
    }

    private static CompletionRequest request(SglangSimulator simulator, int tokens) {
        return CompletionRequest.builder(simulator.baseUrl(), simulator.model())
                .prompt("How long is a token?")
                .maxTokens(tokens)
                .ignoreEos(true)
                .timeout(Duration.ofSeconds(30))
                .build();
    }

    /** {@code streams} streams each sending {@code rounds} requests one after the other, all started at once. */
    private static List<RequestResult> closedLoop(
            OpenAiClient client, SglangSimulator simulator, int streams, int rounds, int tokens) {
        CompletionRequest request = request(simulator, tokens);
        List<CompletableFuture<List<RequestResult>>> loops = new ArrayList<>();
        for (int i = 0; i < streams; i++) {
            CompletableFuture<List<RequestResult>> loop = CompletableFuture.completedFuture(List.of());
            for (int round = 0; round < rounds; round++) {
                loop = loop.thenCompose(done -> client.complete(request).thenApply(result -> {
                    List<RequestResult> more = new ArrayList<>(done);
                    more.add(result);
                    return more;
                }));
            }
            loops.add(loop);
        }
        List<RequestResult> results =
                loops.stream().flatMap(loop -> loop.join().stream()).toList();
        assertThat(results).allSatisfy(result -> assertThat(result.succeeded()).isTrue());
        return results;
    }

    private static double medianTpot(List<RequestResult> results) {
        double[] tpots = results.stream()
                .mapToDouble(result -> result.tpotMillis().orElseThrow())
                .sorted()
                .toArray();
        return tpots[tpots.length / 2];
    }
}
