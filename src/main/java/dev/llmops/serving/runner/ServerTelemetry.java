package dev.llmops.serving.runner;

import dev.llmops.serving.runner.output.ServerStageReport;
import dev.llmops.serving.runner.transport.OpenAiClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Reads the target's SGLang metrics at each stage's start and end and samples its gauges during the stage, on a daemon
 * thread of its own with an HTTP client of its own, so the requests being measured never wait for it. Every read is
 * bounded (a deadline, a body-size cap, a parser that skips what it cannot read). A target without usable metrics costs
 * one warning per run and the stages go without a {@code server} object; when the very first read fails, the run
 * stops asking.
 */
final class ServerTelemetry implements AutoCloseable {

    static final Duration READ_TIMEOUT = Duration.ofSeconds(3);
    static final int MAX_BODY_BYTES = 8 * 1024 * 1024;
    static final Duration SAMPLE_INTERVAL = Duration.ofSeconds(1);
    private static final Set<String> WANTED = Set.copyOf(SglangMetricNames.ALL);

    private final List<URI> urls;
    private final Consumer<String> warnings;
    private final HttpClient http;
    private final ScheduledExecutorService sampler;
    private boolean warned;
    private boolean disabled;
    private boolean readBefore;
    private Window window;

    ServerTelemetry(List<URI> urls, Consumer<String> warnings) {
        this.urls = List.copyOf(urls);
        this.warnings = warnings;
        this.http = HttpClient.newBuilder()
                .connectTimeout(READ_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        this.sampler = new ScheduledThreadPoolExecutor(1, OpenAiClient.daemonThreads("bench-server-metrics"));
    }

    /** The target's own {@code /metrics}. */
    static URI defaultMetricsUrl(URI target) {
        String base = target.toString();
        return URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + "/metrics");
    }

    /** Takes the start reading of a stage and starts sampling its gauges. */
    void stageStarted(String stage) throws InterruptedException {
        window = null;
        if (disabled) {
            return;
        }
        Map<String, PrometheusText.Aggregate> start = readAll(stage);
        if (start == null) {
            disabled = !readBefore;
            return;
        }
        readBefore = true;
        Window started = new Window(start, System.nanoTime());
        started.sampling = sampler.scheduleAtFixedRate(
                () -> started.add(readQuietly()),
                SAMPLE_INTERVAL.toMillis() / 2,
                SAMPLE_INTERVAL.toMillis(),
                TimeUnit.MILLISECONDS);
        window = started;
    }

    /** Stops sampling and takes the end reading; the stage's server figures, or null when they could not be read. */
    ServerStageReport stageFinished(String stage) throws InterruptedException {
        Window finished = window;
        window = null;
        if (finished == null) {
            return null;
        }
        finished.sampling.cancel(false);
        long endNanos = System.nanoTime();
        Map<String, PrometheusText.Aggregate> end = readAll(stage);
        return end == null ? null : finished.report(end, endNanos, urls.size());
    }

    @Override
    public void close() {
        sampler.shutdownNow();
    }

    /** Every endpoint's reading merged, or null (after one warning per run) when any endpoint failed. */
    private Map<String, PrometheusText.Aggregate> readAll(String stage) throws InterruptedException {
        try {
            return read();
        } catch (MetricsUnavailable e) {
            if (!warned) {
                warned = true;
                warnings.accept("server metrics unavailable at " + e.url + " (" + e.getMessage() + ") from stage "
                        + stage + " on: stages without them have no server figures");
            }
            return null;
        }
    }

