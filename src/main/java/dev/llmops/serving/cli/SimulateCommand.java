package dev.llmops.serving.cli;

import dev.llmops.serving.common.options.OptionValues;
import dev.llmops.serving.simulator.Fault;
import dev.llmops.serving.simulator.SglangSimulator;
import dev.llmops.serving.simulator.SpeculativeAcceptance;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/** Serves an SGLang simulator until stopped (or for a set time), for demos and trying the bench and probe tools. */
@Command(
        name = "simulate",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Run an SGLang simulator: the same endpoints and streaming, configurable speed and faults.")
public class SimulateCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to bind. Default: ${DEFAULT-VALUE}.")
    String host;

    @Option(
            names = "--port",
            defaultValue = "30000",
            description = "Port to bind (0 picks one). Default: ${DEFAULT-VALUE}.")
    int port;

    @Option(
            names = "--model",
            defaultValue = "simulated/model",
            description = "Served model name. Default: ${DEFAULT-VALUE}.")
    String model;

    @Option(names = "--ttft-ms", defaultValue = "50", description = "Time to first token. Default: ${DEFAULT-VALUE}.")
    long ttftMillis;

    @Option(
            names = "--prefill-us-per-token",
            paramLabel = "US",
            defaultValue = "0",
            description = "Prefill time per prompt token the prefix cache did not serve, in microseconds, on top of"
                    + " --ttft-ms: longer prompts wait longer for their first token. Default: ${DEFAULT-VALUE}.")
    double prefillMicrosPerToken;

    @Option(
            names = "--token-delay-ms",
            defaultValue = "10",
            description = "Time per further token. Default: ${DEFAULT-VALUE}.")
    double tokenDelayMillis;

    @Option(
            names = "--tokens-per-chunk",
            defaultValue = "1",
            description = "Tokens per streamed chunk. Default: ${DEFAULT-VALUE}.")
    int tokensPerChunk;

    @Option(
            names = "--spec-accept",
            split = ",",
            paramLabel = "P1,P2,...",
            description = "Speculative decoding: each step (one verify call, taking --token-delay-ms) accepts k tokens"
                    + " with probability Pk, drawn per step; e.g. 0.2,0.3,0.5. The probabilities add up to 1."
                    + " /metrics then counts sglang:spec_verify_calls_total. Replaces --tokens-per-chunk.")
    List<Double> specAccept;

    @Option(
            names = "--spec-seed",
            defaultValue = "1",
            description = "Seed of the --spec-accept draws. Default: ${DEFAULT-VALUE}.")
    long specSeed;

    @Option(
            names = "--reasoning-tokens",
            defaultValue = "0",
            description = "Tokens streamed as reasoning_content first.")
    int reasoningTokens;

    @Option(
            names = "--natural-length",
            defaultValue = "0",
            description = "Without ignore_eos, answers stop after this many tokens (0: never early).")
    int naturalLength;

    @Option(
            names = "--max-running",
            defaultValue = "0",
            description = "Batch limit; more requests queue (0: no limit).")
    int maxRunning;

    @Option(
            names = "--batch-slowdown",
            paramLabel = "S",
            defaultValue = "0",
            description = "Service time under load: with b requests running each token takes the token delay"
                    + " × (1 + S × (b - 1)). Default: ${DEFAULT-VALUE} (no slowdown).")
    double batchSlowdown;

    @Option(
            names = "--prefix-cache-blocks",
            paramLabel = "N",
            defaultValue = "" + SglangSimulator.DEFAULT_PREFIX_CACHE_BLOCKS,
            description = "Prefix cache of N blocks, least recently used evicted first (0: none): a prompt's leading"
                    + " blocks that an earlier prompt left are cached, reported in usage"
                    + " (prompt_tokens_details.cached_tokens) and /metrics (sglang:cached_tokens_total), and"
                    + " prefill (--ttft-ms) shrinks to the uncached share. Default: ${DEFAULT-VALUE}.")
    int prefixCacheBlocks;

    @Option(
            names = "--prefix-cache-block-tokens",
            paramLabel = "T",
            defaultValue = "" + SglangSimulator.DEFAULT_PREFIX_CACHE_BLOCK_TOKENS,
            description = "Tokens (words) per prefix-cache block. Default: ${DEFAULT-VALUE}.")
    int prefixCacheBlockTokens;

    @Option(
            names = "--loading-seconds",
            defaultValue = "0",
            description = "Slow start: /health 503 and generation failing this long.")
    long loadingSeconds;

    @Option(
            names = "--fault",
            defaultValue = "none",
            converter = FaultConverter.class,
            description = "none, half-ready (generation fails with HTTP 500), hang, disconnect (streams end halfway),"
                    + " broken-draft (with --spec-accept every step accepts the most tokens, and answers differ"
                    + " after two tokens), or a hostile server whose answers never end: endless-line (one data: line),"
                    + " endless-event (data: lines of one event), huge-body (/health, /v1/models and generations"
                    + " without end) or slow-drip (one byte every 100 ms). Default: ${DEFAULT-VALUE}.")
    Fault fault;

    @Option(
            names = "--error-rate",
            defaultValue = "0",
            description = "Fraction of generation requests answered with HTTP 500.")
    double errorRate;

    @Option(
            names = "--api-key-env",
            paramLabel = "VAR",
            description = "Environment variable holding the API key to require.")
    String apiKeyEnv;

    @Option(names = "--speculative-algorithm", description = "Reported by /get_server_info, e.g. EAGLE3.")
    String speculativeAlgorithm;

    @Option(
            names = "--record-ground-truth",
            description =
                    "Keep every request's ground truth (when it was read, when each chunk was written) and serve it"
                            + " at GET /simulator/ground_truth.")
    boolean recordGroundTruth;

    @Option(names = "--duration-seconds", description = "Stop after this long instead of running until killed.")
    Long durationSeconds;

    @Override
    public Integer call() throws InterruptedException {
        checkOptions();
        SpeculativeAcceptance acceptance = acceptance();
        SglangSimulator simulator;
        try {
            simulator = SglangSimulator.builder()
                    .host(host)
                    .port(port)
                    .model(model)
                    .ttft(Duration.ofMillis(ttftMillis))
                    .tokenDelay(Duration.ofNanos(Math.round(tokenDelayMillis * 1e6)))
                    .prefillTokenDelay(Duration.ofNanos(Math.round(prefillMicrosPerToken * 1e3)))
                    .tokensPerChunk(tokensPerChunk)
                    .speculative(acceptance)
                    .acceptanceSeed(specSeed)
                    .reasoningTokens(reasoningTokens)
                    .naturalLength(naturalLength)
                    .maxRunning(maxRunning)
                    .batchSlowdown(batchSlowdown)
                    .prefixCacheBlocks(prefixCacheBlocks)
                    .prefixCacheBlockTokens(prefixCacheBlockTokens)
                    .loading(Duration.ofSeconds(loadingSeconds))
                    .fault(fault)
                    .errorRate(errorRate)
                    .apiKey(OptionValues.apiKey(spec, apiKeyEnv))
                    .speculativeAlgorithm(speculativeAlgorithm)
                    .recordGroundTruth(recordGroundTruth)
                    .start();
        } catch (UncheckedIOException e) {
            throw new ParameterException(
                    spec.commandLine(),
                    "cannot listen on " + host + ":" + port + ": "
                            + e.getCause().getMessage() + "; choose another --port or --host");
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            simulator.close();
            stopped.countDown();
        }));
        spec.commandLine().getOut().println("SGLang simulator serving " + model + " on " + simulator.baseUrl());
        spec.commandLine().getOut().flush();
        if (durationSeconds != null) {
            stopped.await(durationSeconds, TimeUnit.SECONDS);
            simulator.close();
        } else {
            stopped.await();
        }
        return 0;
    }

    private void checkOptions() {
        OptionValues.requirePort(spec, "--port", port);
        notNegative("--ttft-ms", ttftMillis);
        notNegative("--token-delay-ms", tokenDelayMillis);
        notNegative("--prefill-us-per-token", prefillMicrosPerToken);
        notNegative("--reasoning-tokens", reasoningTokens);
        notNegative("--natural-length", naturalLength);
        notNegative("--max-running", maxRunning);
        OptionValues.require(
                spec,
                "--batch-slowdown",
                batchSlowdown >= 0 && Double.isFinite(batchSlowdown),
                "is not a finite number of 0 or more");
        OptionValues.require(
                spec,
                "--prefix-cache-blocks",
                prefixCacheBlocks >= 0 && prefixCacheBlocks <= SglangSimulator.MAX_PREFIX_CACHE_BLOCKS,
                "is not between 0 and " + SglangSimulator.MAX_PREFIX_CACHE_BLOCKS);
        OptionValues.require(
                spec,
                "--prefix-cache-block-tokens",
                prefixCacheBlockTokens >= 1 && prefixCacheBlockTokens <= SglangSimulator.MAX_PREFIX_CACHE_BLOCK_TOKENS,
                "is not between 1 and " + SglangSimulator.MAX_PREFIX_CACHE_BLOCK_TOKENS);
        notNegative("--loading-seconds", loadingSeconds);
        OptionValues.require(spec, "--tokens-per-chunk", tokensPerChunk >= 1, "is below 1");
        OptionValues.require(
                spec, "--error-rate", errorRate >= 0 && errorRate <= 1, "is not a fraction between 0 and 1");
        OptionValues.require(
                spec,
                "--duration-seconds",
                durationSeconds == null || durationSeconds > 0,
                "is not a positive number of seconds");
    }

    private SpeculativeAcceptance acceptance() {
        if (specAccept == null) {
            return null;
        }
        OptionValues.require(
                spec, "--spec-accept", tokensPerChunk == 1, "sets the tokens per chunk: drop --tokens-per-chunk");
        try {
            return SpeculativeAcceptance.of(specAccept);
        } catch (IllegalArgumentException e) {
            throw OptionValues.invalid(spec, "--spec-accept", "is not a distribution: " + e.getMessage());
        }
    }

    /** Accepts a fault's name in lower case with hyphens (broken-draft) or as the constant (BROKEN_DRAFT). */
    public static final class FaultConverter implements ITypeConverter<Fault> {
        @Override
        public Fault convert(String value) {
            String name = value.toUpperCase(Locale.ROOT).replace('-', '_');
            return Arrays.stream(Fault.values())
                    .filter(fault -> fault.name().equals(name))
                    .findFirst()
                    .orElseThrow(() -> new TypeConversionException("expected "
                            + Arrays.stream(Fault.values())
                                    .map(fault -> fault.name()
                                            .toLowerCase(Locale.ROOT)
                                            .replace('_', '-'))
                                    .collect(Collectors.joining(", "))
                            + ", got " + value));
        }
    }

    private void notNegative(String option, double value) {
        OptionValues.require(spec, option, value >= 0, "is negative; use 0 or more");
    }
}
