package dev.llmops.serving.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.llmops.serving.api.contract.CapacityMode;
import dev.llmops.serving.api.contract.RunPlan;
import dev.llmops.serving.api.contract.SampleSet;
import dev.llmops.serving.runner.output.BenchmarkReport;
import dev.llmops.serving.runner.output.CapacityReport;
import dev.llmops.serving.runner.output.RequestSamples;
import dev.llmops.serving.runner.output.StageReport;
import dev.llmops.serving.runner.plan.BenchmarkConfig;
import dev.llmops.serving.runner.plan.Slo;
import dev.llmops.serving.runner.plan.StagePlan;
import dev.llmops.serving.runner.shard.Barrier;
import dev.llmops.serving.runner.shard.BarrierException;
import dev.llmops.serving.runner.shard.Rendezvous;
import dev.llmops.serving.runner.shard.Shard;
import dev.llmops.serving.runner.shard.ShardMerge;
import dev.llmops.serving.runner.shard.ShardResult;
import dev.llmops.serving.runner.shard.StageFigures;
import dev.llmops.serving.runner.statistics.LatencyHistogram;
import dev.llmops.serving.runner.statistics.LatencySummary;
import dev.llmops.serving.runner.transport.OpenAiClient;
import dev.llmops.serving.runner.transport.RequestResult;
import dev.llmops.serving.runner.workload.Arrival;
import dev.llmops.serving.runner.workload.Dataset;
import dev.llmops.serving.runner.workload.SessionShape;
import dev.llmops.serving.runner.workload.TraceDataset;
import dev.llmops.serving.runner.workload.TraceDatasetTest;
import dev.llmops.serving.runner.workload.TraceReplay;
import dev.llmops.serving.simulator.SglangSimulator;
import dev.llmops.serving.simulator.SimulatedCapacity;
import dev.llmops.serving.simulator.SimulatedRequest;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Shards of one run against the simulator, side by side in this process, meeting at a real rendezvous on loopback:
 * together they must send exactly the requests one runner sends, and their merge must be exactly what one runner
 * records for all their requests.
 */
class ShardedRunTest {

    private static final int READINESS_MAX_TOKENS = 8;

    private static OpenAiClient client;

    @BeforeAll
    static void createClient() {
        client = OpenAiClient.create();
    }

    @AfterAll
    static void closeClient() {
        client.close();
    }

    /** Every measured request of a shard with the time its latencies count from, by stage. */
    static final class Requests implements BenchmarkListener {
        final ConcurrentLinkedQueue<Map.Entry<String, long[]>> ttft = new ConcurrentLinkedQueue<>();
        final Map<String, List<StageFigures>> figures = new ConcurrentHashMap<>();

        @Override
        public void requestFinished(StagePlan stage, long index, long intendedNanos, RequestResult result) {
            if (result.succeeded()) {
                ttft.add(Map.entry(stage.name(), new long[] {result.firstTokenNanos() - intendedNanos, index}));
            }
        }

        @Override
        public void stageMeasured(StageFigures stage) {
            figures.computeIfAbsent(stage.name(), name -> new ArrayList<>()).add(stage);
        }
    }

    private static SglangSimulator simulator() {
        return SglangSimulator.builder()
                .ttft(Duration.ofMillis(15))
                .tokenDelay(Duration.ofMillis(2))
                .start();
    }

    private static BenchmarkConfig config(SglangSimulator simulator) {
        return BenchmarkConfig.builder(simulator.baseUrl(), simulator.model())
                .warmupRequests(0)
                .maxTokens(16)
                .concurrency(List.of(5))
                .rates(List.of(40.0))
                .requestsPerLevel(30)
                .arrival(Arrival.POISSON)
                .timeout(Duration.ofSeconds(20))
                .build();
    }

