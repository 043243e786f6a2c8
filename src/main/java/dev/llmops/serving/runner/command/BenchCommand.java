package dev.llmops.serving.runner.command;

import dev.llmops.serving.api.contract.BenchmarkDefaults;
import dev.llmops.serving.api.contract.CapacityMode;
import dev.llmops.serving.api.contract.RunPlan;
import dev.llmops.serving.api.contract.RunnerExitCode;
import dev.llmops.serving.api.contract.RunnerFlags;
import dev.llmops.serving.api.contract.SampleSet;
import dev.llmops.serving.common.options.FileOptions;
import dev.llmops.serving.common.options.OptionValues;
import dev.llmops.serving.runner.BenchmarkListener;
import dev.llmops.serving.runner.BenchmarkRunner;
import dev.llmops.serving.runner.output.BenchmarkReport;
import dev.llmops.serving.runner.output.CompactSummaryWriter;
import dev.llmops.serving.runner.output.ConsoleProgress;
import dev.llmops.serving.runner.output.RequestLog;
import dev.llmops.serving.runner.output.RequestSamples;
import dev.llmops.serving.runner.plan.BenchmarkConfig;
import dev.llmops.serving.runner.plan.Slo;
import dev.llmops.serving.runner.shard.Barrier;
import dev.llmops.serving.runner.shard.BarrierException;
import dev.llmops.serving.runner.shard.Rendezvous;
import dev.llmops.serving.runner.shard.Shard;
import dev.llmops.serving.runner.shard.ShardResult;
import dev.llmops.serving.runner.shard.StageFigures;
import dev.llmops.serving.runner.transport.Endpoint;
import dev.llmops.serving.runner.transport.OpenAiClient;
import dev.llmops.serving.runner.transport.TargetNotReadyException;
import dev.llmops.serving.runner.workload.Arrival;
import dev.llmops.serving.runner.workload.Dataset;
import dev.llmops.serving.runner.workload.RandomLengths;
import dev.llmops.serving.runner.workload.SessionShape;
import dev.llmops.serving.runner.workload.ShareGptDataset;
import dev.llmops.serving.runner.workload.TraceDataset;
import dev.llmops.serving.runner.workload.TraceReplay;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The benchmark tool the BenchmarkRun Job runs: parses the {@link RunnerFlags} into a {@link BenchmarkConfig}, runs it,
 * writes the report and exits with a {@link RunnerExitCode}.
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        exitCodeListHeading = "Exit codes:%n",
        description = "Benchmark an OpenAI-compatible server: warm-up, single requests, concurrency sweep, rates,"
                + " goodput under an SLO and a capacity search.")
public class BenchCommand implements Callable<Integer> {

    CommandSpec spec;

    @Option(
            names = RunnerFlags.URL,
            required = true,
            paramLabel = "URL",
            converter = ServerUrl.class,
            description = "Base URL of the server, e.g. http://localhost:30000.")
    URI url;

    @Option(
            names = RunnerFlags.METRICS_URL,
            paramLabel = "URL",
            converter = ServerUrl.class,
            description = "A Prometheus endpoint of the server, read at each stage's start and end and sampled every"
                    + " second; repeat for one per replica (their figures are summed). Default: the target's own"
                    + " /metrics. A server without metrics costs a warning, not the run.")
    List<URI> metricsUrls;

    @Option(names = RunnerFlags.MODEL, required = true, description = "Model name to request.")
    String model;

    @Option(
            names = RunnerFlags.API_KEY_ENV,
            paramLabel = "VAR",
            description = "Environment variable holding the API key.")
    String apiKeyEnv;

    @Option(
            names = RunnerFlags.ENDPOINT,
            defaultValue = "chat",
            converter = EndpointConverter.class,
            description = "chat (/v1/chat/completions) or completions (/v1/completions). Default: ${DEFAULT-VALUE}.")
    Endpoint endpoint;

    @Option(
            names = RunnerFlags.PROMPTS,
            paramLabel = "TEXT",
            description = "A prompt; repeat for more. Default: three prompts.")
    public List<String> prompts;

    @Option(
            names = RunnerFlags.PROMPTS_FILE,
            paramLabel = "FILE",
            converter = FileOptions.Readable.class,
            description = "Prompts, one per line (blank lines skipped).")
    Path promptsFile;

