package dev.llmops.serving.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.api.contract.BenchmarkDefaults;
import dev.llmops.serving.api.contract.CapacityMode;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.operator.benchmark.BenchmarkResults;
import dev.llmops.serving.operator.benchmark.SummaryParser;
import dev.llmops.serving.runner.output.BenchmarkReport;
import dev.llmops.serving.runner.output.CapacityReport;
import dev.llmops.serving.runner.output.CompactSummaryWriter;
import dev.llmops.serving.runner.output.StageReport;
import dev.llmops.serving.runner.plan.BenchmarkConfig;
import dev.llmops.serving.runner.plan.CapacitySearch;
import dev.llmops.serving.runner.plan.Slo;
import dev.llmops.serving.runner.plan.StagePlan;
import dev.llmops.serving.runner.transport.OpenAiClient;
import dev.llmops.serving.runner.transport.RequestResult;
import dev.llmops.serving.runner.workload.Arrival;
import dev.llmops.serving.runner.workload.Dataset;
import dev.llmops.serving.runner.workload.TraceDataset;
import dev.llmops.serving.runner.workload.TraceDatasetTest;
import dev.llmops.serving.runner.workload.TraceReplay;
import dev.llmops.serving.simulator.SglangSimulator;
import dev.llmops.serving.simulator.SimulatedCapacity;
import dev.llmops.serving.simulator.SimulatedRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Open-loop arrivals, the cap on requests in flight, goodput and the capacity search against the simulator over real
 * HTTP, checked with the simulator's own record of when requests arrived and what its settings imply.
 */
class OpenLoopAndCapacityTest {

    private static final Duration TTFT = Duration.ofMillis(5);
    private static final Duration TOKEN_DELAY = Duration.ofMillis(4);
    private static final double BATCH_SLOWDOWN = 1;
    private static final int OUTPUT_TOKENS = 16;

    private static OpenAiClient client;

    @BeforeAll
    static void createClient() {
        client = OpenAiClient.create();
    }

    @AfterAll
    static void closeClient() {
        client.close();
    }

    private static BenchmarkConfig.Builder config(SglangSimulator simulator) {
        return BenchmarkConfig.builder(simulator.baseUrl(), simulator.model())
                .singleRequests(false)
                .concurrency(List.of())
                .warmupRequests(1)
                .maxTokens(OUTPUT_TOKENS)
                .ignoreEos(true)
                .timeout(Duration.ofSeconds(20));
    }

    private static SglangSimulator.Builder fastSimulator() {
        return SglangSimulator.builder().ttft(Duration.ofMillis(1)).tokenDelay(Duration.ofMillis(1));
    }

    private static BenchmarkReport run(BenchmarkConfig config, BenchmarkRunnerTest.Recording recording)
            throws Exception {
        return new BenchmarkRunner(config, client, recording).run();
    }

