package dev.llmops.serving.runner.plan;

import static dev.llmops.serving.api.contract.RunnerFlags.ARRIVAL;
import static dev.llmops.serving.api.contract.RunnerFlags.CONCURRENCY;
import static dev.llmops.serving.api.contract.RunnerFlags.DATASET;
import static dev.llmops.serving.api.contract.RunnerFlags.DURATION_PER_LEVEL;
import static dev.llmops.serving.api.contract.RunnerFlags.FIND_CAPACITY;
import static dev.llmops.serving.api.contract.RunnerFlags.INPUT_LENGTH;
import static dev.llmops.serving.api.contract.RunnerFlags.MAX_CONCURRENCY;
import static dev.llmops.serving.api.contract.RunnerFlags.MAX_CONCURRENCY_LEVEL;
import static dev.llmops.serving.api.contract.RunnerFlags.MAX_LEVELS;
import static dev.llmops.serving.api.contract.RunnerFlags.MAX_MAX_PROBES;
import static dev.llmops.serving.api.contract.RunnerFlags.MAX_MAX_SEARCH_SECONDS;
import static dev.llmops.serving.api.contract.RunnerFlags.MAX_METRICS_URLS;
import static dev.llmops.serving.api.contract.RunnerFlags.MAX_PROBES;
import static dev.llmops.serving.api.contract.RunnerFlags.MAX_QUALITY_MAX_TOKENS;
import static dev.llmops.serving.api.contract.RunnerFlags.MAX_RATE;
import static dev.llmops.serving.api.contract.RunnerFlags.MAX_SEARCH_SECONDS;
import static dev.llmops.serving.api.contract.RunnerFlags.MAX_TOKENS;
import static dev.llmops.serving.api.contract.RunnerFlags.METRICS_URL;
import static dev.llmops.serving.api.contract.RunnerFlags.MODEL;
import static dev.llmops.serving.api.contract.RunnerFlags.NO_SINGLE;
import static dev.llmops.serving.api.contract.RunnerFlags.NO_SWEEP;
import static dev.llmops.serving.api.contract.RunnerFlags.OUTPUT_LENGTH;
import static dev.llmops.serving.api.contract.RunnerFlags.PROMPTS;
import static dev.llmops.serving.api.contract.RunnerFlags.PROMPTS_FILE;
import static dev.llmops.serving.api.contract.RunnerFlags.QUALITY;
import static dev.llmops.serving.api.contract.RunnerFlags.QUALITY_MAX_TOKENS;
import static dev.llmops.serving.api.contract.RunnerFlags.RATE;
import static dev.llmops.serving.api.contract.RunnerFlags.REQUESTS_PER_LEVEL;
import static dev.llmops.serving.api.contract.RunnerFlags.SLO_ATTAINMENT;
import static dev.llmops.serving.api.contract.RunnerFlags.SLO_E2E;
import static dev.llmops.serving.api.contract.RunnerFlags.SLO_ITL;
import static dev.llmops.serving.api.contract.RunnerFlags.SLO_TPOT;
import static dev.llmops.serving.api.contract.RunnerFlags.SLO_TTFT;
import static dev.llmops.serving.api.contract.RunnerFlags.TEMPERATURE;
import static dev.llmops.serving.api.contract.RunnerFlags.TIMEOUT;
import static dev.llmops.serving.api.contract.RunnerFlags.TOP_P;
import static dev.llmops.serving.api.contract.RunnerFlags.TRACE_SPEED;
import static dev.llmops.serving.api.contract.RunnerFlags.TRACE_WINDOW;
import static dev.llmops.serving.api.contract.RunnerFlags.URL;
import static dev.llmops.serving.api.contract.RunnerFlags.WARMUP;
import static dev.llmops.serving.api.contract.RunnerFlags.WARMUP_MAX_TOKENS;