    @Option(names = RunnerFlags.NO_SINGLE, description = "Skip the single-request phase.")
    boolean noSingle;

    @Option(
            names = RunnerFlags.DATASET,
            defaultValue = "random",
            paramLabel = "DATASET",
            converter = DatasetOption.Converter.class,
            description = {
                "The sweep's requests; each stage's are a pure function of --seed, the dataset and the stage's name."
                        + " Default: ${DEFAULT-VALUE}.",
                "  random: random words (about one token each), no two prompts alike: "
                        + RandomLengths.DEFAULT_INPUT_MIN + " to " + RandomLengths.DEFAULT_INPUT_MAX
                        + " words and max_tokens " + RandomLengths.DEFAULT_OUTPUT_MIN + " to "
                        + RandomLengths.DEFAULT_OUTPUT_MAX + " (at most --max-tokens), uniform, drawn per request.",
                "  random:IN,OUT (or random with --input-len, --output-len, either alone): IN words, max_tokens OUT.",
                "  prompts: the single-request prompts in rotation (after the first, each hits a prefix cache).",
                "  sharegpt:FILE: the first user turn of each conversation of a ShareGPT JSON file, in a seeded"
                        + " order; max_tokens is the reply's length (characters / 4), at most --max-tokens,"
                        + " or --output-len when given.",
                "  shared-prefix:GROUPS,PREFIX_TOKENS,QUESTION_TOKENS: each request is a seeded group's system prompt"
                        + " of PREFIX_TOKENS words plus a unique question of QUESTION_TOKENS words; max_tokens is"
                        + " --output-len, else --max-tokens.",
                "  trace:FILE: a Mooncake-format trace (JSON lines: timestamp ms, input_length, output_length,"
                        + " hash_ids) replayed at its timestamps, one stage per " + RunnerFlags.TRACE_SPEED
                        + " instead of the sweep; prompt blocks with equal hash ids are equal text; max_tokens is"
                        + " output_length, at most --max-tokens, or --output-len when given.",
                "  sessions:TURNS,FIRST_TOKENS,TURN_TOKENS: each --concurrency stream is a user holding one"
                        + " conversation of TURNS turns at a time, every request carrying the whole history: a first"
                        + " message of FIRST_TOKENS words, later ones of TURN_TOKENS, each earlier reply as max_tokens"
                        + " words of seeded text; max_tokens is --output-len, else --max-tokens. The report gives TTFT"
                        + " and the cached prompt share per turn."
            })
    DatasetOption dataset;

    @Option(
            names = RunnerFlags.THINK_TIME,
            paramLabel = "SECONDS",
            defaultValue = "0",
            description = "Sessions: the mean of a user's pause between a reply and the next turn, drawn exponentially"
                    + " and seeded; the stream is idle meanwhile. Default: ${DEFAULT-VALUE}.")
    double thinkTimeSeconds;

    @Option(
            names = RunnerFlags.SESSION_HEADER,
            paramLabel = "NAME",
            defaultValue = SessionShape.DEFAULT_HEADER,
            description =
                    "Sessions: the HTTP header carrying each conversation's id, for routers that keep a session on"
                            + " one replica (SGLang's gateway reads X-SMG-Routing-Key). Default: ${DEFAULT-VALUE}.")
    String sessionHeader;

    @Option(
            names = RunnerFlags.TRACE_SPEED,
            split = RunnerFlags.LIST_SEPARATOR,
            paramLabel = "S",
            defaultValue = "1",
            description = "Speeds a trace is replayed at, one stage each (t1x, t2x, ...): 2 sends twice as fast."
                    + " Default: ${DEFAULT-VALUE}.")
    List<Double> traceSpeeds;

    @Option(
            names = RunnerFlags.TRACE_WINDOW,
            split = RunnerFlags.LIST_SEPARATOR,
            paramLabel = "FROM[,TO]",
            description = "Replay only the trace's requests from FROM to TO seconds after its first (to its end"
                    + " without TO).")
    List<Double> traceWindow;

