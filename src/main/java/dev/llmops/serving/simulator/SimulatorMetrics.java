package dev.llmops.serving.simulator;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/** The counters behind the simulator's Prometheus {@code /metrics}, named as SGLang names them. */
final class SimulatorMetrics {

    private static final double[] TTFT_BUCKETS = {0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60};

    final AtomicLong requests = new AtomicLong();
    final AtomicLong promptTokens = new AtomicLong();
    final AtomicLong generationTokens = new AtomicLong();
    private final AtomicLongArray ttftBuckets = new AtomicLongArray(TTFT_BUCKETS.length);
    private final AtomicLong ttftCount = new AtomicLong();
    private final AtomicLong ttftMicrosSum = new AtomicLong();
    private long lastTokens;
    private long lastNanos = System.nanoTime();
    private double throughput;

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

    /** Called once a second: generation throughput over the last interval, as SGLang's gauge reports it. */
    synchronized void sampleThroughput() {
        long now = System.nanoTime();
        long tokens = generationTokens.get();
        throughput = (tokens - lastTokens) / ((now - lastNanos) / 1e9);
        lastTokens = tokens;
        lastNanos = now;
    }

    synchronized String render(String model, int running, int queued, int maxRunning) {
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
        gauge(out, "sglang:cache_hit_rate", "The prefix cache hit rate.", labels, 0);
        counter(out, "sglang:num_requests_total", "Number of requests processed.", labels, requests.get());
        counter(out, "sglang:prompt_tokens_total", "Number of prefill tokens processed.", labels, promptTokens.get());
        counter(
                out,
                "sglang:generation_tokens_total",
                "Number of generation tokens processed.",
                labels,
                generationTokens.get());
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
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(" gauge\n");
        out.append(name).append(labels).append(' ').append(value).append('\n');
    }

    private static void counter(StringBuilder out, String name, String help, String labels, long value) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(" counter\n");
        out.append(name).append(labels).append(' ').append(value).append('\n');
    }
}
