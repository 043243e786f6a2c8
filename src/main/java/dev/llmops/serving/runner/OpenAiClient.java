package dev.llmops.serving.runner;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A non-blocking client for OpenAI-compatible servers (SGLang, vLLM): thousands of streams in flight on a few threads,
 * each chunk timestamped on arrival.
 *
 * <p>HTTP/1.1 on {@link HttpClient}: the JDK client opens as many connections per host as there are requests in
 * flight (no pool limit) and keeps idle ones for reuse. Responses are read by a {@link ResponseReader} that never
 * blocks; deadlines run on one timer thread. One instance serves any number of servers: the target is part of each
 * request. Close it when done.
 */
public final class OpenAiClient implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The JDK client asks this logger whether to format a debug line for every chunk; a log manager that says yes (as
     * JBoss LogManager does before an application configures it) costs a fifth of the client's CPU. Held here so the
     * level is not lost when the logger is garbage collected.
     */
    private static final java.util.logging.Logger JDK_CLIENT_DEBUG_LOG = quiet("jdk.internal.httpclient.debug");

    private final ExecutorService callbacks;
    private final ScheduledThreadPoolExecutor deadlines;
    private final HttpClient http;

    private OpenAiClient(int threads, Duration connectTimeout) {
        this.callbacks = Executors.newFixedThreadPool(threads, daemonThreads("openai-client"));
        this.deadlines = new ScheduledThreadPoolExecutor(1, daemonThreads("openai-client-deadlines"));
        this.deadlines.setRemoveOnCancelPolicy(true);
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(callbacks)
                .build();
    }

    /** A client with one callback thread per processor (at least two) and a 10 s connect timeout. */
    public static OpenAiClient create() {
        return new OpenAiClient(Math.max(2, Runtime.getRuntime().availableProcessors()), Duration.ofSeconds(10));
    }

    public static OpenAiClient create(int callbackThreads, Duration connectTimeout) {
        return new OpenAiClient(callbackThreads, connectTimeout);
    }

    /**
     * Sends one completion (chat or plain, streaming or not, as the request says). The future never completes
     * exceptionally: every failure is a {@link RequestResult} with a {@link FailureClass}.
     */
    public CompletableFuture<RequestResult> complete(CompletionRequest request) {
        ResponseReader reader = new ResponseReader(request, System.nanoTime());
        HttpRequest.Builder builder = HttpRequest.newBuilder(request.uri())
                .timeout(request.timeout())
                .header("Content-Type", "application/json")
                .header("Accept", request.stream() ? "text/event-stream" : "application/json")
                .POST(new TimedBodyPublisher(requestBody(request), reader::bodySent));
        if (request.apiKey() != null) {
            builder.header("Authorization", "Bearer " + request.apiKey());
        }
        HttpRequest httpRequest = builder.build();
        CompletableFuture<HttpResponse<Void>> exchange = http.sendAsync(httpRequest, reader::onHeaders);
        exchange.whenComplete((response, error) -> {
            if (error != null) {
                reader.failBeforeResponse(error);
            }
        });
        ScheduledFuture<?> deadline = deadlines.schedule(
                () -> {
                    reader.timeOut();
                    exchange.cancel(true);
                },
                request.timeout().toNanos(),
                TimeUnit.NANOSECONDS);
        return reader.result().whenComplete((result, error) -> deadline.cancel(false));
    }

    /**
     * GETs {@code path} (e.g. {@code /health}); any status is an answer. No answer within {@code timeout} (the body
     * included) is a {@link FailureClass#TIMEOUT}, a body over {@link EndpointResponse#MAX_BODY_BYTES} a
     * {@link FailureClass#TOO_LARGE}.
     */
    public CompletableFuture<EndpointResponse> get(URI baseUrl, String path, String apiKey, Duration timeout) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(CompletionRequest.resolve(baseUrl, path))
                .timeout(timeout)
                .GET();
        if (apiKey != null) {
            builder.header("Authorization", "Bearer " + apiKey);
        }
        long start = System.nanoTime();
        BoundedText body = new BoundedText(EndpointResponse.MAX_BODY_BYTES);
        CompletableFuture<EndpointResponse> answer = new CompletableFuture<>();
        CompletableFuture<HttpResponse<String>> exchange = http.sendAsync(builder.build(), info -> body);
        exchange.whenComplete((response, error) -> {
            Duration latency = Duration.ofNanos(System.nanoTime() - start);
            answer.complete(
                    error == null
                            ? new EndpointResponse(response.statusCode(), response.body(), latency, null, null)
                            : new EndpointResponse(0, "", latency, FailureClass.of(error), FailureClass.reason(error)));
        });
        ScheduledFuture<?> deadline = deadlines.schedule(
                () -> {
                    answer.complete(new EndpointResponse(
                            0,
                            "",
                            Duration.ofNanos(System.nanoTime() - start),
                            FailureClass.TIMEOUT,
                            "no complete answer within " + timeout.toMillis() + " ms (" + body.received()
                                    + " bytes of the body received)"));
                    body.cancel();
                    exchange.cancel(true);
                },
                timeout.toNanos(),
                TimeUnit.NANOSECONDS);
        return answer.whenComplete((response, error) -> deadline.cancel(false));
    }

    /** The threads that deliver response bytes; the runner measures their queueing delay as the client's own lag. */
    ExecutorService callbackExecutor() {
        return callbacks;
    }

    @Override
    public void close() {
        deadlines.shutdownNow();
        callbacks.shutdownNow();
    }

    static byte[] requestBody(CompletionRequest request) {
        ObjectNode body = JSON.createObjectNode();
        body.put("model", request.model());
        if (request.endpoint() == Endpoint.CHAT) {
            var messages = body.putArray("messages");
            if (request.systemPrompt() != null) {
                messages.addObject().put("role", "system").put("content", request.systemPrompt());
            }
            messages.addObject().put("role", "user").put("content", request.prompt());
        } else if (request.systemPrompt() != null) {
            body.put("prompt", request.systemPrompt() + "\n\n" + request.prompt());
        } else {
            body.put("prompt", request.prompt());
        }
        body.put("max_tokens", request.maxTokens());
        if (request.temperature() != null) {
            body.put("temperature", request.temperature());
        }
        if (request.topP() != null) {
            body.put("top_p", request.topP());
        }
        if (request.ignoreEos()) {
            body.put("ignore_eos", true);
        }
        if (request.logprobs()) {
            body.put("logprobs", true);
        }
        body.put("stream", request.stream());
        if (request.stream()) {
            ObjectNode options = body.putObject("stream_options");
            options.put("include_usage", true);
            if (request.continuousUsage()) {
                options.put("continuous_usage_stats", true);
            }
        }
        try {
            return JSON.writeValueAsBytes(body);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static java.util.logging.Logger quiet(String name) {
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
        logger.setLevel(java.util.logging.Level.OFF);
        return logger;
    }

    static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger counter = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