    @Option(
            names = RunnerFlags.INPUT_LENGTH,
            description = "Words per random prompt (dataset random); else drawn from " + RandomLengths.DEFAULT_INPUT_MIN
                    + " to " + RandomLengths.DEFAULT_INPUT_MAX + ".")
    Integer inputLength;

    @Option(
            names = RunnerFlags.OUTPUT_LENGTH,
            description = "max_tokens of every sweep request (datasets random, sharegpt, shared-prefix).")
    Integer outputLength;

    @Option(names = RunnerFlags.IGNORE_EOS, description = "Ask the server to generate exactly max_tokens in the sweep.")
    boolean ignoreEos;

    @Option(
            names = RunnerFlags.CONCURRENCY,
            split = RunnerFlags.LIST_SEPARATOR,
            paramLabel = "N",
            description = "Closed-loop levels. Default: " + BenchmarkDefaults.CONCURRENCY_TEXT + " (none when only "
                    + RunnerFlags.RATE + " is given).")
    List<Integer> concurrency;

    @Option(names = RunnerFlags.NO_SWEEP, description = "Skip the concurrency sweep.")
    boolean noSweep;

    @Option(
            names = RunnerFlags.RATE,
            split = RunnerFlags.LIST_SEPARATOR,
            paramLabel = "R",
            description =
                    "Open-loop rates, requests/s, run after the sweep (arrivals per " + RunnerFlags.ARRIVAL + ").")
    List<Double> rates;

    @Option(
            names = RunnerFlags.ARRIVAL,
            defaultValue = "poisson",
            converter = ArrivalConverter.class,
            description = "Spacing of the requests of a rate stage: poisson (exponential gaps, seeded) or constant"
                    + " (exactly 1/R apart). Default: ${DEFAULT-VALUE}.")
    Arrival arrival;

    @Option(
            names = RunnerFlags.MAX_CONCURRENCY,
            paramLabel = "C",
            description = "At most C requests in flight in a rate stage; a request due while C are in flight waits"
                    + " in the client, its latency still counted from its intended send (the wait shows as schedule"
                    + " lag). The arrival clock never waits on responses.")
    Integer maxConcurrency;

    @Option(
            names = RunnerFlags.SLO_TTFT,
            paramLabel = "MS",
            description = "SLO: a request is good only if its time to first token is at most MS.")
    Double sloTtft;

    @Option(
            names = RunnerFlags.SLO_TPOT,
            paramLabel = "MS",
            description = "SLO: a request is good only if its time per output token is at most MS.")
    Double sloTpot;

    @Option(
            names = RunnerFlags.SLO_ITL,
            paramLabel = "MS",
            description = "SLO: a request is good only if the p99 of its own inter-token latencies is at most MS.")
    Double sloItl;

    @Option(
            names = RunnerFlags.SLO_E2E,
            paramLabel = "MS",
            description = "SLO: a request is good only if its end-to-end latency is at most MS.")
    Double sloE2e;

    @Option(
            names = RunnerFlags.SLO_ATTAINMENT,
            paramLabel = "A",
            defaultValue = BenchmarkDefaults.SLO_ATTAINMENT_TEXT,
            description = "Share of good requests (failures count as not good) a stage needs to meet the SLO, in"
                    + " (0,1]. With an SLO every stage reports slo_attainment and goodput. Default: ${DEFAULT-VALUE}.")
    double sloAttainment;

    @Option(
            names = RunnerFlags.FIND_CAPACITY,
            paramLabel = "concurrency|rate",
            converter = CapacityModeConverter.class,
            description = "After the other stages, search the highest concurrency or request rate that meets the SLO"
                    + " (needs an SLO limit): probes double the load, then bisect, then re-run the boundary.")
    CapacityMode findCapacity;

    @Option(
            names = RunnerFlags.MAX_PROBES,
            paramLabel = "N",
            defaultValue = BenchmarkDefaults.MAX_PROBES_TEXT,
            description = "Capacity search: at most N probes. Default: ${DEFAULT-VALUE}.")
    int maxProbes;

    @Option(
            names = RunnerFlags.MAX_SEARCH_SECONDS,
            paramLabel = "S",
            defaultValue = BenchmarkDefaults.MAX_SEARCH_SECONDS_TEXT,
            description = "Capacity search: no probe starts after S seconds of searching. Default: ${DEFAULT-VALUE}.")
    int maxSearchSeconds;

