package dev.llmops.serving.simulator;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The counters behind the simulator's Prometheus {@code /metrics}, named and labelled as SGLang 0.5.18 exports them
 * through prometheus_client (a counter's TYPE line without {@code _total}, its sample with it). Unlike SGLang, which
 * counts a request's tokens when it finishes, tokens and verify calls count as each chunk is sent, and prompt and
 * cached tokens as each request arrives.
 */
final class SimulatorMetrics {

    private static final double[] TTFT_BUCKETS = {0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60};

    final AtomicLong requests = new AtomicLong();
    final AtomicLong promptTokens = new AtomicLong();
    /** Prompt tokens the prefix cache served. */
    final AtomicLong cachedTokens = new AtomicLong();

    final AtomicLong streamedTokens = new AtomicLong();
    final AtomicLong wholeTokens = new AtomicLong();
    final AtomicLong verifyCalls = new AtomicLong();
    private final AtomicLongArray ttftBuckets = new AtomicLongArray(TTFT_BUCKETS.length);
    private final AtomicLong ttftCount = new AtomicLong();
    private final AtomicLong ttftMicrosSum = new AtomicLong();
    private long lastTokens;
    private long lastNanos = System.nanoTime();
    private double throughput;
    private long lastVerifyCalls;
    private double acceptLength;
    private long lastPromptTokens;
    private long lastCachedTokens;
    private double cacheHitRate;

    long generationTokens() {
        return streamedTokens.get() + wholeTokens.get();
    }

    void recordTtft(long nanos) {
        double seconds = nanos / 1e9;
        for (int i = 0; i < TTFT_BUCKETS.length; i++) {
            if (seconds <= TTFT_BUCKETS[i]) {
                ttftBuckets.incrementAndGet(i);
            }
        }
        ttftCount.incrementAndGet();
        ttftMicrosSum.addAndGet(nanos / 1000);
    }

    /**
     * Called once a second: throughput, acceptance and cache hit rate over the last interval, as SGLang's gauges report
     * them (the last two keep their value through an interval without verify steps or prompts).
     */
    synchronized void sampleThroughput() {
        long now = System.nanoTime();
        long tokens = generationTokens();
        long calls = verifyCalls.get();
        long cached = cachedTokens.get();
        long prompts = promptTokens.get();
        throughput = (tokens - lastTokens) / ((now - lastNanos) / 1e9);
        if (calls > lastVerifyCalls) {
            acceptLength = (double) (tokens - lastTokens) / (calls - lastVerifyCalls);
        }
        if (prompts > lastPromptTokens) {
            cacheHitRate = (double) (cached - lastCachedTokens) / (prompts - lastPromptTokens);
        }
        lastPromptTokens = prompts;
        lastCachedTokens = cached;
        lastVerifyCalls = calls;
        lastTokens = tokens;
        lastNanos = now;
    }

    synchronized String render(String model, int running, int queued, int maxRunning, boolean speculative) {
        String labels = "{model_name=\"" + model.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
        StringBuilder out = new StringBuilder(2048);
        gauge(out, "sglang:num_running_reqs", "The number of running requests.", labels, running);
        gauge(out, "sglang:num_queue_reqs", "The number of requests in the waiting queue.", labels, queued);
        gauge(out, "sglang:gen_throughput", "The generation throughput (token/s).", labels, throughput);
        gauge(
                out,
                "sglang:token_usage",
                "The token usage.",
                labels,
                maxRunning > 0 ? (double) running / maxRunning : 0);
        gauge(out, "sglang:cache_hit_rate", "The prefix cache hit rate.", labels, cacheHitRate);
        if (speculative) {
            gauge(
                    out,
                    "sglang:spec_accept_length",
                    "Mean acceptance length of speculative decoding (accepted drafts + bonus token per forward).",
                    labels,
                    acceptLength);
        }
        String open = labels.substring(0, labels.length() - 1);
        String streaming = open + ",is_streaming=\"true\"}";
        String whole = open + ",is_streaming=\"false\"}";
        counter(out, "sglang:num_requests_total", "Number of requests processed.", labels, requests.get());
        counter(out, "sglang:prompt_tokens_total", "Number of prefill tokens processed.", labels, promptTokens.get());
        counter(
                out,
                "sglang:cached_tokens_total",
                "Number of cached prompt tokens.",
                open + ",cache_source=\"device\"}",
                cachedTokens.get());
        help(out, "sglang:generation_tokens_total", "Number of generation tokens processed.", "counter");
        sample(out, "sglang:generation_tokens_total", streaming, streamedTokens.get());
        sample(out, "sglang:generation_tokens_total", whole, wholeTokens.get());
        if (speculative) {
            counter(
                    out,
                    "sglang:spec_verify_calls_total",
                    "Number of speculative decoding verification calls.",
                    labels,
                    verifyCalls.get());
        }
        String name = "sglang:time_to_first_token_seconds";
        out.append("# HELP ").append(name).append(" Histogram of time to first token in seconds.\n");
        out.append("# TYPE ").append(name).append(" histogram\n");
        String bucketLabels = labels.substring(0, labels.length() - 1);
        for (int i = 0; i < TTFT_BUCKETS.length; i++) {
            out.append(name)
                    .append("_bucket")
                    .append(bucketLabels)
                    .append(",le=\"")
                    .append(TTFT_BUCKETS[i])
                    .append("\"} ")
                    .append(ttftBuckets.get(i))
                    .append('\n');
        }
        out.append(name)
                .append("_bucket")
                .append(bucketLabels)
                .append(",le=\"+Inf\"} ")
                .append(ttftCount.get())
                .append('\n');
        out.append(name)
                .append("_sum")
                .append(labels)
                .append(' ')
                .append(ttftMicrosSum.get() / 1e6)
                .append('\n');
        out.append(name)
                .append("_count")
                .append(labels)
                .append(' ')
                .append(ttftCount.get())
                .append('\n');
        return out.toString();
    }

    private static void gauge(StringBuilder out, String name, String help, String labels, double value) {
        help(out, name, help, "gauge");
        out.append(name).append(labels).append(' ').append(value).append('\n');
    }

    private static void counter(StringBuilder out, String name, String help, String labels, long value) {
        help(out, name, help, "counter");
        sample(out, name, labels, value);
    }

    /** HELP and TYPE lines; a counter's family name drops {@code _total}, as prometheus_client writes it. */
    private static void help(StringBuilder out, String name, String help, String type) {
        String family = type.equals("counter") && name.endsWith("_total")
                ? name.substring(0, name.length() - "_total".length())
                : name;
        out.append("# HELP ").append(family).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(family).append(' ').append(type).append('\n');
    }

    private static void sample(StringBuilder out, String name, String labels, double value) {
        out.append(name).append(labels).append(' ').append(value).append('\n');
    }
}
