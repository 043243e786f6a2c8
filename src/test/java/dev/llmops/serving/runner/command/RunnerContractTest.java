package dev.llmops.serving.runner.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.llmops.serving.api.contract.RunnerFlags;
import dev.llmops.serving.api.v1alpha1.SecretKeyReference;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.BenchmarkTarget;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.DatasetType;
import dev.llmops.serving.operator.benchmark.RunnerArguments;
import dev.llmops.serving.runner.plan.BenchmarkConfig;
import dev.llmops.serving.runner.plan.CapacityMode;
import dev.llmops.serving.runner.plan.Slo;
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
 * command, back into the configuration the BenchmarkRun's spec asks for. A flag the operator drops or misspells fails
 * here.
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
                        .findCapacity(CapacityMode.RATE)
                        .maxProbes(8)
                        .maxSearch(Duration.ofSeconds(600))
                        .build());
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
