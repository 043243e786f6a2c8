package dev.llmops.serving.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.operator.benchmark.BenchmarkResults;
import dev.llmops.serving.operator.benchmark.SummaryParser;
import dev.llmops.serving.runner.output.BenchmarkReport;
import dev.llmops.serving.runner.output.CompactSummaryWriter;
import dev.llmops.serving.runner.output.StageReport;
import dev.llmops.serving.runner.output.TurnReport;
import dev.llmops.serving.runner.plan.BenchmarkConfig;
import dev.llmops.serving.runner.plan.StagePlan;
import dev.llmops.serving.runner.transport.OpenAiClient;
import dev.llmops.serving.runner.transport.RequestResult;
import dev.llmops.serving.runner.workload.Dataset;
import dev.llmops.serving.runner.workload.SessionShape;
import dev.llmops.serving.simulator.SglangSimulator;
import dev.llmops.serving.simulator.SimulatedRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Multi-turn sessions against the simulator's prefix cache over real HTTP: each turn's figures checked against what the
 * simulator counted for the very requests of that turn.
 */
class SessionsTest {

    private static final int TURNS = 4;
    private static final int STREAMS = 2;
    private static final int SESSIONS = 4;

    private static OpenAiClient client;

    @BeforeAll
    static void createClient() {
        client = OpenAiClient.create();
    }

    @AfterAll
    static void closeClient() {
        client.close();
    }

    /** 200 words to start, 200 per later message, 4-token replies: each turn's prompt about 204 tokens longer. */
    private static BenchmarkConfig sessions(SglangSimulator simulator, Duration thinkTime) {
        return BenchmarkConfig.builder(simulator.baseUrl(), simulator.model())
                .singleRequests(false)
                .warmupRequests(1)
                .dataset(Dataset.SESSIONS)
                .sessions(SessionShape.of(TURNS, 200, 200).paced(thinkTime, SessionShape.DEFAULT_HEADER))
                .concurrency(List.of(STREAMS))
                .requestsPerLevel(TURNS * SESSIONS)
                .maxTokens(4)
                .ignoreEos(true)
                .timeout(Duration.ofSeconds(20))
                .build();
    }

    /** 50 µs of prefill per uncached prompt token: turn 1 takes 10 ms, turn 4 without a cache 40 ms. */
    private static SglangSimulator.Builder simulator() {
        return SglangSimulator.builder()
                .ttft(Duration.ZERO)
                .prefillTokenDelay(Duration.ofNanos(50_000))
                .tokenDelay(Duration.ofMillis(1));
    }

    @Test
    void laterTurnsHitTheCacheAsTheSimulatorCountedAndTheirTtftStaysFlat() throws Exception {
        try (SglangSimulator simulator = simulator().start()) {
            Turns turns = new Turns();
            BenchmarkReport report =
                    new BenchmarkRunner(sessions(simulator, Duration.ofMillis(20)), client, turns).run();
            StageReport stage = stage(report);

            assertThat(stage.completed()).isEqualTo(TURNS * SESSIONS);
            assertThat(stage.turns()).extracting(TurnReport::turn).containsExactly(1, 2, 3, 4);
            assertThat(stage.turns())
                    .extracting(TurnReport::completed)
                    .as("the stage's 16 requests cut the sessions a stream had not finished")
                    .isSortedAccordingTo((a, b) -> Integer.compare(b, a))
                    .satisfies(counts -> assertThat(
                                    counts.stream().mapToInt(Integer::intValue).sum())
                            .isEqualTo(TURNS * SESSIONS));
            Map<Integer, List<SimulatedRequest>> truth = turns.truth(simulator);
            for (TurnReport turn : stage.turns()) {
                List<SimulatedRequest> served = truth.get(turn.turn());
                double cachedTruth = served.stream()
                                .mapToLong(SimulatedRequest::cachedTokens)
                                .sum()
                        / (double) served.stream()
                                .mapToLong(SimulatedRequest::promptTokens)
                                .sum();
                assertThat(turn.cachedPromptShare())
                        .as("turn %s's cached share, as the simulator's cache counted it", turn.turn())
                        .isCloseTo(cachedTruth, within(1e-9));
                assertThat(turn.meanInputTokens())
                        .as("turn %s carries its history", turn.turn())
                        .isCloseTo(200 + (turn.turn() - 1) * 204, within(1.0));
            }
            assertThat(stage.turns().get(0).cachedPromptShare())
                    .as("no turn 1 repeats another")
                    .isZero();
            assertThat(stage.turns().subList(1, TURNS))
                    .as("each later turn's history was the previous turn's prompt")
                    .allSatisfy(turn -> assertThat(turn.cachedPromptShare()).isGreaterThan(0.4));
            BenchmarkRunStatus status = new BenchmarkRunStatus();
            BenchmarkResults.apply(SummaryParser.parse(CompactSummaryWriter.write(report)), status);
            assertThat(status.stages.get(0).turns)
                    .as("the BenchmarkRun's status, through the runner's termination message")
                    .extracting(turn -> turn.turn, turn -> turn.completed, turn -> turn.cachedPromptShare)
                    .containsExactlyElementsOf(stage.turns().stream()
                            .map(turn -> tuple(
                                    turn.turn(),
                                    turn.completed(),
                                    Math.round(turn.cachedPromptShare() * 1000) / 1000.0))
                            .toList());
            double first = stage.turns().get(0).medianTtftMillis();
            assertThat(stage.turns().get(TURNS - 1).medianTtftMillis())
                    .as("the last turn prefills about as much as the first: only its new message")
                    .isLessThan(first * 1.6);
        }
    }

    @Test
    void withoutACacheLaterTurnsTtftRisesWithTheirHistory() throws Exception {
        try (SglangSimulator simulator = simulator().prefixCacheBlocks(0).start()) {
            StageReport stage = run(sessions(simulator, Duration.ZERO), new Turns());

            assertThat(stage.turns()).extracting(TurnReport::cachedPromptShare).containsOnly(0.0);
            List<Double> ttft =
                    stage.turns().stream().map(TurnReport::medianTtftMillis).toList();
            assertThat(ttft.get(TURNS - 1))
                    .as("turn 4 prefills about 4 times turn 1's tokens: %s", ttft)
                    .isGreaterThan(ttft.get(0) * 2.5);
            assertThat(ttft).as("rising turn by turn").isSorted();
        }
    }

    private static StageReport run(BenchmarkConfig config, Turns turns) throws Exception {
        return stage(new BenchmarkRunner(config, client, turns).run());
    }

    private static StageReport stage(BenchmarkReport report) {
        return report.stages().stream()
                .filter(stage -> stage.name().equals("c" + STREAMS))
                .findFirst()
                .orElseThrow();
    }

    /** Each measured request's turn, from its index, by its response id. */
    private static final class Turns implements BenchmarkListener {
        final Map<String, Integer> turnOfResponse = new ConcurrentHashMap<>();

        @Override
        public void requestFinished(StagePlan stage, long index, long intendedNanos, RequestResult result) {
            turnOfResponse.put(result.responseId(), (int) (index % TURNS) + 1);
        }

        Map<Integer, List<SimulatedRequest>> truth(SglangSimulator simulator) {
            List<SimulatedRequest> served = await().atMost(Duration.ofSeconds(10))
                    .until(
                            () -> simulator.requests().stream()
                                    .filter(request -> turnOfResponse.containsKey(request.id()))
                                    .toList(),
                            requests -> requests.size() == turnOfResponse.size());
            return served.stream().collect(Collectors.groupingBy(request -> turnOfResponse.get(request.id())));
        }
    }
}