    private Map<String, PrometheusText.Aggregate> readQuietly() {
        try {
            return read();
        } catch (MetricsUnavailable e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private Map<String, PrometheusText.Aggregate> read() throws MetricsUnavailable, InterruptedException {
        long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
        List<CompletableFuture<HttpResponse<byte[]>>> responses = new ArrayList<>();
        for (URI url : urls) {
            HttpRequest request = HttpRequest.newBuilder(url)
                    .timeout(READ_TIMEOUT)
                    .header("Accept", "text/plain")
                    .GET()
                    .build();
            responses.add(http.sendAsync(request, info -> new CappedBody(info.statusCode(), deadline)));
        }
        Map<String, PrometheusText.Aggregate> merged = new HashMap<>();
        for (int i = 0; i < urls.size(); i++) {
            PrometheusText.Scrape scrape = scrape(urls.get(i), responses.get(i), deadline);
            scrape.samples().forEach((name, value) -> merged.merge(name, value, ServerTelemetry::merge));
        }
        return merged;
    }

    private static PrometheusText.Scrape scrape(URI url, CompletableFuture<HttpResponse<byte[]>> pending, long deadline)
            throws MetricsUnavailable, InterruptedException {
        HttpResponse<byte[]> response;
        try {
            response = pending.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            pending.cancel(true);
            throw new MetricsUnavailable(url, "no complete answer within " + READ_TIMEOUT.toSeconds() + " s");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            String message = cause instanceof TooLarge
                    ? cause.getMessage()
                    : cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
            throw new MetricsUnavailable(url, message);
        }
        if (response.statusCode() != 200) {
            throw new MetricsUnavailable(url, "HTTP " + response.statusCode());
        }
        PrometheusText.Scrape scrape =
                PrometheusText.parse(new String(response.body(), StandardCharsets.UTF_8), WANTED);
        if (scrape.validLines() == 0) {
            throw new MetricsUnavailable(url, "not Prometheus text: no sample line");
        }
        return scrape;
    }

    private static PrometheusText.Aggregate merge(PrometheusText.Aggregate a, PrometheusText.Aggregate b) {
        return new PrometheusText.Aggregate(a.sum() + b.sum(), Math.max(a.max(), b.max()), a.series() + b.series());
    }

    private static Double sum(Map<String, PrometheusText.Aggregate> reading, String name) {
        PrometheusText.Aggregate aggregate = reading.get(name);
        return aggregate == null ? null : aggregate.sum();
    }

    private static Double delta(
            Map<String, PrometheusText.Aggregate> start, Map<String, PrometheusText.Aggregate> end, String name) {
        Double before = sum(start, name);
        Double after = sum(end, name);
        if (after == null) {
            return null;
        }
        double moved = after - (before == null ? 0 : before);
        return moved >= 0 ? moved : null;
    }

    /** One stage's readings: the start reading and the gauge samples, until the end reading closes it. */
    private static final class Window {
        private final Map<String, PrometheusText.Aggregate> start;
        private final long startNanos;
        private final List<Map<String, PrometheusText.Aggregate>> samples = new ArrayList<>();
        private ScheduledFuture<?> sampling;
        private boolean closed;

        Window(Map<String, PrometheusText.Aggregate> start, long startNanos) {
            this.start = start;
            this.startNanos = startNanos;
        }

        synchronized void add(Map<String, PrometheusText.Aggregate> sample) {
            if (sample != null && !closed) {
                samples.add(sample);
            }
        }

        synchronized ServerStageReport report(Map<String, PrometheusText.Aggregate> end, long endNanos, int endpoints) {
            closed = true;
            double seconds = (endNanos - startNanos) / 1e9;
            Double generated = delta(start, end, SglangMetricNames.GENERATION_TOKENS);
            Double verified = delta(start, end, SglangMetricNames.SPEC_VERIFY_CALLS);
            Double accept = generated != null && verified != null && verified > 0 ? generated / verified : null;
            Double prompt = delta(start, end, SglangMetricNames.PROMPT_TOKENS);
            Double cached = delta(start, end, SglangMetricNames.CACHED_TOKENS);
            Double cacheHitRate = null;
            String cacheSource = null;
            if (prompt != null && cached != null && prompt > 0) {
                cacheHitRate = cached / prompt;
                cacheSource = "counters";
            } else if (end.get(SglangMetricNames.CACHE_HIT_RATE) != null) {
                PrometheusText.Aggregate gauge = end.get(SglangMetricNames.CACHE_HIT_RATE);
                cacheHitRate = gauge.sum() / gauge.series();
                cacheSource = "gauge";
            }
            return new ServerStageReport(
                    accept,
                    generated == null || seconds <= 0 ? null : generated / seconds,
                    mean(SglangMetricNames.RUNNING_REQUESTS),
                    highest(SglangMetricNames.RUNNING_REQUESTS, false),
                    highest(SglangMetricNames.QUEUED_REQUESTS, false),
                    highest(SglangMetricNames.TOKEN_USAGE, true),
                    cacheHitRate,
                    cacheSource,
                    generated,
                    verified,
                    seconds,
                    samples.size(),
                    endpoints);
        }

        private Double mean(String name) {
            double total = 0;
            int count = 0;
            for (Map<String, PrometheusText.Aggregate> sample : samples) {
                Double value = sum(sample, name);
                if (value != null) {
                    total += value;
                    count++;
                }
            }
            return count == 0 ? null : total / count;
        }

        /** The highest sample: of the sum over endpoints, or ({@code perEndpoint}) of any one series. */
        private Double highest(String name, boolean perEndpoint) {
            Double highest = null;
            for (Map<String, PrometheusText.Aggregate> sample : samples) {
                PrometheusText.Aggregate aggregate = sample.get(name);
                if (aggregate != null) {
                    double value = perEndpoint ? aggregate.max() : aggregate.sum();
                    highest = highest == null ? value : Math.max(highest, value);
                }
            }
            return highest;
        }
    }

    /** Collects a response body up to {@link #MAX_BODY_BYTES} and the read deadline, failing beyond either. */
    private static final class CappedBody implements HttpResponse.BodySubscriber<byte[]> {
        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        private final boolean discard;
        private final long deadline;
        private Flow.Subscription subscription;

        CappedBody(int status, long deadline) {
            this.discard = status != 200;
            this.deadline = deadline;
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription value) {
            subscription = value;
            if (discard) {
                subscription.cancel();
                result.complete(new byte[0]);
            } else {
                subscription.request(Long.MAX_VALUE);
            }
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            if (result.isDone()) {
                return;
            }
            for (ByteBuffer buffer : buffers) {
                if (bytes.size() + buffer.remaining() > MAX_BODY_BYTES) {
                    fail(new TooLarge());
                    return;
                }
                byte[] chunk = new byte[buffer.remaining()];
                buffer.get(chunk);
                bytes.write(chunk, 0, chunk.length);
            }
            if (System.nanoTime() - deadline > 0) {
                fail(new TimeoutException("no complete answer within " + READ_TIMEOUT.toSeconds() + " s"));
            }
        }

        @Override
        public void onError(Throwable error) {
            result.completeExceptionally(error);
        }

        @Override
        public void onComplete() {
            result.complete(bytes.toByteArray());
        }

        private void fail(Exception error) {
            subscription.cancel();
            result.completeExceptionally(error);
        }
    }

    /** A body over the cap. */
    private static final class TooLarge extends Exception {
        TooLarge() {
            super("the body is larger than " + MAX_BODY_BYTES / (1024 * 1024) + " MiB");
        }
    }

    /** Why an endpoint gave no reading. */
    private static final class MetricsUnavailable extends Exception {
        private final URI url;

        MetricsUnavailable(URI url, String message) {
            super(message);
            this.url = url;
        }
    }
}
