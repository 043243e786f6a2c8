package dev.llmops.serving.runner.output;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmops.serving.api.contract.QualityOutput;
import dev.llmops.serving.api.contract.SampleSet;
import dev.llmops.serving.api.contract.StageSamples;
import dev.llmops.serving.cli.Cli;
import dev.llmops.serving.runner.plan.BenchmarkConfig;
import dev.llmops.serving.runner.plan.StagePlan;
import dev.llmops.serving.runner.transport.RequestResult;
import dev.llmops.serving.runner.transport.TokenCounting;
import dev.llmops.serving.simulator.Fault;
import dev.llmops.serving.simulator.SglangSimulator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The per-request samples and quality outputs a run hands to a paired comparison, through the bench command. */
class RequestSamplesTest {

    @TempDir
    Path dir;

    private static SglangSimulator fastSimulator() {
        return SglangSimulator.builder()
                .ttft(Duration.ofMillis(5))
                .tokenDelay(Duration.ofMillis(1))
                .start();
    }

    private static Cli.Run bench(SglangSimulator simulator, String... options) {
        List<String> args = new ArrayList<>(List.of(
                "bench", "--url", simulator.baseUrl().toString(), "--model", simulator.model(), "--warmup", "0"));
        args.addAll(List.of(options));
        Cli.Run run = Cli.run(args.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.err()).isZero();
        return run;
    }

    private static SampleSet samplesOf(Cli.Run run) {
        List<String> lines = run.out().lines().toList();
        String last = lines.get(lines.size() - 1);
        assertThat(last).as("the samples are the last line of stdout").startsWith(SampleSet.LOG_PREFIX);
        return SampleSet.fromLog(run.out());
    }

    @Test
    void theLastStdoutLineHoldsEverySuccessfulMeasuredRequestByItsPositionInTheStage() throws IOException {
        Path file = dir.resolve("samples.json.gz");
        try (SglangSimulator simulator = fastSimulator()) {
            Cli.Run run = bench(
                    simulator,
                    "--max-tokens",
                    "8",
                    "--concurrency",
                    "2",
                    "--rate",
                    "40",
                    "--arrival",
                    "constant",
                    "--requests-per-level",
                    "6",
                    "--samples-log",
                    "--samples-out",
                    file.toString());

            SampleSet samples = samplesOf(run);
            assertThat(samples.stages()).extracting(StageSamples::name).containsExactly("single", "c2", "r40");
            assertThat(samples.stage("single").index()).containsExactly(0, 1, 2);
            assertThat(samples.stage("c2").index()).containsExactly(0, 1, 2, 3, 4, 5);
            assertThat(samples.stage("r40").index()).containsExactly(0, 1, 2, 3, 4, 5);
            for (StageSamples stage : samples.stages()) {
                assertThat(stage.outputTokens()).containsOnly(8);
                for (int i = 0; i < stage.size(); i++) {
                    assertThat(stage.ttftMillis()[i]).isPositive();
                    // tokens that arrive in one read end at the first token's moment: TPOT 0, never less
                    assertThat(stage.tpotMillis()[i]).isNotNegative();
                    assertThat(stage.e2eMillis()[i]).isGreaterThanOrEqualTo(stage.ttftMillis()[i]);
                }
            }
            assertThat(samples.quality()).as("no quality stage unless asked").isEmpty();
            SampleSet fromFile = SampleSet.fromGzip(Files.readAllBytes(file));
            assertThat(fromFile.workload()).isEqualTo(samples.workload());
            assertThat(fromFile.stage("c2").e2eMillis())
                    .containsExactly(samples.stage("c2").e2eMillis());
        }
    }

    @Test
    void failedRequestsAreLeftOutOfTheSamples() throws IOException {
        Path summaryFile = dir.resolve("summary.json");
        try (SglangSimulator simulator = SglangSimulator.builder()
                .ttft(Duration.ofMillis(5))
                .tokenDelay(Duration.ofMillis(1))
                .errorRate(0.25)
                .start()) {
            SampleSet samples = samplesOf(bench(
                    simulator,
                    "--max-tokens",
                    "8",
                    "--concurrency",
                    "1,2",
                    "--requests-per-level",
                    "8",
                    "--samples-log",
                    "--summary-file",
                    summaryFile.toString()));

            JsonNode stages = new ObjectMapper().readTree(summaryFile.toFile()).get("stages");
            assertThat(stages).extracting(stage -> stage.get("n").asText()).containsExactly("single", "c1", "c2");
            for (JsonNode reported : stages) {
                StageSamples stage = samples.stage(reported.get("n").asText());
                assertThat(reported.get("fail").asInt()).as(stage.name()).isPositive();
                assertThat(stage.size())
                        .as("stage %s: only its successful requests", stage.name())
                        .isEqualTo(reported.get("ok").asInt());
                assertThat(stage.outputTokens()).as(stage.name()).containsOnly(8);
                for (int i = 0; i < stage.size(); i++) {
                    assertThat(stage.ttftMillis()[i]).isPositive();
                    assertThat(stage.e2eMillis()[i]).isGreaterThanOrEqualTo(stage.ttftMillis()[i]);
                }
            }
        }
    }

