package dev.llmops.serving.runner.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.llmops.serving.api.contract.CapacityMode;
import dev.llmops.serving.api.contract.RunPlan;
import dev.llmops.serving.api.contract.RunnerFlags;
import dev.llmops.serving.api.v1alpha1.SecretKeyReference;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.BenchmarkTarget;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.CapacitySpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.DatasetType;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.SloSpec;
import dev.llmops.serving.operator.benchmark.JobDeadline;
import dev.llmops.serving.operator.benchmark.RunnerArguments;
import dev.llmops.serving.operator.benchmark.SloEvaluation;
import dev.llmops.serving.runner.plan.BenchmarkConfig;
import dev.llmops.serving.runner.plan.Slo;
import dev.llmops.serving.runner.plan.StagePlan;
import dev.llmops.serving.runner.workload.Arrival;
import dev.llmops.serving.runner.workload.Dataset;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * The runner contract from both ends: the command line the operator writes into a benchmark Job parses, in the bench
 * command, back into the configuration the BenchmarkRun's spec asks for, and into the stages, the Job deadline and the
 * SLO judgement both sides derive from it. A flag the operator drops or misspells, or a rule one side changes alone,
 * fails here.
 */
class RunnerContractTest {

    private static final String URL = "http://kimi.llm.svc:30000";
    private static final String MODEL = "kimi-k2";
    private static final String API_KEY = "sk-from-the-secret";
    private static final String SUMMARY = "summary.json";

    @TempDir
    Path dir;