    /** The SHA-256 of each measured request body the simulator received, with how often. */
    private static Map<String, Long> measuredBodies(SglangSimulator simulator) {
        return simulator.requests().stream()
                .filter(request -> request.maxTokens() != READINESS_MAX_TOKENS)
                .collect(Collectors.groupingBy(SimulatedRequest::bodySha256, Collectors.counting()));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Runs {@code count} shards of {@code config} at once; each one's report, listener and result. */
    private static List<ShardResult> runShards(BenchmarkConfig config, int count, List<Requests> listeners)
            throws Exception {
        int port = freePort();
        ExecutorService shards = Executors.newFixedThreadPool(count);
        try {
            List<Future<ShardResult>> results = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                Shard shard = new Shard(i, count);
                Requests requests = new Requests();
                listeners.add(requests);
                RequestSamples samples = new RequestSamples(config);
                results.add(shards.submit(() -> {
                    try (Barrier barrier = Rendezvous.of(shard, "127.0.0.1", port, Duration.ofSeconds(30))) {
                        BenchmarkReport report = new BenchmarkRunner(
                                        config, client, BenchmarkListener.both(requests, samples), shard, barrier)
                                .run();
                        List<StageFigures> figures = report.stages().stream()
                                .map(stage -> requests.figures.get(stage.name()).get(0))
                                .toList();
                        return ShardResult.of(shard, report, figures, samples.sampleSet(warning -> {}));
                    }
                }));
            }
            List<ShardResult> done = new ArrayList<>();
            for (Future<ShardResult> result : results) {
                done.add(result.get());
            }
            return done;
        } finally {
            shards.shutdownNow();
        }
    }

    @Test
    void threeShardsSendExactlyTheRequestsOfOneRunner() throws Exception {
        Map<String, Long> single;
        try (SglangSimulator simulator = simulator()) {
            new BenchmarkRunner(config(simulator), client, new BenchmarkListener() {}).run();
            single = measuredBodies(simulator);
        }
        try (SglangSimulator simulator = simulator()) {
            List<ShardResult> shards = runShards(config(simulator), 3, new ArrayList<>());

            assertThat(measuredBodies(simulator)).isEqualTo(single);
            assertThat(single.values().stream().mapToLong(Long::longValue).sum())
                    .as("3 single prompts, 30 requests at c5 and 30 at r40")
                    .isEqualTo(63);
            assertThat(shards.get(1).report().singleRequests()).isEmpty();
            assertThat(shards.get(0).report().singleRequests()).hasSize(3);
        }
    }

    /** The measured request bodies one runner sends with {@code config}, and those {@code shards} shards send. */
    private static void shardsSendWhatOneRunnerSends(Function<SglangSimulator, BenchmarkConfig> config, int shards)
            throws Exception {
        Map<String, Long> single;
        try (SglangSimulator simulator = simulator()) {
            new BenchmarkRunner(config.apply(simulator), client, new BenchmarkListener() {}).run();
            single = measuredBodies(simulator);
        }
        try (SglangSimulator simulator = simulator()) {
            runShards(config.apply(simulator), shards, new ArrayList<>());

            assertThat(measuredBodies(simulator)).isNotEmpty().isEqualTo(single);
        }
    }

    @Test
    void twoShardsReplayEveryOtherRequestOfOneTrace() throws Exception {
        TraceReplay replay = new TraceReplay(TraceDataset.read(TraceDatasetTest.SAMPLE), List.of(10.0), 0, 20.0);

        shardsSendWhatOneRunnerSends(
                simulator -> BenchmarkConfig.builder(simulator.baseUrl(), simulator.model())
                        .singleRequests(false)
                        .warmupRequests(0)
                        .dataset(Dataset.TRACE)
                        .trace(replay)
                        .concurrency(List.of())
                        .maxTokens(2)
                        .timeout(Duration.ofSeconds(20))
                        .build(),
                2);
    }