    @Test
    void equalConfigurationsHaveEqualWorkloadsAndAnotherSeedDatasetOrLengthRuleAnother() {
        try (SglangSimulator simulator = fastSimulator()) {
            String[] base = {"--max-tokens", "4", "--no-sweep", "--samples-log"};
            String first = samplesOf(bench(simulator, base)).workload();
            String second = samplesOf(bench(simulator, base)).workload();
            String otherSeed =
                    samplesOf(bench(simulator, concat(base, "--seed", "2"))).workload();
            String otherDataset = samplesOf(bench(simulator, concat(base, "--dataset", "random:4,4")))
                    .workload();
            String otherPrompts = samplesOf(bench(simulator, concat(base, "--prompts", "Say hello.")))
                    .workload();
            String ignoringEos =
                    samplesOf(bench(simulator, concat(base, "--ignore-eos"))).workload();

            assertThat(first).hasSize(16).isEqualTo(second);
            assertThat(List.of(otherSeed, otherDataset, otherPrompts, ignoringEos))
                    .doesNotContain(first)
                    .doesNotHaveDuplicates();
        }
    }

    @Test
    void theQualityStageKeepsEachPromptsGreedyTokensSoAHealthyPairAgreesAndABrokenDraftDoesNot() {
        try (SglangSimulator healthy = fastSimulator();
                SglangSimulator otherHealthy = fastSimulator();
                SglangSimulator broken = SglangSimulator.builder()
                        .ttft(Duration.ofMillis(5))
                        .tokenDelay(Duration.ofMillis(1))
                        .fault(Fault.BROKEN_DRAFT)
                        .start()) {
            String[] options = {
                "--no-sweep", "--max-tokens", "4", "--quality", "--quality-max-tokens", "12", "--samples-log"
            };
            Cli.Run run = bench(healthy, options);
            List<QualityOutput> reference = samplesOf(run).quality();
            List<QualityOutput> again = samplesOf(bench(otherHealthy, options)).quality();
            List<QualityOutput> diverging = samplesOf(bench(broken, options)).quality();

            assertThat(run.err()).contains("quality: 3 prompts, 36 tokens");
            assertThat(reference).extracting(QualityOutput::prompt).containsExactly(0, 1, 2);
            assertThat(reference).allSatisfy(output -> {
                assertThat(output.tokens()).hasSize(12);
                assertThat(output.finishReason()).isEqualTo("length");
            });
            assertThat(reference.get(0).tokens())
                    .as("greedy output depends on the prompt")
                    .isNotEqualTo(reference.get(1).tokens());
            assertThat(again).usingRecursiveComparison().isEqualTo(reference);
            for (int p = 0; p < 3; p++) {
                List<String> expected = reference.get(p).tokens();
                List<String> actual = diverging.get(p).tokens();
                assertThat(actual.subList(0, 2)).isEqualTo(expected.subList(0, 2));
                for (int t = 2; t < actual.size(); t++) {
                    assertThat(actual.get(t)).as("token %d of prompt %d", t, p).isNotEqualTo(expected.get(t));
                }
            }
        }
    }

    @Test
    void qualityRequestsAreGreedyWithLogprobsAndAreNotMeasured() throws Exception {
        try (SglangSimulator simulator = fastSimulator()) {
            SampleSet samples = samplesOf(bench(
                    simulator,
                    "--no-sweep",
                    "--max-tokens",
                    "4",
                    "--quality",
                    "--quality-max-tokens",
                    "6",
                    "--samples-log"));

            assertThat(samples.stages()).extracting(StageSamples::name).containsExactly("single");
            assertThat(samples.stage("single").outputTokens()).containsOnly(4);
            assertThat(samples.quality())
                    .allSatisfy(output -> assertThat(output.tokens()).hasSize(6));
        }
    }