    @Option(
            names = RunnerFlags.REQUESTS_PER_LEVEL,
            description = "Requests per level. Default: " + RunPlan.REQUESTS_PER_STREAM + " × concurrency; "
                    + RunPlan.RATE_SECONDS + " s of arrivals per rate.")
    Integer requestsPerLevel;

    @Option(
            names = RunnerFlags.DURATION_PER_LEVEL,
            paramLabel = "SECONDS",
            description = "Seconds per level instead of a request count.")
    Integer durationPerLevel;

    @Option(
            names = RunnerFlags.WARMUP,
            defaultValue = BenchmarkDefaults.WARMUP_REQUESTS_TEXT,
            description = "Warm-up requests, not measured. Default: ${DEFAULT-VALUE}.")
    int warmup;

    @Option(
            names = RunnerFlags.WARMUP_MAX_TOKENS,
            defaultValue = BenchmarkDefaults.WARMUP_MAX_TOKENS_TEXT,
            description = "max_tokens of warm-up requests. Default: ${DEFAULT-VALUE}.")
    int warmupMaxTokens;

    @Option(
            names = RunnerFlags.MAX_TOKENS,
            defaultValue = BenchmarkDefaults.MAX_TOKENS_TEXT,
            description = "max_tokens of measured requests. Default: ${DEFAULT-VALUE}.")
    int maxTokens;

    @Option(
            names = RunnerFlags.TEMPERATURE,
            defaultValue = BenchmarkDefaults.TEMPERATURE_TEXT,
            description = "Default: ${DEFAULT-VALUE}.")
    double temperature;

    @Option(
            names = RunnerFlags.TOP_P,
            defaultValue = BenchmarkDefaults.TOP_P_TEXT,
            description = "Default: ${DEFAULT-VALUE}.")
    double topP;

    @Option(
            names = RunnerFlags.TIMEOUT,
            paramLabel = "SECONDS",
            defaultValue = BenchmarkDefaults.REQUEST_TIMEOUT_SECONDS_TEXT,
            description = "Per-request timeout. Default: ${DEFAULT-VALUE}.")
    int timeoutSeconds;

    @Option(
            names = RunnerFlags.NO_CONTINUOUS_USAGE,
            description = "Do not ask for usage on every chunk (for servers that reject "
                    + "stream_options.continuous_usage_stats).")
    boolean noContinuousUsage;

    @Option(
            names = RunnerFlags.SEED,
            defaultValue = BenchmarkDefaults.SEED_TEXT,
            description = "Seed of random prompts and arrivals. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(
            names = RunnerFlags.JSON_OUT,
            paramLabel = "FILE",
            converter = FileOptions.WritableOrStdout.class,
            description = "Write the full JSON report here (- for stdout, which then carries nothing else); report"
                    + " --file FILE renders it, report compare compares two.")
    String jsonOut;

    @Option(
            names = RunnerFlags.SUMMARY_FILE,
            paramLabel = "FILE",
            converter = FileOptions.Writable.class,
            description = "Write the compact summary (at most 4096 bytes) here, e.g. /dev/termination-log.")
    Path summaryFile;

    @Option(
            names = RunnerFlags.REQUESTS_OUT,
            paramLabel = "FILE",
            converter = FileOptions.Writable.class,
            description =
                    "Write every measured request (send, first-token, chunk and end times, tokens) here as JSON lines.")
    Path requestsOut;

    @Option(
            names = RunnerFlags.QUALITY,
            description = "After the single requests, send each single-request prompt once more, greedy (temperature"
                    + " 0, top_p 1, logprobs), and keep its output's tokens, to compare with another server's (see "
                    + RunnerFlags.SAMPLES_LOG + "). Not measured.")
    boolean quality;

    @Option(
            names = RunnerFlags.QUALITY_MAX_TOKENS,
            paramLabel = "N",
            defaultValue = BenchmarkDefaults.QUALITY_MAX_TOKENS_TEXT,
            description = "max_tokens of each quality request, 1 to " + RunnerFlags.MAX_QUALITY_MAX_TOKENS
                    + ". Default: ${DEFAULT-VALUE}.")
    int qualityMaxTokens;