    static Stream<Arguments> specs() {
        return Stream.of(
                arguments(spec("defaults", s -> {}), job().build()),
                arguments(
                        spec("every sampling, warm-up and timeout setting", s -> {
                            s.singleRequest.prompts = List.of("Write a haiku", "Explain TCP slow start");
                            s.sweep.concurrency = List.of(2, 4);
                            s.warmup.requests = 0;
                            s.warmup.maxTokens = 16;
                            s.sampling.temperature = 0.2;
                            s.sampling.topP = 0.5;
                            s.sampling.maxTokens = 128;
                            s.requestTimeoutSeconds = 60;
                        }),
                        job().prompts(List.of("Write a haiku", "Explain TCP slow start"))
                                .concurrency(List.of(2, 4))
                                .warmupRequests(0)
                                .warmupMaxTokens(16)
                                .temperature(0.2)
                                .topP(0.5)
                                .maxTokens(128)
                                .timeout(Duration.ofSeconds(60))
                                .build()),
                arguments(
                        spec("random dataset with ignoreEos", s -> {
                            s.dataset.type = DatasetType.Random;
                            s.dataset.inputLength = 1024;
                            s.dataset.outputLength = 512;
                            s.dataset.ignoreEos = true;
                        }),
                        job().dataset(Dataset.RANDOM)
                                .inputLength(1024)
                                .outputLength(512)
                                .ignoreEos(true)
                                .build()),
                arguments(
                        spec("no prompts", s -> s.singleRequest.prompts = List.of()),
                        job().singleRequests(false).build()),
                arguments(
                        spec("no sweep", s -> s.sweep.concurrency = List.of()),
                        job().concurrency(List.of()).build()),
                arguments(
                        spec("requestsPerLevel", s -> s.sweep.requestsPerLevel = 64),
                        job().requestsPerLevel(64).build()),
                arguments(
                        spec("durationSecondsPerLevel", s -> s.sweep.durationSecondsPerLevel = 30),
                        job().durationPerLevel(Duration.ofSeconds(30)).build()),
                arguments(
                        spec("API key secret", s -> {
                            s.target.apiKeySecret = new SecretKeyReference();
                            s.target.apiKeySecret.name = "sglang-api-key";
                            s.target.apiKeySecret.key = "token";
                        }),
                        job().apiKey(API_KEY).build()),
                arguments(
                        spec("quality max tokens", s -> s.quality.maxTokens = 64),
                        job().qualityMaxTokens(64).build()),
                arguments(
                        spec("metrics URL of an external target", s -> s.target.metricsUrl = URL + "/metrics"),
                        job().metricsUrls(List.of(URI.create(URL + "/metrics"))).build()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("specs")
    void theJobsCommandLineParsesBackIntoTheConfigurationTheSpecAsksFor(
            BenchmarkRunSpec spec, BenchmarkConfig expected) {
        List<String> jobArgs = RunnerArguments.of(spec, URL, MODEL, List.of());

        assertThat(jobArgs.get(0)).as("the command").isEqualTo(new CommandLine(new BenchCommand()).getCommandName());
        BenchCommand command = parse(jobArgs.subList(1, jobArgs.size()));
        assertThat(configOf(command)).isEqualTo(expected);
        assertThat(command.summaryFile).as("the summary file").isEqualTo(dir.resolve(SUMMARY));
        assertThat(command.samplesLog).as("the samples on the log's last line").isTrue();
    }

    @Test
    void eachServingPodsMetricsEndpointParsesIntoTheConfiguration() {
        BenchmarkRunSpec spec = spec("a ModelServer", s -> {
                    s.target.url = null;
                    s.target.modelServer = "kimi";
                })
                .getPayload();
        List<String> pods = List.of("http://10.0.0.7:30000/metrics", "http://[fd00::9]:30000/metrics");

        List<String> jobArgs = RunnerArguments.of(spec, URL, MODEL, pods);

        assertThat(configOf(parse(jobArgs.subList(1, jobArgs.size()))))
                .isEqualTo(job().metricsUrls(pods.stream().map(URI::create).toList())
                        .build());
    }

    @Test
    void withoutItsOptionalFlagsTheCommandRunsTheConfigurationsDefaults() {
        assertThat(configOf(parse(List.of(RunnerFlags.URL, URL, RunnerFlags.MODEL, MODEL))))
                .isEqualTo(expected().build());
    }

    @Test
    void theOpenLoopSloAndCapacityFlagsParseIntoTheConfiguration() {
        BenchCommand command = parse(List.of(
                RunnerFlags.URL,
                URL,
                RunnerFlags.MODEL,
                MODEL,
                RunnerFlags.RATE,
                "2.5,5",
                RunnerFlags.ARRIVAL,
                "constant",
                RunnerFlags.MAX_CONCURRENCY,
                "32",
                RunnerFlags.SLO_TTFT,
                "500",
                RunnerFlags.SLO_TPOT,
                "50",
                RunnerFlags.SLO_ITL,
                "80",
                RunnerFlags.SLO_E2E,
                "30000",
                RunnerFlags.SLO_ATTAINMENT,
                "0.99",
                RunnerFlags.FIND_CAPACITY,
                "rate",
                RunnerFlags.MAX_PROBES,
                "8",
                RunnerFlags.MAX_SEARCH_SECONDS,
                "600"));

        assertThat(configOf(command))
                .isEqualTo(expected()
                        .concurrency(List.of())
                        .rates(List.of(2.5, 5.0))
                        .arrival(Arrival.CONSTANT)
                        .maxConcurrency(32)
                        .slo(new Slo(500.0, 50.0, 80.0, 30000.0, 0.99))
                        .findCapacity(CapacityMode.Rate)
                        .maxProbes(8)
                        .maxSearch(Duration.ofSeconds(600))
                        .build());
    }

    static Stream<Arguments> plans() {
        return Stream.of(
                arguments(
                        spec("default sweep", s -> {}),
                        List.of("single 3", "c8 32", "c16 64", "c32 128", "c48 192", "c64 256")),
                arguments(
                        spec("custom levels with requestsPerLevel", s -> {
                            s.sweep.concurrency = List.of(3, 5);
                            s.sweep.requestsPerLevel = 10;
                            s.requestTimeoutSeconds = 60;
                        }),
                        List.of("single 3", "c3 10", "c5 10")),
                arguments(
                        spec("open-loop rates", s -> {
                            s.singleRequest.prompts = List.of();
                            s.sweep.rates = List.of(0.1, 2.5, 40.0);
                        }),
                        List.of("r0.1 8", "r2.5 75", "r40 1200")),
                arguments(
                        spec("capacity search with an SLO", s -> {
                            s.sweep.concurrency = List.of(4);
                            s.slo = new SloSpec();
                            s.slo.ttftP99Millis = 500;
                            s.capacity = new CapacitySpec();
                            s.capacity.mode = CapacityMode.Concurrency;
                        }),
                        List.of("single 3", "c4 16")),
                arguments(
                        spec("rate capacity search with a stricter attainment", s -> {
                            s.sweep.rates = List.of(5.0);
                            s.slo = new SloSpec();
                            s.slo.e2eP99Millis = 20000;
                            s.slo.attainment = 0.99;
                            s.capacity = new CapacitySpec();
                            s.capacity.mode = CapacityMode.Rate;
                            s.capacity.maxSearchSeconds = 600;
                        }),
                        List.of("single 3", "r5 150")),
                arguments(
                        spec("durations per level", s -> {
                            s.sweep.concurrency = List.of(8, 16);
                            s.sweep.durationSecondsPerLevel = 45;
                        }),
                        List.of("single 3", "c8 45s", "c16 45s")),
                arguments(
                        spec("rates for a duration each", s -> {
                            s.sweep.rates = List.of(7.5);
                            s.sweep.durationSecondsPerLevel = 120;
                        }),
                        List.of("single 3", "r7.5 120s")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("plans")
    void theRunnersStagesTheJobDeadlineAndTheSloJudgementFollowFromTheSameSpec(
            BenchmarkRunSpec spec, List<String> stages) {
        List<String> jobArgs = RunnerArguments.of(spec, URL, MODEL, List.of());
        BenchmarkConfig config = configOf(parse(jobArgs.subList(1, jobArgs.size())));

        assertThat(StagePlan.of(config).stream().map(RunnerContractTest::sends))
                .as("the stages the runner executes")
                .containsExactlyElementsOf(stages);
        assertThat(JobDeadline.seconds(spec))
                .as("the operator's Job deadline: the runner's stages, every request running into its timeout")
                .isEqualTo(JobDeadline.START_ALLOWANCE_SECONDS + longest(config));
        if (spec.slo != null) {
            double attainment = config.slo().attainment();
            StagePlan probe = StagePlan.probe(config, 1, 1);
            assertThat(SloEvaluation.evaluate(spec.slo, List.of(judged(stages.get(1), attainment)))
                            .verdict())
                    .as("a stage at the runner's attainment target meets the operator's")
                    .isEqualTo(SloEvaluation.Verdict.MET);
            assertThat(SloEvaluation.evaluate(spec.slo, List.of(judged(stages.get(1), Math.nextDown(attainment))))
                            .verdict())
                    .as("a stage just below the runner's attainment target breaks the operator's")
                    .isEqualTo(SloEvaluation.Verdict.BROKEN);
            assertThat(SloEvaluation.evaluate(
                                    spec.slo, List.of(judged(stages.get(1), attainment), judged(probe.name(), 0)))
                            .verdict())
                    .as("the operator leaves the runner's capacity probe " + probe.name() + " to status.capacity")
                    .isEqualTo(SloEvaluation.Verdict.MET);
        }
    }

    /** A stage as the plans above list it: its name and its requests, or its duration in seconds. */
    private static String sends(StagePlan stage) {
        return stage.name() + " " + (stage.duration() != null ? stage.duration().toSeconds() + "s" : stage.requests());
    }

    /**
     * The longest the runner's configuration runs after start-up: warm-up and quality requests, each stage's requests
     * one after another per worker (or its duration, then the last requests), and the capacity search's budget with
     * its last probe, every request taking the whole timeout.
     */
    private static long longest(BenchmarkConfig config) {
        long timeout = config.timeout().toSeconds();
        long seconds = timeout * (config.warmupRequests() + config.prompts().size());
        for (StagePlan stage : StagePlan.of(config)) {
            if (stage.duration() != null) {
                seconds += stage.duration().toSeconds() + timeout;
            } else if (stage.rate() > 0) {
                seconds += (long) Math.ceil(stage.requests() / stage.rate()) + timeout;
            } else {
                seconds += timeout * (long) Math.ceil((double) stage.requests() / stage.concurrency());
            }
        }
        if (config.findCapacity() != null) {
            seconds += config.maxSearch().toSeconds() + timeout * RunPlan.REQUESTS_PER_STREAM;
        }
        return seconds;
    }

    /** A stage of the status, named as the runner named it, whose requests met the SLO in this share. */
    private static StageResult judged(String stage, double attainment) {
        StageResult result = new StageResult();
        result.name = stage.split(" ")[0];
        result.concurrency = 1;
        result.completed = 10;
        result.sloAttainment = attainment;
        return result;
    }

    /**
     * The bench command with {@code args} parsed, not run. The summary goes to a temporary file instead of the
     * termination log, which a test may not be allowed to create.
     */
    private BenchCommand parse(List<String> args) {
        List<String> local = new ArrayList<>(args);
        int summaryFile = local.indexOf(RunnerFlags.SUMMARY_FILE);
        if (summaryFile >= 0) {
            assertThat(local.get(summaryFile + 1)).isEqualTo(RunnerArguments.SUMMARY_FILE);
            local.set(summaryFile + 1, dir.resolve(SUMMARY).toString());
        }
        BenchCommand command = new BenchCommand();
        new CommandLine(command).parseArgs(local.toArray(String[]::new));
        return command;
    }

    /** The command's configuration, in a pod whose environment holds the API key from the Secret. */
    private static BenchmarkConfig configOf(BenchCommand command) {
        return command.config(variable -> variable.equals(RunnerArguments.API_KEY_ENV) ? API_KEY : null);
    }

    private static Named<BenchmarkRunSpec> spec(String name, Consumer<BenchmarkRunSpec> change) {
        BenchmarkRunSpec spec = new BenchmarkRunSpec();
        spec.target = new BenchmarkTarget();
        spec.target.url = URL;
        spec.target.model = MODEL;
        change.accept(spec);
        return Named.of(name, spec);
    }

    /** What every Job asks for beyond the spec: the quality stage, whose outputs comparisons need. */
    private static BenchmarkConfig.Builder job() {
        return expected().quality(true);
    }

    private static BenchmarkConfig.Builder expected() {
        return BenchmarkConfig.builder(URI.create(URL), MODEL);
    }
}