    @Test
    void aStageKeepsItsLowestPositionsAndTheLineIsCutToItsBoundWithAWarning() {
        BenchmarkConfig config = BenchmarkConfig.builder(java.net.URI.create("http://127.0.0.1:9"), "m")
                .build();
        RequestSamples samples = new RequestSamples(config);
        Random random = new Random(7);
        int stages = 12;
        int perStage = StageSamples.MAX_REQUESTS + 200;
        for (int s = 0; s < stages; s++) {
            StagePlan stage = StagePlan.probe(config, s + 1, 4.0 + s);
            List<Integer> order =
                    new ArrayList<>(IntStream.range(0, perStage).boxed().toList());
            java.util.Collections.shuffle(order, random);
            for (int index : order) {
                samples.requestFinished(stage, index, 0, result(random));
            }
        }
        List<String> warnings = new ArrayList<>();

        SampleSet set = samples.sampleSet(warnings::add);

        assertThat(set.toLogLine().length() - SampleSet.LOG_PREFIX.length())
                .isLessThanOrEqualTo(SampleSet.MAX_ENCODED_CHARS);
        assertThat(set.stages()).hasSize(stages);
        int kept = set.stages().get(0).size();
        assertThat(kept).isLessThan(StageSamples.MAX_REQUESTS).isPositive();
        assertThat(set.stages())
                .allSatisfy(stage -> assertThat(stage.index())
                        .containsExactly(IntStream.range(0, kept).toArray()));
        assertThat(warnings)
                .containsExactly("samples: at most " + kept + " requests per stage are kept (the lowest"
                        + " positions), so the samples fit in " + SampleSet.MAX_ENCODED_CHARS + " characters");
    }

    @Test
    void qualityOutputsTooLongForTheLineAreHalvedOnceTheStagesGiveNoMoreRoomWithAWarning() {
        BenchmarkConfig config = BenchmarkConfig.builder(java.net.URI.create("http://127.0.0.1:9"), "m")
                .build();
        RequestSamples samples = new RequestSamples(config);
        Random random = new Random(11);
        StagePlan stage = StagePlan.probe(config, 1, 8.0);
        for (int index = 0; index < 10; index++) {
            samples.requestFinished(stage, index, 0, result(random));
        }
        List<QualityOutput> outputs = new ArrayList<>();
        for (int prompt = 0; prompt < SampleSet.MAX_QUALITY_OUTPUTS; prompt++) {
            List<String> pieces = new ArrayList<>();
            for (int token = 0; token < QualityOutput.MAX_TOKENS; token++) {
                pieces.add(randomPiece(random));
            }
            outputs.add(new QualityOutput(prompt, pieces, "length"));
        }
        samples.qualityFinished(outputs);
        List<String> warnings = new ArrayList<>();

        SampleSet set = samples.sampleSet(warnings::add);

        assertThat(set.toLogLine().length() - SampleSet.LOG_PREFIX.length())
                .isLessThanOrEqualTo(SampleSet.MAX_ENCODED_CHARS);
        int kept = set.quality().size();
        assertThat(kept).isLessThan(SampleSet.MAX_QUALITY_OUTPUTS).isPositive();
        assertThat(set.quality())
                .extracting(QualityOutput::prompt)
                .containsExactly(IntStream.range(0, kept).boxed().toArray(Integer[]::new));
        assertThat(set.stages())
                .singleElement()
                .satisfies(s -> assertThat(s.size()).isZero());
        assertThat(warnings)
                .containsExactly(
                        "samples: at most 0 requests per stage are kept (the lowest positions), so the samples fit"
                                + " in " + SampleSet.MAX_ENCODED_CHARS + " characters",
                        "samples: " + kept + " of " + SampleSet.MAX_QUALITY_OUTPUTS + " quality outputs are kept, so"
                                + " the samples fit in " + SampleSet.MAX_ENCODED_CHARS + " characters");
    }

    /** A token piece of the longest length kept, of random letters, which compresses as badly as text can. */
    private static String randomPiece(Random random) {
        StringBuilder piece = new StringBuilder(QualityOutput.MAX_PIECE_CHARS);
        for (int i = 0; i < QualityOutput.MAX_PIECE_CHARS; i++) {
            piece.append((char) ('a' + random.nextInt(26)));
        }
        return piece.toString();
    }

    /** A successful request with random timings (in nanoseconds from 0), which compress as badly as real ones. */
    private static RequestResult result(Random random) {
        long first = 1_000_000 + random.nextInt(50_000_000);
        long end = first + 1_000_000 + random.nextInt(500_000_000);
        return new RequestResult(
                null,
                null,
                200,
                "id",
                0,
                first,
                first,
                end,
                10,
                RequestResult.NOT_REPORTED,
                1 + random.nextInt(4000),
                0,
                TokenCounting.SERVER_PER_CHUNK,
                "length",
                new long[0],
                new int[0],
                null,
                null,
                null);
    }

    private static String[] concat(String[] base, String... more) {
        List<String> all = new ArrayList<>(List.of(base));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }
}