    @Option(
            names = RunnerFlags.SAMPLES_LOG,
            description = "Print every measured request's figures and the quality outputs, gzipped and base64-encoded"
                    + " behind the prefix '" + SampleSet.LOG_PREFIX + "', as the last line of stdout.")
    boolean samplesLog;

    @Option(
            names = RunnerFlags.SAMPLES_OUT,
            paramLabel = "FILE",
            converter = FileOptions.Writable.class,
            description = "Write the same samples here as gzipped JSON, for report compare: with them it pairs two"
                    + " runs' requests for intervals, verdicts and output agreement.")
    Path samplesOut;

    @Option(
            names = RunnerFlags.SHARD,
            paramLabel = "I/N",
            defaultValue = "0/1",
            description = "Send shard I (from 0) of N of the workload, 1 to " + Shard.MAX_COUNT
                    + ": request, session or"
                    + " arrival k of each stage is shard k mod N's, and a level's streams are split evenly, so N shards"
                    + " together send what one runner would. Shard 0 alone sends the single requests and the quality"
                    + " stage and reads the server's metrics. Needs " + RunnerFlags.RENDEZVOUS + "; the last line of"
                    + " stdout is the shard's result behind '" + ShardResult.LOG_PREFIX + "', for report merge."
                    + " Default: ${DEFAULT-VALUE}.")
    String shardText;

    @Option(
            names = RunnerFlags.RENDEZVOUS,
            paramLabel = "HOST:PORT",
            description = "Where the shards meet before each stage: shard 0 listens on PORT, the others connect to"
                    + " HOST:PORT.")
    String rendezvous;

    @Option(
            names = RunnerFlags.SHARD_WAIT,
            paramLabel = "S",
            defaultValue = "" + RunnerFlags.DEFAULT_SHARD_WAIT_SECONDS,
            description = "How long the shards wait at a stage for the last of them, from the first's arrival; a"
                    + " shard missing then fails the run, named. Default: ${DEFAULT-VALUE}.")
    int shardWaitSeconds;

    @Option(
            names = RunnerFlags.SHARD_OUT,
            paramLabel = "FILE",
            converter = FileOptions.Writable.class,
            description = "Write the shard's result here too (gzipped JSON), for report merge.")
    Path shardOut;

    /** Keeps the command's model and declares the runner's exit codes in it, for parse errors and the help. */
    @Spec
    void spec(CommandSpec commandSpec) {
        spec = commandSpec;
        commandSpec.exitCodeOnInvalidInput(RunnerExitCode.BAD_CONFIGURATION.code());
        Map<String, String> exitCodes = new LinkedHashMap<>();
        for (RunnerExitCode exit : RunnerExitCode.values()) {
            exitCodes.put(String.valueOf(exit.code()), exit.meaning());
        }
        commandSpec.usageMessage().exitCodeList(exitCodes);
    }

