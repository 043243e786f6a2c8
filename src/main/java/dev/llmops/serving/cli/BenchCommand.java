package dev.llmops.serving.cli;

import dev.llmops.serving.runner.BenchmarkConfig;
import dev.llmops.serving.runner.BenchmarkListener;
import dev.llmops.serving.runner.BenchmarkReport;
import dev.llmops.serving.runner.BenchmarkRunner;
import dev.llmops.serving.runner.CompactSummaryWriter;
import dev.llmops.serving.runner.ConsoleProgress;
import dev.llmops.serving.runner.Dataset;
import dev.llmops.serving.runner.Endpoint;
import dev.llmops.serving.runner.OpenAiClient;
import dev.llmops.serving.runner.RequestLog;
import dev.llmops.serving.runner.TargetNotReadyException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The benchmark tool the BenchmarkRun Job runs: parses options into a {@link BenchmarkConfig}, runs it and writes the
 * report. Exit codes: 0 done, 2 bad configuration, 3 target unreachable or not inference-ready, 4 every request failed.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Benchmark an OpenAI-compatible server: warm-up, single requests, concurrency sweep, rates.",
            "Exit codes: 0 done, 2 bad configuration, 3 target not inference-ready, 4 every request failed."})
public class BenchCommand implements Callable<Integer> {

    public static final int TARGET_NOT_READY = 3;
    public static final int ALL_REQUESTS_FAILED = 4;

    @Spec
    CommandSpec spec;

    @Option(names = "--url", required = true, paramLabel = "URL", converter = ServerUrl.class,
            description = "Base URL of the server, e.g. http://localhost:30000.")
    URI url;

    @Option(names = "--model", required = true, description = "Model name to request.")
    String model;

    @Option(names = "--api-key-env", paramLabel = "VAR", description = "Environment variable holding the API key.")
    String apiKeyEnv;

    @Option(names = "--endpoint", defaultValue = "chat", converter = EndpointConverter.class,
            description = "chat (/v1/chat/completions) or completions (/v1/completions). Default: ${DEFAULT-VALUE}.")
    Endpoint endpoint;

    @Option(names = "--prompts", paramLabel = "TEXT", description = "A prompt; repeat for more. Default: three prompts.")
    List<String> prompts;

    @Option(names = "--prompts-file", paramLabel = "FILE", converter = FileOptions.Readable.class,
            description = "Prompts, one per line (blank lines skipped).")
    Path promptsFile;

    @Option(names = "--no-single", description = "Skip the single-request phase.")
    boolean noSingle;

    @Option(names = "--dataset", defaultValue = "prompts", converter = DatasetConverter.class,
            description = "prompts (the prompts in rotation) or random (random words). Default: ${DEFAULT-VALUE}.")
    Dataset dataset;

    @Option(names = "--input-len", description = "Words per random prompt (dataset random).")
    Integer inputLength;

    @Option(names = "--output-len", description = "max_tokens of every sweep request (dataset random).")
    Integer outputLength;

    @Option(names = "--ignore-eos", description = "Ask the server to generate exactly max_tokens in the sweep.")
    boolean ignoreEos;

    @Option(names = "--concurrency", split = ",", paramLabel = "N",
            description = "Closed-loop levels. Default: 8,16,32,48,64 (none when only --rate is given).")
    List<Integer> concurrency;

    @Option(names = "--no-sweep", description = "Skip the concurrency sweep.")
    boolean noSweep;

    @Option(names = "--rate", split = ",", paramLabel = "R", description = "Open-loop Poisson rates, requests/s.")
    List<Double> rates;

    @Option(names = "--requests-per-level", description = "Requests per level. Default: 4 × concurrency; 30 s of arrivals per rate.")
    Integer requestsPerLevel;

    @Option(names = "--duration-per-level", paramLabel = "SECONDS", description = "Seconds per level instead of a request count.")
    Integer durationPerLevel;

    @Option(names = "--warmup", defaultValue = "3", description = "Warm-up requests, not measured. Default: ${DEFAULT-VALUE}.")
    int warmup;

    @Option(names = "--warmup-max-tokens", defaultValue = "256", description = "max_tokens of warm-up requests. Default: ${DEFAULT-VALUE}.")
    int warmupMaxTokens;

    @Option(names = "--max-tokens", defaultValue = "4096", description = "max_tokens of measured requests. Default: ${DEFAULT-VALUE}.")
    int maxTokens;

    @Option(names = "--temperature", defaultValue = "0.6", description = "Default: ${DEFAULT-VALUE}.")
    double temperature;

