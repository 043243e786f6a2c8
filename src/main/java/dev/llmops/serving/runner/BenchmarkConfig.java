package dev.llmops.serving.runner;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Everything a benchmark run needs, with the defaults of a BenchmarkRun: three prompts, warm-up of 3 requests, the
 * sweep 8/16/32/48/64 with 4 × concurrency requests per level, temperature 0.6, top_p 0.95, max_tokens 4096 and a
 * 900 s request timeout.
 *
 * @param apiKey sent as a bearer token when not null
 * @param prompts the single-request prompts, also the sweep's prompts with {@link Dataset#PROMPTS}
 * @param singleRequests run the single-request phase (each prompt alone)
 * @param inputLength words per random prompt ({@link Dataset#RANDOM} only)
 * @param outputLength max_tokens of every measured request with {@link Dataset#RANDOM}, replacing maxTokens
 * @param concurrency closed-loop levels, run in this order
 * @param requestsPerLevel requests per level; null means 4 × concurrency (closed loop) or 30 s of arrivals (rate)
 * @param durationPerLevel instead of a request count: send for this long, then await what is in flight
 * @param rates open-loop Poisson arrival rates in requests per second, run after the sweep
 * @param continuousUsage ask for usage on every chunk so chunk token counts come from the server
 * @param seed seeds random prompts and Poisson arrivals, so runs are repeatable
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
        long seed) {

    /** The BenchmarkRun's default single-request prompts: a code, a science and a long-form prompt. */
    public static final List<String> DEFAULT_PROMPTS = List.of(
            "Write a Python quicksort implementation",
            "Explain quantum entanglement",
            "Write a comprehensive guide to Redis data structures");
    public static final List<Integer> DEFAULT_CONCURRENCY = List.of(8, 16, 32, 48, 64);
    public static final int MAX_LEVELS = 64;

    public BenchmarkConfig {
        prompts = List.copyOf(prompts);
        concurrency = List.copyOf(concurrency);
        rates = List.copyOf(rates);
    }

    public static Builder builder(URI url, String model) {
        return new Builder(url, model);
    }

    /** max_tokens of each measured request. */
    public int measuredMaxTokens() {
        return dataset == Dataset.RANDOM && outputLength != null ? outputLength : maxTokens;
    }

    /** Every problem with this configuration, each a sentence naming the option; empty when it can run. */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (url == null || url.getScheme() == null || !(url.getScheme().equals("http") || url.getScheme().equals("https"))
                || url.getHost() == null) {
            problems.add(invalid("--url", url, "is not an http:// or https:// URL with a host"));
        }
        if (model == null || model.isBlank()) {
            problems.add("--model must name the model to request");
        }
        if (prompts.stream().anyMatch(String::isBlank)) {
            problems.add("--prompts and --prompts-file must not contain empty prompts");
        }
        if (singleRequests && prompts.isEmpty()) {
            problems.add("the single-request phase needs at least one prompt: give --prompts or --prompts-file, or --no-single");
        }
        boolean sweeps = !concurrency.isEmpty() || !rates.isEmpty();
        if (dataset == Dataset.PROMPTS && sweeps && prompts.isEmpty()) {
            problems.add("--dataset prompts needs at least one prompt: give --prompts or --prompts-file, or --dataset random");
        }
        if (dataset == Dataset.RANDOM && (inputLength == null || outputLength == null)) {
            problems.add("--dataset random needs --input-len and --output-len");
        }
        if (dataset == Dataset.PROMPTS && (inputLength != null || outputLength != null)) {
            problems.add("--input-len and --output-len apply only to --dataset random");
        }
        if (inputLength != null && inputLength < 1 || outputLength != null && outputLength < 1) {
            problems.add("--input-len and --output-len must be at least 1, got " + inputLength + " and " + outputLength);
        }
        if (concurrency.size() + rates.size() > MAX_LEVELS) {
            problems.add("--concurrency and --rate: at most " + MAX_LEVELS + " levels and rates together, got "
                    + (concurrency.size() + rates.size()));
        }
        if (concurrency.stream().anyMatch(c -> c < 1 || c > 4096)) {
            problems.add(invalid("--concurrency", joined(concurrency), "has a level outside 1 to 4096"));
        } else if (new HashSet<>(concurrency).size() != concurrency.size()) {
            problems.add(invalid("--concurrency", joined(concurrency), "repeats a level"));
        }
        if (rates.stream().anyMatch(r -> !(r > 0) || r > 100000)) {
            problems.add(invalid("--rate", joined(rates), "has a rate outside (0, 100000] requests per second"));
        } else if (new HashSet<>(rates).size() != rates.size()) {
            problems.add(invalid("--rate", joined(rates), "repeats a rate"));
        }
        if (requestsPerLevel != null && durationPerLevel != null) {
            problems.add("set --requests-per-level or --duration-per-level, not both");
        }
        if (requestsPerLevel != null && requestsPerLevel < 1) {
            problems.add(invalid("--requests-per-level", requestsPerLevel, "is below 1"));
        }
        if (durationPerLevel != null && (durationPerLevel.isNegative() || durationPerLevel.isZero())) {
            problems.add(invalid("--duration-per-level", durationPerLevel.toSeconds(), "is not a positive number of seconds"));
        }
        if (!singleRequests && !sweeps) {
            problems.add("nothing to measure: --no-single and --no-sweep leave no stage; drop one or give --rate");
        }
        if (warmupRequests < 0) {
            problems.add(invalid("--warmup", warmupRequests, "is negative; use 0 for no warm-up"));
        }
        if (warmupMaxTokens < 1) {
            problems.add(invalid("--warmup-max-tokens", warmupMaxTokens, "is below 1"));
        }
        if (maxTokens < 1) {
            problems.add(invalid("--max-tokens", maxTokens, "is below 1"));
        }
        if (!(temperature >= 0 && temperature <= 2)) {
            problems.add(invalid("--temperature", temperature, "is not between 0 and 2"));
        }
        if (!(topP > 0 && topP <= 1)) {
            problems.add(invalid("--top-p", topP, "is not above 0 and at most 1"));
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            problems.add(invalid("--timeout", timeout == null ? null : timeout.toSeconds(), "is not a positive number of seconds"));
        }
        return problems;
    }

    /** A problem with one option, worded as picocli words a value it cannot convert. */
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
        private List<String> prompts = DEFAULT_PROMPTS;
        private boolean singleRequests = true;
        private Dataset dataset = Dataset.PROMPTS;
        private Integer inputLength;
        private Integer outputLength;
        private boolean ignoreEos;
        private List<Integer> concurrency = DEFAULT_CONCURRENCY;
        private Integer requestsPerLevel;
        private Duration durationPerLevel;
        private List<Double> rates = List.of();
        private int warmupRequests = 3;
        private int warmupMaxTokens = 256;
        private int maxTokens = 4096;
        private double temperature = 0.6;
        private double topP = 0.95;
        private Duration timeout = Duration.ofSeconds(900);
        private boolean continuousUsage = true;
        private long seed = 1;

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

        public BenchmarkConfig build() {
            return new BenchmarkConfig(url, model, apiKey, endpoint, prompts, singleRequests, dataset, inputLength,
                    outputLength, ignoreEos, concurrency, requestsPerLevel, durationPerLevel, rates, warmupRequests,
                    warmupMaxTokens, maxTokens, temperature, topP, timeout, continuousUsage, seed);
        }
    }
}