    @Override
    public Integer call() {
        BenchmarkConfig config = config(System::getenv);
        Shard shard = shard();
        var out = spec.commandLine().getOut();
        var err = spec.commandLine().getErr();
        boolean jsonToStdout = "-".equals(jsonOut);
        BenchmarkReport report;
        RequestSamples samples = samplesLog || samplesOut != null || !shard.whole() ? new RequestSamples(config) : null;
        List<StageFigures> figures = new ArrayList<>();
        try (OpenAiClient client = OpenAiClient.create();
                RequestLog requestLog = openRequestLog();
                Barrier barrier = barrier(shard)) {
            BenchmarkListener listener = new ConsoleProgress(
                    jsonToStdout ? err : out, err, config.slo().hasLimits());
            if (requestLog != null) {
                listener = BenchmarkListener.both(listener, requestLog);
            }
            if (samples != null) {
                listener = BenchmarkListener.both(listener, samples);
            }
            listener = BenchmarkListener.both(listener, new BenchmarkListener() {
                @Override
                public void stageMeasured(StageFigures stage) {
                    figures.add(stage);
                }
            });
            report = new BenchmarkRunner(config, client, listener, shard, barrier).run();
        } catch (BarrierException e) {
            err.println("bench: " + e.getMessage());
            err.flush();
            write(summaryFile, CompactSummaryWriter.writeFailure(model, e.getMessage()));
            return RunnerExitCode.SHARDS_APART.code();
        } catch (TargetNotReadyException e) {
            err.println("bench: " + e.getMessage());
            err.flush();
            write(summaryFile, CompactSummaryWriter.writeFailure(model, e.getMessage()));
            return RunnerExitCode.TARGET_NOT_READY.code();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        if (jsonOut != null) {
            String json = report.toJson();
            if (jsonToStdout) {
                out.println(json);
                out.flush();
            } else {
                write(Path.of(jsonOut), json);
            }
        }
        write(summaryFile, CompactSummaryWriter.write(report));
        int exitCode = RunnerExitCode.DONE.code();
        if (report.everyRequestFailed()) {
            err.println("bench: every measured request failed: " + report.failures());
            err.flush();
            exitCode = RunnerExitCode.ALL_REQUESTS_FAILED.code();
        }
        if (samples != null) {
            SampleSet sampleSet = samples.sampleSet(warning -> {
                err.println("warning: " + warning);
                err.flush();
            });
            writeSamples(sampleSet);
            if (!shard.whole()) {
                writeShardResult(ShardResult.of(shard, report, figures, sampleSet));
            }
        }
        return exitCode;
    }

    /** The shard's result to its file, and as the very last line of stdout, where the operator looks for it. */
    private void writeShardResult(ShardResult result) {
        if (shardOut != null) {
            try {
                Files.write(shardOut, result.toGzip());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + shardOut, e);
            }
        }
        var out = spec.commandLine().getOut();
        out.println(result.toLogLine());
        out.flush();
    }

    /** The shard {@link #shardText} names, checked with the options it needs and those it cannot take. */
    private Shard shard() {
        Shard shard;
        try {
            shard = Shard.parse(shardText);
        } catch (IllegalArgumentException e) {
            throw OptionValues.invalid(spec, RunnerFlags.SHARD, e.getMessage());
        }
        if (shard.whole()) {
            return shard;
        }
        if (rendezvous == null) {
            throw OptionValues.invalid(spec, RunnerFlags.SHARD, "needs " + RunnerFlags.RENDEZVOUS + " HOST:PORT");
        }
        if (samplesLog || "-".equals(jsonOut)) {
            throw OptionValues.invalid(
                    spec,
                    RunnerFlags.SHARD,
                    "prints its result as the last line of stdout: drop " + RunnerFlags.SAMPLES_LOG + " and give "
                            + RunnerFlags.JSON_OUT + " a FILE");
        }
        if (shardWaitSeconds < 1) {
            throw OptionValues.invalid(spec, RunnerFlags.SHARD_WAIT, "must be at least 1 second");
        }
        return shard;
    }

    /** The barrier of {@code shard}: none for a whole run, else the rendezvous at {@link #rendezvous}. */
    private Barrier barrier(Shard shard) {
        if (shard.whole()) {
            return Barrier.NONE;
        }
        int colon = rendezvous.lastIndexOf(':');
        int port;
        try {
            port = Integer.parseInt(rendezvous.substring(colon + 1));
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (colon < 0 || port < 1 || port > 65535 || (shard.index() > 0 && colon == 0)) {
            throw OptionValues.invalid(spec, RunnerFlags.RENDEZVOUS, "is not HOST:PORT");
        }
        try {
            return Rendezvous.of(shard, rendezvous.substring(0, colon), port, Duration.ofSeconds(shardWaitSeconds));
        } catch (IOException e) {
            throw OptionValues.invalid(spec, RunnerFlags.RENDEZVOUS, "cannot listen on port " + port + ": " + e);
        }
    }

    /** The samples to their file, and as the very last line of stdout, where the operator looks for them. */
    private void writeSamples(SampleSet sampleSet) {
        if (samplesOut != null) {
            try {
                Files.write(samplesOut, sampleSet.toGzip());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + samplesOut, e);
            }
        }
        if (samplesLog) {
            var out = spec.commandLine().getOut();
            out.println(sampleSet.toLogLine());
            out.flush();
        }
    }