import dev.llmops.serving.api.contract.BenchmarkDefaults;
import dev.llmops.serving.api.contract.CapacityMode;
import dev.llmops.serving.api.contract.RunPlan;
import dev.llmops.serving.runner.transport.Endpoint;
import dev.llmops.serving.runner.workload.Arrival;
import dev.llmops.serving.runner.workload.Dataset;
import dev.llmops.serving.runner.workload.SessionShape;
import dev.llmops.serving.runner.workload.ShareGptDataset;
import dev.llmops.serving.runner.workload.SharedPrefixShape;
import dev.llmops.serving.runner.workload.TraceReplay;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Everything a benchmark run needs; the builder starts from {@link BenchmarkDefaults}, the defaults of a BenchmarkRun,
 * with the contract's {@link RunPlan} for the requests of each stage.
 *
 * @param apiKey sent as a bearer token when not null
 * @param prompts the single-request prompts, also the sweep's prompts with {@link Dataset#PROMPTS}
 * @param singleRequests run the single-request phase (each prompt alone)
 * @param inputLength words per random prompt ({@link Dataset#RANDOM} only); null draws each prompt's length
 * @param outputLength max_tokens of every measured request, replacing maxTokens (and, with {@link Dataset#SHAREGPT},
 *     the reply's length); not with {@link Dataset#PROMPTS}
 * @param shareGpt the conversations of {@link Dataset#SHAREGPT}, else null
 * @param sharedPrefix the shape of {@link Dataset#SHARED_PREFIX}, else null
 * @param trace the trace, window and speeds of {@link Dataset#TRACE}, else null
 * @param sessions the conversations of {@link Dataset#SESSIONS}, else null
 * @param concurrency closed-loop levels, run in this order
 * @param requestsPerLevel requests per level; null means {@link RunPlan}'s default per stage
 * @param durationPerLevel instead of a request count: send for this long, then await what is in flight
 * @param rates open-loop arrival rates in requests per second, run after the sweep
 * @param continuousUsage ask for usage on every chunk so chunk token counts come from the server
 * @param seed seeds each stage's requests (with the stage's name) and Poisson arrivals, so runs are repeatable
 * @param arrival how the requests of a rate stage are spaced
 * @param maxConcurrency at most this many requests in flight in a rate stage, or null for no cap
 * @param slo the latency objective for attainment and goodput; {@link Slo#NONE} for none
 * @param findCapacity what a capacity search after the other stages varies, or null for no search
 * @param maxProbes at most this many probes in the capacity search
 * @param maxSearch no probe of the capacity search starts after this much time
 * @param metricsUrls the server's Prometheus endpoints, one per replica, read and summed per stage; empty means the
 *     target's own {@code /metrics}
 * @param quality run the quality stage: each single-request prompt once, greedy, its output's tokens kept
 * @param qualityMaxTokens max_tokens of each quality request
 */
public record BenchmarkConfig(
        URI url,
        String model,
        String apiKey,
        Endpoint endpoint,
        List<String> prompts,
        boolean singleRequests,
        Dataset dataset,
        Integer inputLength,
        Integer outputLength,
        ShareGptDataset shareGpt,
        SharedPrefixShape sharedPrefix,
        TraceReplay trace,
        SessionShape sessions,
        boolean ignoreEos,
        List<Integer> concurrency,
        Integer requestsPerLevel,
        Duration durationPerLevel,
        List<Double> rates,
        int warmupRequests,
        int warmupMaxTokens,
        int maxTokens,
        double temperature,
        double topP,
        Duration timeout,
        boolean continuousUsage,
        long seed,
        Arrival arrival,
        Integer maxConcurrency,
        Slo slo,
        CapacityMode findCapacity,
        int maxProbes,
        Duration maxSearch,
        List<URI> metricsUrls,
        boolean quality,
        int qualityMaxTokens) {

    public BenchmarkConfig {
        prompts = List.copyOf(prompts);
        concurrency = List.copyOf(concurrency);
        rates = List.copyOf(rates);
        metricsUrls = List.copyOf(metricsUrls);
    }

    public static Builder builder(URI url, String model) {
        return new Builder(url, model);
    }

    /** The stages this configuration measures before any capacity search, as the contract plans them. */
    public RunPlan plan() {
        return new RunPlan(
                singleRequests ? prompts.size() : 0,
                concurrency,
                rates,
                requestsPerLevel,
                durationPerLevel,
                trace == null ? List.of() : trace.speeds(),
                trace == null ? null : Duration.ofNanos(Math.round(trace.spanSeconds() * 1e9)));
    }

    /** max_tokens of each measured request; with {@link #variableOutputLength()}, the cap of each one's. */
    public int measuredMaxTokens() {
        return dataset != Dataset.PROMPTS && outputLength != null ? outputLength : maxTokens;
    }

    /**
     * Whether each measured request has its own max_tokens: the reply's length of a ShareGPT conversation or a trace's
     * request, or one drawn by the random dataset.
     */
    public boolean variableOutputLength() {
        return (dataset == Dataset.SHAREGPT || dataset == Dataset.RANDOM || dataset == Dataset.TRACE)
                && outputLength == null;
    }

    /** Every problem with this configuration, each a sentence naming the option; empty when it can run. */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (!isHttpUrl(url)) {
            problems.add(invalid(URL, url, "is not an http:// or https:// URL with a host"));
        }
        if (metricsUrls.size() > MAX_METRICS_URLS) {
            problems.add(METRICS_URL + " is given " + metricsUrls.size() + " times; at most " + MAX_METRICS_URLS);
        }
        metricsUrls.stream()
                .filter(metricsUrl -> !isHttpUrl(metricsUrl))
                .findFirst()
                .ifPresent(bad ->
                        problems.add(invalid(METRICS_URL, bad, "is not an http:// or https:// URL with a host")));
        if (model == null || model.isBlank()) {
            problems.add(MODEL + " must name the model to request");
        }
        if (prompts.stream().anyMatch(String::isBlank)) {
            problems.add(PROMPTS + " and " + PROMPTS_FILE + " must not contain empty prompts");
        }
        if (singleRequests && prompts.isEmpty()) {
            problems.add("the single-request phase needs at least one prompt: give " + PROMPTS + " or " + PROMPTS_FILE
                    + ", or " + NO_SINGLE);
        }
        boolean sweeps = !concurrency.isEmpty() || !rates.isEmpty() || findCapacity != null || trace != null;
        if (dataset == Dataset.PROMPTS && sweeps && prompts.isEmpty()) {
            problems.add(DATASET + " prompts needs at least one prompt: give " + PROMPTS + " or " + PROMPTS_FILE
                    + ", or " + DATASET + " random");
        }
        if (dataset != Dataset.RANDOM && inputLength != null) {
            problems.add(INPUT_LENGTH + " applies only to " + DATASET + " random");
        }
        if (dataset == Dataset.PROMPTS && outputLength != null) {
            problems.add(OUTPUT_LENGTH + " does not apply to " + DATASET + " prompts");
        }
        if (dataset == Dataset.SHAREGPT && shareGpt == null) {
            problems.add(DATASET + " sharegpt needs the conversations of a file: " + DATASET + " sharegpt:FILE");
        }
        if (dataset == Dataset.SHARED_PREFIX && sharedPrefix == null) {
            problems.add(DATASET + " shared-prefix needs its shape: " + DATASET
                    + " shared-prefix:GROUPS,PREFIX_TOKENS,QUESTION_TOKENS");
        } else if (dataset == Dataset.SHARED_PREFIX && sharedPrefix.problem() != null) {
            problems.add(invalid(DATASET, sharedPrefix, sharedPrefix.problem()));
        }
        traceProblems(problems);
        sessionProblems(problems);
        if (inputLength != null && inputLength < 1 || outputLength != null && outputLength < 1) {
            problems.add(INPUT_LENGTH + " and " + OUTPUT_LENGTH + " must be at least 1, got " + inputLength + " and "
                    + outputLength);
        }
        if (concurrency.size() + rates.size() > MAX_LEVELS) {
            problems.add(CONCURRENCY + " and " + RATE + ": at most " + MAX_LEVELS + " levels and rates together, got "
                    + (concurrency.size() + rates.size()));
        }
        if (concurrency.stream().anyMatch(c -> c < 1 || c > MAX_CONCURRENCY_LEVEL)) {
            problems.add(
                    invalid(CONCURRENCY, joined(concurrency), "has a level outside 1 to " + MAX_CONCURRENCY_LEVEL));
        } else if (new HashSet<>(concurrency).size() != concurrency.size()) {
            problems.add(invalid(CONCURRENCY, joined(concurrency), "repeats a level"));
        }
        if (rates.stream().anyMatch(r -> !(r > 0) || r > MAX_RATE)) {
            problems.add(invalid(RATE, joined(rates), "has a rate outside (0, " + MAX_RATE + "] requests per second"));
        } else if (new HashSet<>(rates).size() != rates.size()) {
            problems.add(invalid(RATE, joined(rates), "repeats a rate"));
        }
        if (requestsPerLevel != null && durationPerLevel != null) {
            problems.add("set " + REQUESTS_PER_LEVEL + " or " + DURATION_PER_LEVEL + ", not both");
        }
        if (requestsPerLevel != null && requestsPerLevel < 1) {
            problems.add(invalid(REQUESTS_PER_LEVEL, requestsPerLevel, "is below 1"));
        }
        if (durationPerLevel != null && (durationPerLevel.isNegative() || durationPerLevel.isZero())) {
            problems.add(
                    invalid(DURATION_PER_LEVEL, durationPerLevel.toSeconds(), "is not a positive number of seconds"));
        }
        if (!singleRequests && !sweeps) {
            problems.add("nothing to measure: " + NO_SINGLE + " and " + NO_SWEEP + " leave no stage; drop one or give "
                    + RATE);
        }
        openLoopProblems(problems);
        sloProblems(problems);
        if (warmupRequests < 0) {
            problems.add(invalid(WARMUP, warmupRequests, "is negative; use 0 for no warm-up"));
        }
        if (warmupMaxTokens < 1) {
            problems.add(invalid(WARMUP_MAX_TOKENS, warmupMaxTokens, "is below 1"));
        }
        if (maxTokens < 1) {
            problems.add(invalid(MAX_TOKENS, maxTokens, "is below 1"));
        }
        if (qualityMaxTokens < 1 || qualityMaxTokens > MAX_QUALITY_MAX_TOKENS) {
            problems.add(invalid(QUALITY_MAX_TOKENS, qualityMaxTokens, "is outside 1 to " + MAX_QUALITY_MAX_TOKENS));
        }
        if (quality && prompts.isEmpty()) {
            problems.add(QUALITY + " sends the single-request prompts: give " + PROMPTS + " or " + PROMPTS_FILE);
        }
        if (!(temperature >= 0 && temperature <= 2)) {
            problems.add(invalid(TEMPERATURE, temperature, "is not between 0 and 2"));
        }
        if (!(topP > 0 && topP <= 1)) {
            problems.add(invalid(TOP_P, topP, "is not above 0 and at most 1"));
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            problems.add(invalid(
                    TIMEOUT, timeout == null ? null : timeout.toSeconds(), "is not a positive number of seconds"));
        }
        return problems;
    }

    private void traceProblems(List<String> problems) {
        if (dataset == Dataset.TRACE && trace == null) {
            problems.add(DATASET + " trace needs the requests of a file: " + DATASET + " trace:FILE");
        }
        if (dataset != Dataset.TRACE && trace != null) {
            problems.add("a trace is replayed only with " + DATASET + " trace:FILE");
        }
        if (trace == null) {
            return;
        }
        if (trace.problem() != null) {
            problems.add("the trace replay (" + TRACE_SPEED + ", " + TRACE_WINDOW + ") " + trace.problem());
        }
        if (!concurrency.isEmpty() || !rates.isEmpty() || findCapacity != null) {
            problems.add(DATASET + " trace replays the trace at its own timestamps, one stage per " + TRACE_SPEED + "; "
                    + CONCURRENCY + ", " + RATE + " and " + FIND_CAPACITY + " do not apply");
        }
    }

    private void sessionProblems(List<String> problems) {
        if (dataset == Dataset.SESSIONS && sessions == null) {
            problems.add(
                    DATASET + " sessions needs its shape: " + DATASET + " sessions:TURNS,FIRST_TOKENS,TURN_TOKENS");
        }
        if (dataset != Dataset.SESSIONS && sessions != null) {
            problems.add("sessions are sent only with " + DATASET + " sessions:TURNS,FIRST_TOKENS,TURN_TOKENS");
        }
        if (sessions == null) {
            return;
        }
        String problem = sessions.problem(
                measuredMaxTokens(),
                concurrency.stream().mapToInt(Integer::intValue).max().orElse(1));
        if (problem != null) {
            problems.add(invalid(DATASET, sessions, problem));
        }
        if (!rates.isEmpty() || findCapacity != null) {
            problems.add(DATASET + " sessions runs one user per " + CONCURRENCY
                    + " stream, each holding a conversation;" + " " + RATE + " and " + FIND_CAPACITY + " do not apply");
        }
    }

    private void openLoopProblems(List<String> problems) {
        if (arrival == null || arrival == Arrival.TRACE) {
            problems.add(ARRIVAL + " must be poisson or constant");
        }
        if (maxConcurrency != null && (maxConcurrency < 1 || maxConcurrency > MAX_CONCURRENCY_LEVEL)) {
            problems.add(invalid(MAX_CONCURRENCY, maxConcurrency, "is outside 1 to " + MAX_CONCURRENCY_LEVEL));
        }
        if (maxConcurrency != null && rates.isEmpty() && findCapacity != CapacityMode.Rate && trace == null) {
            problems.add(MAX_CONCURRENCY + " caps the requests in flight of rate stages: give " + RATE + ", "
                    + FIND_CAPACITY + " rate or " + DATASET + " trace:FILE");
        }
    }

    private void sloProblems(List<String> problems) {
        if (slo == null) {
            problems.add("the SLO must not be null; use Slo.NONE for none");
            return;
        }
        checkLimit(problems, SLO_TTFT, slo.ttftMillis());
        checkLimit(problems, SLO_TPOT, slo.tpotMillis());
        checkLimit(problems, SLO_ITL, slo.itlMillis());
        checkLimit(problems, SLO_E2E, slo.e2eMillis());
        if (!(slo.attainment() > 0 && slo.attainment() <= 1)) {
            problems.add(invalid(SLO_ATTAINMENT, slo.attainment(), "is not above 0 and at most 1"));
        }
        if (findCapacity != null && !slo.hasLimits()) {
            problems.add(FIND_CAPACITY + " needs an SLO to search against: give at least one of " + SLO_TTFT + ", "
                    + SLO_TPOT + ", " + SLO_ITL + ", " + SLO_E2E);
        }
        if (maxProbes < 1 || maxProbes > MAX_MAX_PROBES) {
            problems.add(invalid(MAX_PROBES, maxProbes, "is outside 1 to " + MAX_MAX_PROBES));
        }
        if (maxSearch == null || maxSearch.toSeconds() < 1 || maxSearch.toSeconds() > MAX_MAX_SEARCH_SECONDS) {
            problems.add(invalid(
                    MAX_SEARCH_SECONDS,
                    maxSearch == null ? null : maxSearch.toSeconds(),
                    "is outside 1 to " + MAX_MAX_SEARCH_SECONDS + " seconds"));
        }
    }

    private static void checkLimit(List<String> problems, String option, Double limit) {
        if (limit != null && !(limit > 0 && limit < 1e9)) {
            problems.add(invalid(option, limit, "is not a positive number of milliseconds"));
        }
    }

    /** A problem with one option, worded as picocli words a value it cannot convert. */
    private static boolean isHttpUrl(URI value) {
        return value != null
                && value.getScheme() != null
                && (value.getScheme().equals("http") || value.getScheme().equals("https"))
                && value.getHost() != null;
    }

    private static String invalid(String option, Object value, String cause) {
        return "Invalid value for option '" + option + "': " + value + " " + cause;
    }

    private static String joined(List<? extends Number> values) {
        return values.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    /** Builds a {@link BenchmarkConfig} starting from the defaults. */
    public static final class Builder {
        private final URI url;
        private final String model;
        private String apiKey;
        private Endpoint endpoint = Endpoint.CHAT;
        private List<String> prompts = BenchmarkDefaults.PROMPTS;
        private boolean singleRequests = true;
        private Dataset dataset = Dataset.RANDOM;
        private Integer inputLength;
        private Integer outputLength;
        private ShareGptDataset shareGpt;
        private SharedPrefixShape sharedPrefix;
        private TraceReplay trace;
        private SessionShape sessions;
        private boolean ignoreEos;
        private List<Integer> concurrency = BenchmarkDefaults.CONCURRENCY;
        private Integer requestsPerLevel;
        private Duration durationPerLevel;
        private List<Double> rates = List.of();
        private int warmupRequests = BenchmarkDefaults.WARMUP_REQUESTS;
        private int warmupMaxTokens = BenchmarkDefaults.WARMUP_MAX_TOKENS;
        private int maxTokens = BenchmarkDefaults.MAX_TOKENS;
        private double temperature = BenchmarkDefaults.TEMPERATURE;
        private double topP = BenchmarkDefaults.TOP_P;
        private Duration timeout = Duration.ofSeconds(BenchmarkDefaults.REQUEST_TIMEOUT_SECONDS);
        private boolean continuousUsage = true;
        private long seed = BenchmarkDefaults.SEED;
        private Arrival arrival = Arrival.POISSON;
        private Integer maxConcurrency;
        private Slo slo = Slo.NONE;
        private CapacityMode findCapacity;
        private int maxProbes = BenchmarkDefaults.MAX_PROBES;
        private Duration maxSearch = Duration.ofSeconds(BenchmarkDefaults.MAX_SEARCH_SECONDS);
        private List<URI> metricsUrls = List.of();
        private boolean quality;
        private int qualityMaxTokens = BenchmarkDefaults.QUALITY_MAX_TOKENS;

        private Builder(URI url, String model) {
            this.url = url;
            this.model = model;
        }

        public Builder apiKey(String value) {
            apiKey = value;
            return this;
        }

        public Builder endpoint(Endpoint value) {
            endpoint = Objects.requireNonNull(value);
            return this;
        }

        public Builder prompts(List<String> value) {
            prompts = value;
            return this;
        }

        public Builder singleRequests(boolean value) {
            singleRequests = value;
            return this;
        }

        public Builder dataset(Dataset value) {
            dataset = Objects.requireNonNull(value);
            return this;
        }

        public Builder inputLength(Integer value) {
            inputLength = value;
            return this;
        }

        public Builder outputLength(Integer value) {
            outputLength = value;
            return this;
        }

        public Builder shareGpt(ShareGptDataset value) {
            shareGpt = value;
            return this;
        }

        public Builder sharedPrefix(SharedPrefixShape value) {
            sharedPrefix = value;
            return this;
        }

        public Builder trace(TraceReplay value) {
            trace = value;
            return this;
        }

        public Builder sessions(SessionShape value) {
            sessions = value;
            return this;
        }

        public Builder ignoreEos(boolean value) {
            ignoreEos = value;
            return this;
        }

        public Builder concurrency(List<Integer> value) {
            concurrency = value;
            return this;
        }

        public Builder requestsPerLevel(Integer value) {
            requestsPerLevel = value;
            return this;
        }

        public Builder durationPerLevel(Duration value) {
            durationPerLevel = value;
            return this;
        }

        public Builder rates(List<Double> value) {
            rates = value;
            return this;
        }

        public Builder warmupRequests(int value) {
            warmupRequests = value;
            return this;
        }

        public Builder warmupMaxTokens(int value) {
            warmupMaxTokens = value;
            return this;
        }

        public Builder maxTokens(int value) {
            maxTokens = value;
            return this;
        }

        public Builder temperature(double value) {
            temperature = value;
            return this;
        }

        public Builder topP(double value) {
            topP = value;
            return this;
        }

        public Builder timeout(Duration value) {
            timeout = value;
            return this;
        }

        public Builder continuousUsage(boolean value) {
            continuousUsage = value;
            return this;
        }

        public Builder seed(long value) {
            seed = value;
            return this;
        }

        public Builder arrival(Arrival value) {
            arrival = value;
            return this;
        }

        public Builder maxConcurrency(Integer value) {
            maxConcurrency = value;
            return this;
        }

        public Builder slo(Slo value) {
            slo = value;
            return this;
        }

        public Builder findCapacity(CapacityMode value) {
            findCapacity = value;
            return this;
        }

        public Builder maxProbes(int value) {
            maxProbes = value;
            return this;
        }

        public Builder maxSearch(Duration value) {
            maxSearch = value;
            return this;
        }

        public Builder metricsUrls(List<URI> value) {
            metricsUrls = value;
            return this;
        }

        public Builder quality(boolean value) {
            quality = value;
            return this;
        }

        public Builder qualityMaxTokens(int value) {
            qualityMaxTokens = value;
            return this;
        }

        public BenchmarkConfig build() {
            return new BenchmarkConfig(
                    url,
                    model,
                    apiKey,
                    endpoint,
                    prompts,
                    singleRequests,
                    dataset,
                    inputLength,
                    outputLength,
                    shareGpt,
                    sharedPrefix,
                    trace,
                    sessions,
                    ignoreEos,
                    concurrency,
                    requestsPerLevel,
                    durationPerLevel,
                    rates,
                    warmupRequests,
                    warmupMaxTokens,
                    maxTokens,
                    temperature,
                    topP,
                    timeout,
                    continuousUsage,
                    seed,
                    arrival,
                    maxConcurrency,
                    slo,
                    findCapacity,
                    maxProbes,
                    maxSearch,
                    metricsUrls,
                    quality,
                    qualityMaxTokens);
        }
    }
}