    private static StageReport stage(BenchmarkReport report, String name) {
        return report.stages().stream()
                .filter(stage -> stage.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    /** The simulator's record of a stage's requests, in order of arrival. */
    private static List<SimulatedRequest> truthOf(
            SglangSimulator simulator, BenchmarkRunnerTest.Recording recording, String stage) {
        Set<String> ids =
                recording.of(stage).stream().map(RequestResult::responseId).collect(Collectors.toSet());
        return await().atMost(Duration.ofSeconds(10))
                .until(
                        () -> simulator.requests().stream()
                                .filter(request -> ids.contains(request.id()))
                                .sorted((a, b) -> Long.compare(a.receivedNanos(), b.receivedNanos()))
                                .toList(),
                        requests -> requests.size() == ids.size());
    }

    /** Records the intended send times of one stage's requests, as the arrival timer hands them out. */
    static final class Schedule extends BenchmarkRunnerTest.Recording {
        final List<Long> intendedNanos = new CopyOnWriteArrayList<>();

        @Override
        public void requestScheduled(StagePlan stage, long intended) {
            intendedNanos.add(intended);
        }

        double[] gapsSeconds() {
            double[] gaps = new double[intendedNanos.size() - 1];
            for (int i = 1; i < intendedNanos.size(); i++) {
                gaps[i - 1] = (intendedNanos.get(i) - intendedNanos.get(i - 1)) / 1e9;
            }
            return gaps;
        }
    }

    @Test
    void poissonInterArrivalTimesFitTheExponentialDistribution() throws Exception {
        double rate = 100;
        try (SglangSimulator simulator = fastSimulator().start()) {
            Schedule schedule = new Schedule();
            BenchmarkReport report = run(
                    config(simulator)
                            .rates(List.of(rate))
                            .requestsPerLevel(300)
                            .maxTokens(2)
                            .build(),
                    schedule);

            double[] gaps = schedule.gapsSeconds();
            assertThat(gaps).hasSize(299);
            assertThat(Statistics.ksDistanceFromExponential(gaps, rate))
                    .as("Kolmogorov–Smirnov distance from Exp(%s) of %s gaps", rate, gaps.length)
                    .isLessThan(Statistics.ksCriticalValue(gaps.length));
            assertThat(truthOf(simulator, schedule, "r100"))
                    .as("requests the server saw")
                    .hasSize(300);
            StageReport r100 = stage(report, "r100");
            assertThat(r100.arrival()).isEqualTo(Arrival.POISSON);
            assertThat(r100.requestRate()).isEqualTo(rate);
            assertThat(r100.achievedRequestRate()).isCloseTo(rate, within(rate * 0.25));
        }
    }

    @Test
    void aRateStageIsPrecededByTwoSecondsOfWarmUpArrivalsAtItsRate() throws Exception {
        double rate = 50;
        try (SglangSimulator simulator = fastSimulator().start()) {
            Schedule schedule = new Schedule();
            run(
                    config(simulator)
                            .rates(List.of(rate))
                            .arrival(Arrival.CONSTANT)
                            .requestsPerLevel(10)
                            .maxTokens(2)
                            .build(),
                    schedule);

            Set<String> measured =
                    schedule.of("r50").stream().map(RequestResult::responseId).collect(Collectors.toSet());
            List<SimulatedRequest> warmups = simulator.requests().stream()
                    .filter(request -> request.maxTokens() == BenchmarkDefaults.WARMUP_MAX_TOKENS)
                    .sorted((a, b) -> Long.compare(a.receivedNanos(), b.receivedNanos()))
                    .toList();
            assertThat(warmups).noneMatch(request -> measured.contains(request.id()));
            // the burst's one request, then 2 s at 50 requests/s
            assertThat(warmups).hasSize(1 + 100);
            List<SimulatedRequest> arrivals = warmups.subList(1, warmups.size());
            double spanSeconds = (arrivals.get(arrivals.size() - 1).receivedNanos()
                            - arrivals.get(0).receivedNanos())
                    / 1e9;
            assertThat(spanSeconds).as("99 gaps of 20 ms").isCloseTo(1.98, within(0.3));
            assertThat(schedule.intendedNanos)
                    .as("warm-up arrivals are not the stage's")
                    .hasSize(10);
        }
    }

    @Test
    void constantArrivalsAreEvenlySpaced() throws Exception {
        double rate = 50;
        try (SglangSimulator simulator = fastSimulator().start()) {
            Schedule schedule = new Schedule();
            BenchmarkReport report = run(
                    config(simulator)
                            .rates(List.of(rate))
                            .arrival(Arrival.CONSTANT)
                            .requestsPerLevel(100)
                            .maxTokens(2)
                            .build(),
                    schedule);

            assertThat(Arrays.stream(schedule.gapsSeconds()).boxed().toList())
                    .hasSize(99)
                    .allSatisfy(gap -> assertThat(gap).isCloseTo(1 / rate, within(1e-6)));
            List<SimulatedRequest> arrivals = truthOf(simulator, schedule, "r50");
            double[] serverGapsMillis = new double[arrivals.size() - 1];
            for (int i = 1; i < arrivals.size(); i++) {
                serverGapsMillis[i - 1] =
                        (arrivals.get(i).receivedNanos() - arrivals.get(i - 1).receivedNanos()) / 1e6;
            }
            Arrays.sort(serverGapsMillis);
            assertThat(serverGapsMillis[serverGapsMillis.length / 2])
                    .as("the median gap between arrivals at the server (a Poisson stream's would be 13.9 ms)")
                    .isCloseTo(1000 / rate, within(2.0));
            StageReport r50 = stage(report, "r50");
            assertThat(r50.arrival()).isEqualTo(Arrival.CONSTANT);
            assertThat(r50.achievedRequestRate()).isCloseTo(rate, within(rate * 0.1));
        }
    }

    @Test
    void aTraceIsSentAtItsTimestampsDividedByTheSpeedAndReportedWithItsShape() throws Exception {
        double speed = 10;
        TraceReplay replay = new TraceReplay(TraceDataset.read(TraceDatasetTest.SAMPLE), List.of(speed), 0, 20.0);
        try (SglangSimulator simulator = fastSimulator().start()) {
            Schedule schedule = new Schedule();
            BenchmarkReport report = run(
                    config(simulator)
                            .dataset(Dataset.TRACE)
                            .trace(replay)
                            .ignoreEos(false)
                            .maxTokens(2)
                            .build(),
                    schedule);

            int requests = replay.requests().size();
            assertThat(schedule.intendedNanos).hasSize(requests);
            long start = schedule.intendedNanos.get(0) - replay.offsetNanos(0, speed);
            for (int i = 0; i < requests; i++) {
                assertThat(schedule.intendedNanos.get(i) - start)
                        .as("request %s's intended send", i)
                        .isEqualTo(replay.offsetNanos(i, speed));
            }
            List<SimulatedRequest> arrivals = truthOf(simulator, schedule, "t10x");
            double[] lagMillis = new double[requests];
            for (int i = 0; i < requests; i++) {
                lagMillis[i] = (arrivals.get(i).receivedNanos() - schedule.intendedNanos.get(i)) / 1e6;
            }
            Arrays.sort(lagMillis);
            assertThat(lagMillis[requests / 2])
                    .as("median lag from intended send to arrival, ms")
                    .isLessThan(5);
            assertThat(arrivals)
                    .extracting(SimulatedRequest::promptTokens)
                    .as("each prompt as long as the trace says (two sends 1 ms apart may arrive swapped)")
                    .containsExactlyInAnyOrderElementsOf(replay.requests().stream()
                            .map(TraceDataset.Request::inputLength)
                            .toList());
            StageReport stage = stage(report, "t10x");
            assertThat(stage.arrival()).isEqualTo(Arrival.TRACE);
            assertThat(stage.completed()).isEqualTo(requests);
            assertThat(stage.requestRate()).isEqualTo(replay.rate(speed));
            assertThat(stage.achievedRequestRate()).isCloseTo(replay.rate(speed), within(replay.rate(speed) * 0.25));
            assertThat(report.trace()).isEqualTo(replay.shape());
            BenchmarkRunStatus status = new BenchmarkRunStatus();
            BenchmarkResults.apply(SummaryParser.parse(CompactSummaryWriter.write(report)), status);
            assertThat(status.workload.digest).isEqualTo(report.workload());
            assertThat(status.workload.trace)
                    .as("the window's shape in the BenchmarkRun's status, through the termination message")
                    .satisfies(window -> {
                        assertThat(window.requests).isEqualTo(requests);
                        assertThat(window.requestRate).isCloseTo(replay.shape().rate(), within(0.01));
                        assertThat(window.inputTokens.p90)
                                .isEqualTo(replay.shape().inputTokens().p90());
                        assertThat(window.outputTokens.max)
                                .isEqualTo(replay.shape().outputTokens().max());
                        assertThat(window.repeatedBlockShare)
                                .isCloseTo(replay.shape().repeatedBlockShare(), within(0.001));
                    });
            double cachedTruth =
                    arrivals.stream().mapToLong(SimulatedRequest::cachedTokens).sum()
                            / (double) arrivals.stream()
                                    .mapToLong(SimulatedRequest::promptTokens)
                                    .sum();
            assertThat(stage.cachedPromptShare())
                    .as("the cached share the server reported, as the simulator's prefix cache counted it")
                    .isCloseTo(cachedTruth, within(1e-3));
            assertThat(cachedTruth)
                    .as("the trace's blocks repeat as prefixes (history, system prompt): the cache serves about them")
                    .isCloseTo(report.trace().repeatedBlockShare(), within(0.1));
        }
    }

    @Test
    void maxConcurrencyCapsTheRequestsInFlightAndTheWaitShowsAsScheduleLag() throws Exception {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .ttft(Duration.ofMillis(10))
                .tokenDelay(Duration.ofMillis(5))
                .start()) {
            BenchmarkRunnerTest.Recording recording = new BenchmarkRunnerTest.Recording();
            BenchmarkReport report = run(
                    config(simulator)
                            .rates(List.of(200.0))
                            .maxConcurrency(3)
                            .requestsPerLevel(60)
                            .maxTokens(8)
                            // the 400 warm-up arrivals at 200/s pass 3 at a time too: short ones keep the test short
                            .warmupMaxTokens(8)
                            .build(),
                    recording);

            List<long[]> busy = new ArrayList<>();
            for (SimulatedRequest request : truthOf(simulator, recording, "r200")) {
                long[] sent = request.sentChunkNanos();
                busy.add(new long[] {request.receivedNanos(), sent[sent.length - 1]});
            }
            assertThat(mostAtOnce(busy)).as("requests the server held at once").isEqualTo(3);
            StageReport r200 = stage(report, "r200");
            assertThat(r200.completed()).isEqualTo(60);
            assertThat(r200.maxConcurrency()).isEqualTo(3);
            assertThat(r200.latency(StageReport.SCHEDULE_LAG).p99())
                    .as("requests waited for a slot")
                    .isGreaterThan(100);
            assertThat(r200.warnings())
                    .anySatisfy(warning ->
                            assertThat(warning).contains("could not keep the arrival schedule", "--max-concurrency 3"));
        }
    }

    private static int mostAtOnce(List<long[]> intervals) {
        int most = 0;
        for (long[] interval : intervals) {
            int atOnce = 0;
            for (long[] other : intervals) {
                if (other[0] <= interval[0] && interval[0] < other[1]) {
                    atOnce++;
                }
            }
            most = Math.max(most, atOnce);
        }
        return most;
    }

    @Test
    void attainmentAndGoodputCountOnlyRequestsThatMetEveryLimit() throws Exception {
        // no prefix cache: the three runs send the same seeded prompts, and hits would shorten the later ones' TTFT
        try (SglangSimulator simulator = SglangSimulator.builder()
                .ttft(Duration.ofMillis(40))
                .tokenDelay(Duration.ofMillis(10))
                .errorRate(0.25)
                .prefixCacheBlocks(0)
                .start()) {
            BenchmarkConfig.Builder base = config(simulator)
                    .concurrency(List.of(4))
                    .requestsPerLevel(40)
                    .maxTokens(4);
            StageReport loose = stage(
                    run(
                            base.slo(new Slo(1000.0, 100.0, 100.0, 2000.0, 0.95))
                                    .build(),
                            new BenchmarkRunnerTest.Recording()),
                    "c4");
            StageReport slowFirstToken = stage(
                    run(base.slo(new Slo(20.0, null, null, null, 0.95)).build(), new BenchmarkRunnerTest.Recording()),
                    "c4");
            // 16 tokens, 15 gaps: a client stalled under load reads a few tokens at once, but not a whole output
            StageReport slowTokens = stage(
                    run(
                            base.maxTokens(16)
                                    .slo(new Slo(null, null, 5.0, null, 0.95))
                                    .build(),
                            new BenchmarkRunnerTest.Recording()),
                    "c4");

            assertThat(loose.failed()).isPositive();
            assertThat(loose.sloAttainment())
                    .as("failures are not good")
                    .isEqualTo((double) loose.completed() / (loose.completed() + loose.failed()));
            assertThat(loose.goodputRequestRate()).isCloseTo(loose.requestThroughput(), within(1e-9));
            assertThat(loose.goodputOutputThroughput()).isCloseTo(loose.outputThroughput(), within(1e-9));
            assertThat(slowFirstToken.sloAttainment()).isZero();
            assertThat(slowFirstToken.goodputRequestRate()).isZero();
            assertThat(slowTokens.sloAttainment())
                    .as("ITL of 10 ms over a 5 ms limit")
                    .isZero();
            assertThat(slowTokens.goodputOutputThroughput()).isZero();
        }
    }

    @Test
    void anOpenLoopStageWhoseOnlyMissedLimitIsE2eMissesTheSlo() throws Exception {
        // about 5 ms to the first token and 15 more tokens 5 ms apart: 80 ms end to end
        try (SglangSimulator simulator = SglangSimulator.builder()
                .ttft(Duration.ofMillis(5))
                .tokenDelay(Duration.ofMillis(5))
                .start()) {
            BenchmarkConfig.Builder base =
                    config(simulator).rates(List.of(20.0)).requestsPerLevel(10);
            StageReport e2eBinds = stage(
                    run(
                            base.slo(new Slo(1000.0, 100.0, 100.0, 40.0, 0.9)).build(),
                            new BenchmarkRunnerTest.Recording()),
                    "r20");
            StageReport allMet = stage(
                    run(
                            base.slo(new Slo(1000.0, 100.0, 100.0, 2000.0, 0.9)).build(),
                            new BenchmarkRunnerTest.Recording()),
                    "r20");

            assertThat(e2eBinds.arrival()).isEqualTo(Arrival.POISSON);
            assertThat(e2eBinds.completed()).isEqualTo(10);
            assertThat(e2eBinds.latency(StageReport.E2E).median()).isGreaterThan(60);
            assertThat(e2eBinds.sloAttainment())
                    .as("every request took longer than the 40 ms E2E limit")
                    .isZero();
            assertThat(e2eBinds.goodputRequestRate()).isZero();
            assertThat(allMet.sloAttainment())
                    .as("the same requests meet the TTFT, TPOT and ITL limits")
                    .isEqualTo(1.0);
        }
    }

    @Test
    void ttftCountsFromTheIntendedSendSoRequestsTheRunnerHeldBackMissTheSlo() throws Exception {
        // 20 ms per request, one at a time, while the schedule asks for one every 5 ms: the runner holds requests
        // back, later ones for hundreds of milliseconds, though the server answers each in about 20 ms
        try (SglangSimulator simulator = SglangSimulator.builder()
                .ttft(Duration.ofMillis(20))
                .tokenDelay(Duration.ofMillis(1))
                .start()) {
            StageReport r200 = stage(
                    run(
                            config(simulator)
                                    .warmupRequests(0)
                                    .rates(List.of(200.0))
                                    .arrival(Arrival.CONSTANT)
                                    .maxConcurrency(1)
                                    .requestsPerLevel(20)
                                    .maxTokens(2)
                                    .slo(new Slo(100.0, null, null, null, 0.9))
                                    .build(),
                            new BenchmarkRunnerTest.Recording()),
                    "r200");

            assertThat(r200.completed()).isEqualTo(20);
            assertThat(r200.latency(StageReport.SCHEDULE_LAG).max())
                    .as("the last requests waited in the runner")
                    .isGreaterThan(200);
            assertThat(r200.latency(StageReport.TTFT).p99())
                    .as("TTFT includes the wait")
                    .isGreaterThan(r200.latency(StageReport.SCHEDULE_LAG).p99());
            assertThat(r200.sloAttainment())
                    .as("requests that waited over 100 ms in the runner missed the 100 ms TTFT limit")
                    .isLessThan(0.5);
        }
    }

    @Test
    void theConcurrencySearchFindsTheSimulatorsCapacity() throws Exception {
        double tpotLimit = 14;
        int truth = new SimulatedCapacity(TTFT, TOKEN_DELAY, BATCH_SLOWDOWN, 0).maxConcurrency(tpotLimit, null);
        try (SglangSimulator simulator = SglangSimulator.builder()
                .ttft(TTFT)
                .tokenDelay(TOKEN_DELAY)
                .batchSlowdown(BATCH_SLOWDOWN)
                .start()) {
            BenchmarkReport report = run(
                    config(simulator)
                            .findCapacity(CapacityMode.Concurrency)
                            .slo(new Slo(null, tpotLimit, null, null, 0.9))
                            .requestsPerLevel(20)
                            .build(),
                    new BenchmarkRunnerTest.Recording());

            CapacityReport capacity = report.capacity();
            assertThat(capacity.outcome()).as(capacity.reason()).isEqualTo("found");
            assertThat(capacity.maxConcurrency()).isBetween(truth - 1, truth + 1);
            assertThat(capacity.probes()).extracting(CapacityReport.Probe::name).startsWith("probe1-c1", "probe2-c2");
            assertThat(capacity.p99TpotMillis()).isLessThanOrEqualTo(tpotLimit * 1.1);
            assertThat(report.stages()).hasSize(capacity.probes().size());
        }
    }

    @Test
    void theRateSearchFindsTheSimulatorsCapacity() throws Exception {
        double tpotLimit = 14;
        // A batch limit the search never reaches (about 3.5 requests run at the capacity) keeps the model's answer
        // quick
        int maxRunning = 8;
        double truth = new SimulatedCapacity(TTFT, TOKEN_DELAY, BATCH_SLOWDOWN, maxRunning)
                .maxConstantRate(tpotLimit, null, OUTPUT_TOKENS);
        try (SglangSimulator simulator = SglangSimulator.builder()
                .ttft(TTFT)
                .tokenDelay(TOKEN_DELAY)
                .batchSlowdown(BATCH_SLOWDOWN)
                .maxRunning(maxRunning)
                .start()) {
            BenchmarkReport report = run(
                    config(simulator)
                            .singleRequests(true)
                            .findCapacity(CapacityMode.Rate)
                            .maxProbes(16)
                            .arrival(Arrival.CONSTANT)
                            .slo(new Slo(null, tpotLimit, null, null, 0.9))
                            .durationPerLevel(Duration.ofSeconds(2))
                            .build(),
                    new BenchmarkRunnerTest.Recording());

            CapacityReport capacity = report.capacity();
            assertThat(capacity.outcome()).as(capacity.reason()).isEqualTo("found");
            double step = 1 + CapacitySearch.RATE_RESOLUTION;
            assertThat(capacity.maxRequestRate())
                    .as("true capacity %.2f req/s; %s", truth, capacity.probes())
                    .isBetween(truth / step / step, truth * step);
            assertThat(capacity.probes().get(0).requestRate())
                    .as("the search starts at what one stream served in the single phase")
                    .isBetween(10.0, 16.0);
        }
    }
}