    /**
     * The configuration the parsed options stand for, the API key read from {@code environment}; fails on any problem.
     */
    BenchmarkConfig config(UnaryOperator<String> environment) {
        String apiKey = OptionValues.apiKey(spec, apiKeyEnv, environment);
        List<String> allPrompts = new ArrayList<>(prompts == null ? List.of() : prompts);
        if (promptsFile != null) {
            try {
                Files.readAllLines(promptsFile, StandardCharsets.UTF_8).stream()
                        .filter(line -> !line.isBlank())
                        .forEach(allPrompts::add);
            } catch (CharacterCodingException e) {
                throw OptionValues.invalid(spec, RunnerFlags.PROMPTS_FILE, "is not UTF-8 text");
            } catch (IOException e) {
                throw OptionValues.invalid(spec, RunnerFlags.PROMPTS_FILE, "cannot be read: " + e);
            }
        }
        if (dataset.inputLength() != null && (inputLength != null || outputLength != null)) {
            throw OptionValues.invalid(
                    spec,
                    RunnerFlags.DATASET,
                    "already gives the lengths: drop " + RunnerFlags.INPUT_LENGTH + " and "
                            + RunnerFlags.OUTPUT_LENGTH);
        }
        onlyWith(Dataset.TRACE, "trace:FILE", RunnerFlags.TRACE_SPEED, RunnerFlags.TRACE_WINDOW);
        onlyWith(
                Dataset.SESSIONS,
                "sessions:TURNS,FIRST_TOKENS,TURN_TOKENS",
                RunnerFlags.THINK_TIME,
                RunnerFlags.SESSION_HEADER);
        if (!(thinkTimeSeconds >= 0 && thinkTimeSeconds <= SessionShape.MAX_THINK_TIME.toSeconds())) {
            throw OptionValues.invalid(
                    spec,
                    RunnerFlags.THINK_TIME,
                    "is outside 0 to " + SessionShape.MAX_THINK_TIME.toSeconds() + " seconds");
        }
        if (samplesLog && "-".equals(jsonOut)) {
            throw OptionValues.invalid(
                    spec,
                    RunnerFlags.SAMPLES_LOG,
                    "prints on stdout, which " + RunnerFlags.JSON_OUT + " - keeps for the report alone: give "
                            + RunnerFlags.JSON_OUT + " a FILE");
        }
        BenchmarkConfig config = BenchmarkConfig.builder(url, model)
                .apiKey(apiKey)
                .endpoint(endpoint)
                .prompts(prompts == null && promptsFile == null ? BenchmarkDefaults.PROMPTS : allPrompts)
                .singleRequests(!noSingle)
                .dataset(dataset.kind())
                .inputLength(dataset.inputLength() != null ? dataset.inputLength() : inputLength)
                .outputLength(dataset.outputLength() != null ? dataset.outputLength() : outputLength)
                .shareGpt(
                        dataset.kind() == Dataset.SHAREGPT ? datasetFile(dataset.file(), ShareGptDataset::read) : null)
                .sharedPrefix(dataset.sharedPrefix())
                .trace(dataset.kind() == Dataset.TRACE ? traceReplay(dataset.file()) : null)
                .sessions(
                        dataset.sessions() == null
                                ? null
                                : dataset.sessions()
                                        .paced(Duration.ofNanos(Math.round(thinkTimeSeconds * 1e9)), sessionHeader))
                .ignoreEos(ignoreEos)
                .concurrency(noSweep ? List.of() : sweepLevels())
                .requestsPerLevel(requestsPerLevel)
                .durationPerLevel(durationPerLevel == null ? null : Duration.ofSeconds(durationPerLevel))
                .rates(rates == null ? List.of() : rates)
                .warmupRequests(warmup)
                .warmupMaxTokens(warmupMaxTokens)
                .maxTokens(maxTokens)
                .temperature(temperature)
                .topP(topP)
                .timeout(Duration.ofSeconds(timeoutSeconds))
                .continuousUsage(!noContinuousUsage)
                .seed(seed)
                .arrival(arrival)
                .maxConcurrency(maxConcurrency)
                .slo(new Slo(sloTtft, sloTpot, sloItl, sloE2e, sloAttainment))
                .findCapacity(findCapacity)
                .maxProbes(maxProbes)
                .maxSearch(Duration.ofSeconds(maxSearchSeconds))
                .metricsUrls(metricsUrls == null ? List.of() : metricsUrls)
                .quality(quality)
                .qualityMaxTokens(qualityMaxTokens)
                .build();
        List<String> problems = config.problems();
        if (!problems.isEmpty()) {
            throw new ParameterException(spec.commandLine(), String.join("; ", problems));
        }
        return config;
    }