    @Option(names = "--top-p", defaultValue = "0.95", description = "Default: ${DEFAULT-VALUE}.")
    double topP;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "900", description = "Per-request timeout. Default: ${DEFAULT-VALUE}.")
    int timeoutSeconds;

    @Option(names = "--no-continuous-usage",
            description = "Do not ask for usage on every chunk (for servers that reject stream_options.continuous_usage_stats).")
    boolean noContinuousUsage;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of random prompts and arrivals. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--json-out", paramLabel = "FILE", converter = FileOptions.WritableOrStdout.class,
            description = "Write the full JSON report here (- for stdout, which then carries nothing else).")
    String jsonOut;

    @Option(names = "--summary-file", paramLabel = "FILE", converter = FileOptions.Writable.class,
            description = "Write the compact summary (at most 4096 bytes) here, e.g. /dev/termination-log.")
    Path summaryFile;

    @Option(names = "--requests-out", paramLabel = "FILE", converter = FileOptions.Writable.class,
            description = "Write every measured request (send, first-token, chunk and end times, tokens) here as JSON lines.")
    Path requestsOut;

    @Override
    public Integer call() {
        BenchmarkConfig config = config();
        var out = spec.commandLine().getOut();
        var err = spec.commandLine().getErr();
        boolean jsonToStdout = "-".equals(jsonOut);
        BenchmarkReport report;
        try (OpenAiClient client = OpenAiClient.create(); RequestLog requestLog = openRequestLog()) {
            BenchmarkListener console = new ConsoleProgress(jsonToStdout ? err : out, err);
            report = new BenchmarkRunner(config, client,
                    requestLog == null ? console : BenchmarkListener.both(console, requestLog)).run();
        } catch (TargetNotReadyException e) {
            err.println("bench: " + e.getMessage());
            err.flush();
            write(summaryFile, CompactSummaryWriter.writeFailure(model, e.getMessage()));
            return TARGET_NOT_READY;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        if (jsonOut != null) {
            String json = reportJson(report);
            if (jsonToStdout) {
                out.println(json);
                out.flush();
            } else {
                write(Path.of(jsonOut), json);
            }
        }
        write(summaryFile, CompactSummaryWriter.write(report));
        if (report.everyRequestFailed()) {
            err.println("bench: every measured request failed: " + report.failures());
            err.flush();
            return ALL_REQUESTS_FAILED;
        }
        return 0;
    }

    private BenchmarkConfig config() {
        String apiKey = OptionValues.apiKey(spec, apiKeyEnv);
        List<String> allPrompts = new ArrayList<>(prompts == null ? List.of() : prompts);
        if (promptsFile != null) {
            try {
                Files.readAllLines(promptsFile, StandardCharsets.UTF_8).stream().filter(line -> !line.isBlank())
                        .forEach(allPrompts::add);
            } catch (CharacterCodingException e) {
                throw OptionValues.invalid(spec, "--prompts-file", "is not UTF-8 text");
            } catch (IOException e) {
                throw OptionValues.invalid(spec, "--prompts-file", "cannot be read: " + e);
            }
        }
        boolean defaultSweep = concurrency == null && rates == null;
        BenchmarkConfig config = BenchmarkConfig.builder(url, model)
                .apiKey(apiKey)
                .endpoint(endpoint)
                .prompts(prompts == null && promptsFile == null ? BenchmarkConfig.DEFAULT_PROMPTS : allPrompts)
                .singleRequests(!noSingle)
                .dataset(dataset)
                .inputLength(inputLength)
                .outputLength(outputLength)
                .ignoreEos(ignoreEos)
                .concurrency(noSweep ? List.of() : defaultSweep ? BenchmarkConfig.DEFAULT_CONCURRENCY
                        : concurrency == null ? List.of() : concurrency)
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
                .build();
        List<String> problems = config.problems();
        if (!problems.isEmpty()) {
            throw new ParameterException(spec.commandLine(), String.join("; ", problems));
        }
        return config;
    }

    private RequestLog openRequestLog() {
        if (requestsOut == null) {
            return null;
        }
        try {
            return RequestLog.open(requestsOut);
        } catch (IOException e) {
            throw OptionValues.invalid(spec, "--requests-out", "cannot be written: " + e);
        }
    }

    private static String reportJson(BenchmarkReport report) {
        try {
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(report);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
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
                default -> throw new picocli.CommandLine.TypeConversionException("expected chat or completions, got " + value);
            };
        }
    }

    /** Accepts prompts or random. */
    public static final class DatasetConverter implements ITypeConverter<Dataset> {
        @Override
        public Dataset convert(String value) {
            try {
                return Dataset.valueOf(value.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException("expected prompts or random, got " + value);
            }
        }
    }
}