    /** Two users of three turns each: one runner's two streams hold sessions 0 and 1, as do the two shards. */
    @Test
    void twoShardsHoldEveryOtherSessionOfALevel() throws Exception {
        shardsSendWhatOneRunnerSends(
                simulator -> BenchmarkConfig.builder(simulator.baseUrl(), simulator.model())
                        .singleRequests(false)
                        .warmupRequests(0)
                        .dataset(Dataset.SESSIONS)
                        .sessions(SessionShape.of(3, 40, 40).paced(Duration.ZERO, SessionShape.DEFAULT_HEADER))
                        .concurrency(List.of(2))
                        .requestsPerLevel(6)
                        .maxTokens(4)
                        .ignoreEos(true)
                        .timeout(Duration.ofSeconds(20))
                        .build(),
                2);
    }

    @Test
    void theMergeIsWhatOneRunnerRecordsForAllTheShardsRequests() throws Exception {
        try (SglangSimulator simulator = simulator()) {
            List<Requests> listeners = new ArrayList<>();
            List<ShardResult> shards = runShards(config(simulator), 2, listeners);
            List<ShardResult> readBack = shards.stream()
                    .map(shard -> ShardResult.fromGzip(shard.toGzip()))
                    .toList();

            ShardMerge.Merged merged = ShardMerge.merge(readBack);

            BenchmarkReport report = merged.report();
            assertThat(report.shards()).isEqualTo(2);
            assertThat(report.stages()).extracting(StageReport::name).containsExactly("single", "c5", "r40");
            for (String stage : List.of("c5", "r40")) {
                LatencyHistogram all = new LatencyHistogram();
                listeners.forEach(listener -> listener.ttft.stream()
                        .filter(entry -> entry.getKey().equals(stage))
                        .forEach(entry -> all.record(entry.getValue()[0])));
                StageReport mergedStage = report.stages().stream()
                        .filter(s -> s.name().equals(stage))
                        .findFirst()
                        .orElseThrow();
                LatencySummary expected = all.summary();
                LatencySummary actual = mergedStage.latency(StageReport.TTFT);
                assertThat(actual.median()).isEqualTo(expected.median());
                assertThat(actual.p90()).isEqualTo(expected.p90());
                assertThat(actual.p99()).isEqualTo(expected.p99());
                assertThat(actual.max()).isEqualTo(expected.max());
                assertThat(actual.mean()).isCloseTo(expected.mean(), within(1e-9));
                assertThat(mergedStage.completed()).isEqualTo(30);
                assertThat(mergedStage.shards()).extracting(s -> s.shard()).containsExactly(0, 1);
                double longestShard = shards.stream()
                        .flatMap(shard -> shard.stages().stream())
                        .filter(figures -> figures.name().equals(stage))
                        .mapToDouble(figures -> figures.report().durationSeconds())
                        .max()
                        .orElseThrow();
                assertThat(mergedStage.durationSeconds())
                        .as("the union of the shards' windows")
                        .isGreaterThanOrEqualTo(longestShard - 0.001);
                assertThat(mergedStage.outputThroughput())
                        .isCloseTo(mergedStage.totalOutputTokens() / mergedStage.durationSeconds(), within(1e-6));
            }
            assertThat(report.stages().get(2).mode()).isEqualTo(RunPlan.Mode.OPEN_LOOP);
            assertThat(report.stages().get(2).latency(StageReport.SCHEDULE_LAG)).isNotNull();

            SampleSet samples = merged.samples();
            assertThat(samples.stages()).hasSize(3);
            assertThat(samples.stages().get(1).index())
                    .as("every request of c5 by its position in the one sequence")
                    .containsExactly(IntStream.range(0, 30).toArray());
        }
    }