    /** Refuses {@code options} given on the command line with another dataset than {@code kind}. */
    private void onlyWith(Dataset kind, String form, String... options) {
        for (String option : options) {
            if (dataset.kind() != kind
                    && !spec.findOption(option).originalStringValues().isEmpty()) {
                throw OptionValues.invalid(spec, option, "applies only to " + RunnerFlags.DATASET + " " + form);
            }
        }
    }

    /** The closed-loop levels: none by default when a trace replaces the sweep. */
    private List<Integer> sweepLevels() {
        if (dataset.kind() == Dataset.TRACE && concurrency == null) {
            return List.of();
        }
        return RunPlan.concurrencyLevels(concurrency, rates);
    }

    private TraceReplay traceReplay(Path file) {
        if (traceWindow != null && (traceWindow.isEmpty() || traceWindow.size() > 2)) {
            throw OptionValues.invalid(spec, RunnerFlags.TRACE_WINDOW, "is not FROM or FROM,TO seconds");
        }
        double from = traceWindow == null ? 0 : traceWindow.get(0);
        Double to = traceWindow == null || traceWindow.size() < 2 ? null : traceWindow.get(1);
        return new TraceReplay(datasetFile(file, TraceDataset::read), traceSpeeds, from, to);
    }

    /** A dataset file read by {@code reader}; what is wrong with it is a bad --dataset value. */
    private <T> T datasetFile(Path file, DatasetReader<T> reader) {
        try {
            return reader.read(file);
        } catch (IllegalArgumentException e) {
            throw OptionValues.invalid(spec, RunnerFlags.DATASET, e.getMessage());
        } catch (IOException e) {
            throw OptionValues.invalid(spec, RunnerFlags.DATASET, "cannot be read: " + e);
        }
    }

    /** Reads a dataset file: ShareGptDataset::read, TraceDataset::read. */
    @FunctionalInterface
    private interface DatasetReader<T> {
        T read(Path file) throws IOException;
    }

    private RequestLog openRequestLog() {
        if (requestsOut == null) {
            return null;
        }
        try {
            return RequestLog.open(requestsOut);
        } catch (IOException e) {
            throw OptionValues.invalid(spec, RunnerFlags.REQUESTS_OUT, "cannot be written: " + e);
        }
    }

    private static void write(Path file, String text) {
        if (file == null) {
            return;
        }
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** Accepts chat or completions. */
    public static final class EndpointConverter implements ITypeConverter<Endpoint> {
        @Override
        public Endpoint convert(String value) {
            return switch (value.toLowerCase(Locale.ROOT)) {
                case "chat" -> Endpoint.CHAT;
                case "completions" -> Endpoint.COMPLETIONS;
                default ->
                    throw new picocli.CommandLine.TypeConversionException("expected chat or completions, got " + value);
            };
        }
    }

    /** Accepts poisson or constant; a trace's arrivals come with {@code --dataset trace:FILE}. */
    public static final class ArrivalConverter implements ITypeConverter<Arrival> {
        @Override
        public Arrival convert(String value) {
            return switch (value.toLowerCase(Locale.ROOT)) {
                case "poisson" -> Arrival.POISSON;
                case "constant" -> Arrival.CONSTANT;
                default ->
                    throw new picocli.CommandLine.TypeConversionException("expected poisson or constant, got " + value);
            };
        }
    }

    /** Accepts concurrency or rate. */
    public static final class CapacityModeConverter implements ITypeConverter<CapacityMode> {
        @Override
        public CapacityMode convert(String value) {
            return CapacityMode.fromText(value.toLowerCase(Locale.ROOT))
                    .orElseThrow(() -> new picocli.CommandLine.TypeConversionException("expected "
                            + Arrays.stream(CapacityMode.values())
                                    .map(CapacityMode::text)
                                    .collect(Collectors.joining(" or "))
                            + ", got " + value));
        }
    }
}