    @Test
    void twoShardsTakeTheSameProbesAndFindTheCapacityOfAllTheirStreams() throws Exception {
        Duration ttft = Duration.ofMillis(5);
        Duration tokenDelay = Duration.ofMillis(4);
        double tpotLimit = 14;
        int truth = new SimulatedCapacity(ttft, tokenDelay, 1, 0).maxConcurrency(tpotLimit, null);
        try (SglangSimulator simulator = SglangSimulator.builder()
                .ttft(ttft)
                .tokenDelay(tokenDelay)
                .batchSlowdown(1)
                .start()) {
            BenchmarkConfig search = BenchmarkConfig.builder(simulator.baseUrl(), simulator.model())
                    .singleRequests(false)
                    .concurrency(List.of())
                    .warmupRequests(1)
                    .maxTokens(16)
                    .dataset(Dataset.RANDOM)
                    .inputLength(16)
                    .outputLength(16)
                    .ignoreEos(true)
                    .findCapacity(CapacityMode.Concurrency)
                    .slo(new Slo(null, tpotLimit, null, null, 0.9))
                    .requestsPerLevel(20)
                    .timeout(Duration.ofSeconds(20))
                    .build();

            List<ShardResult> shards = runShards(search, 2, new ArrayList<>());

            CapacityReport zero = shards.get(0).report().capacity();
            CapacityReport one = shards.get(1).report().capacity();
            assertThat(one.probes())
                    .as("both shards took the same probes to the same verdicts")
                    .isEqualTo(zero.probes());
            assertThat(zero.outcome()).as(zero.reason()).isEqualTo("found");
            assertThat(zero.maxConcurrency())
                    .as("the capacity of both shards' streams together")
                    .isBetween(truth - 1, truth + 1);
            assertThat(zero.probes()).extracting(CapacityReport.Probe::name).startsWith("probe1-c1", "probe2-c2");
            BenchmarkReport merged = ShardMerge.merge(shards.stream()
                            .map(shard -> ShardResult.fromGzip(shard.toGzip()))
                            .toList())
                    .report();
            assertThat(merged.capacity()).isEqualTo(zero);
            assertThat(merged.stages())
                    .extracting(StageReport::name)
                    .containsExactlyElementsOf(zero.probes().stream()
                            .map(CapacityReport.Probe::name)
                            .toList());
            StageReport atCapacity = merged.stages().stream()
                    .filter(stage -> stage.maxConcurrency().equals(zero.maxConcurrency()))
                    .reduce((first, second) -> second)
                    .orElseThrow();
            assertThat(atCapacity.sloAttainment()).isEqualTo(zero.sloAttainment());
        }
    }

    @Test
    void aShardThatNeverComesFailsTheRunNamingIt() throws Exception {
        try (SglangSimulator simulator = simulator();
                Barrier barrier = Rendezvous.of(new Shard(0, 3), "127.0.0.1", freePort(), Duration.ofSeconds(1))) {
            BenchmarkRunner runner = new BenchmarkRunner(
                    config(simulator), client, new BenchmarkListener() {}, new Shard(0, 3), barrier);

            assertThatThrownBy(runner::run)
                    .isInstanceOf(BarrierException.class)
                    .hasMessage("shards 1, 2 of 3 did not reach stage single within 1 s of the first shard");
        }
    }

    @Test
    void mergingRefusesResultsThatAreNotEveryShardOfOneRunOnce() throws Exception {
        try (SglangSimulator simulator = simulator()) {
            List<ShardResult> shards = runShards(config(simulator), 2, new ArrayList<>());
            Function<List<ShardResult>, String> refusal = results -> {
                try {
                    ShardMerge.merge(results.stream()
                            .map(shard -> ShardResult.fromGzip(shard.toGzip()))
                            .toList());
                    return null;
                } catch (IllegalArgumentException e) {
                    return e.getMessage();
                }
            };

            assertThat(refusal.apply(List.of(shards.get(1)))).isEqualTo("shard 0 is missing (1 results for 2 shards)");
            assertThat(refusal.apply(List.of(shards.get(0)))).isEqualTo("shard 1 is missing (1 results for 2 shards)");
            assertThat(refusal.apply(List.of(shards.get(0), shards.get(0))))
                    .isEqualTo("shard 0 appears twice (2 results for 2 shards)");
        }
    }
}
