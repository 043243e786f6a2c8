package dev.llmops.serving.runner.transport;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A non-blocking client for OpenAI-compatible servers (SGLang, vLLM): thousands of streams in flight on a few threads,
 * each chunk timestamped when the socket read returned it.
 *
 * <p>Completions go over a {@link StreamingTransport} (HTTP/1.1 on Netty, one connection per request in flight, idle
 * ones kept for reuse); its event loops read the sockets and parse the answers in {@link ResponseReader}s, which never
 * block. Plain GETs ({@code /health}, {@code /v1/models}) use the JDK's {@link HttpClient}. Both start on first use, so
 * a command that sends nothing pays for neither. One instance serves any number of servers: the target is part of
 * each request. Close it when done.
 */
public final class OpenAiClient implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The JDK client asks this logger whether to format a debug line for every chunk; a log manager that says yes (as
     * JBoss LogManager does before an application configures it) costs a fifth of the client's CPU. Held here so the
     * level is not lost when the logger is garbage collected.
     */
    private static final java.util.logging.Logger JDK_CLIENT_DEBUG_LOG = quiet("jdk.internal.httpclient.debug");

    private final int eventLoops;
    private final Duration connectTimeout;
    private final ScheduledThreadPoolExecutor deadlines;
    private StreamingTransport transport;
    private ExecutorService getCallbacks;
    private HttpClient http;
    private boolean closed;

    private OpenAiClient(int eventLoops, Duration connectTimeout) {
        if (eventLoops < 1) {
            throw new IllegalArgumentException("eventLoops must be at least 1, got " + eventLoops);
        }
        this.eventLoops = eventLoops;
        this.connectTimeout = connectTimeout;
        this.deadlines = new ScheduledThreadPoolExecutor(1, daemonThreads("openai-client-deadlines"));
        this.deadlines.setRemoveOnCancelPolicy(true);
    }

    /** A client with one event loop per processor and a 10 s connect timeout. */
    public static OpenAiClient create() {
        return new OpenAiClient(Math.max(1, Runtime.getRuntime().availableProcessors()), Duration.ofSeconds(10));
    }

    /** A client with {@code eventLoops} threads reading and parsing answers (one is plenty for a few probes). */
    public static OpenAiClient create(int eventLoops, Duration connectTimeout) {
        return new OpenAiClient(eventLoops, connectTimeout);
    }

    private synchronized StreamingTransport transport() {
        if (closed) {
            throw new IllegalStateException("the client is closed");
        }
        if (transport == null) {
            transport = new StreamingTransport(eventLoops, connectTimeout);
        }
        return transport;
    }

    private synchronized HttpClient http() {
        if (closed) {
            throw new IllegalStateException("the client is closed");
        }
        if (http == null) {
            getCallbacks = Executors.newSingleThreadExecutor(daemonThreads("openai-client-get"));
            http = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(connectTimeout)
                    .followRedirects(HttpClient.Redirect.NEVER)
                    .executor(getCallbacks)
                    .build();
        }
        return http;
    }

    /**
     * Sends one completion (chat or plain, streaming or not, as the request says). The future never completes
     * exceptionally: every failure is a {@link RequestResult} with a {@link FailureClass}.
     */
    public CompletableFuture<RequestResult> complete(CompletionRequest request) {
        return complete(prepare(request));
    }

    /** Sends a completion serialised ahead of time, as {@link #complete(CompletionRequest)} does. */
    public CompletableFuture<RequestResult> complete(Prepared prepared) {
        ResponseReader reader = new ResponseReader(prepared.request(), System.nanoTime());
        transport().send(prepared.request(), prepared.body(), reader);
        return reader.result();
    }

    /** The request with its body serialised, so that building a long prompt's body costs nothing at its send. */
    public static Prepared prepare(CompletionRequest request) {
        return new Prepared(request, requestBody(request));
    }

    /** A completion and its serialised body. */
    public record Prepared(CompletionRequest request, byte[] body) {}

    /**
     * GETs {@code path} (e.g. {@code /health}); any status is an answer. No answer within {@code timeout} (the body
     * included) is a {@link FailureClass#TIMEOUT}, a body over {@link EndpointResponse#MAX_BODY_BYTES} a
     * {@link FailureClass#TOO_LARGE}.
     */
    public CompletableFuture<EndpointResponse> get(URI baseUrl, String path, String apiKey, Duration timeout) {
        return get(baseUrl, path, apiKey, timeout, EndpointResponse.MAX_BODY_BYTES);
    }

    /** {@link #get(URI, String, String, Duration)} holding at most {@code maxBodyBytes} of the body. */
    public CompletableFuture<EndpointResponse> get(
            URI baseUrl, String path, String apiKey, Duration timeout, int maxBodyBytes) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(CompletionRequest.resolve(baseUrl, path))
                .timeout(timeout)
                .GET();
        if (apiKey != null) {
            builder.header("Authorization", "Bearer " + apiKey);
        }
        long start = System.nanoTime();
        BoundedText body = new BoundedText(maxBodyBytes);
        CompletableFuture<EndpointResponse> answer = new CompletableFuture<>();
        CompletableFuture<HttpResponse<String>> exchange = http().sendAsync(builder.build(), info -> body);
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

    /** The threads that read and parse answers; the runner measures their queueing delay as the client's own lag. */
    public Executor callbackExecutor() {
        return task -> transport().loops().execute(task);
    }

    @Override
    public void close() {
        StreamingTransport opened;
        ExecutorService getThreads;
        synchronized (this) {
            closed = true;
            opened = transport;
            getThreads = getCallbacks;
        }
        deadlines.shutdownNow();
        if (getThreads != null) {
            getThreads.shutdownNow();
        }
        if (opened != null) {
            opened.close();
        }
    }

    public static byte[] requestBody(CompletionRequest request) {
        ObjectNode body = JSON.createObjectNode();
        body.put("model", request.model());
        if (request.endpoint() == Endpoint.CHAT) {
            var messages = body.putArray("messages");
            if (request.systemPrompt() != null) {
                messages.addObject().put("role", "system").put("content", request.systemPrompt());
            }
            for (Exchange turn : request.history()) {
                messages.addObject().put("role", "user").put("content", turn.user());
                messages.addObject().put("role", "assistant").put("content", turn.assistant());
            }
            messages.addObject().put("role", "user").put("content", request.prompt());
        } else {
            StringBuilder prompt = new StringBuilder();
            if (request.systemPrompt() != null) {
                prompt.append(request.systemPrompt()).append("\n\n");
            }
            for (Exchange turn : request.history()) {
                prompt.append(turn.user())
                        .append("\n\n")
                        .append(turn.assistant())
                        .append("\n\n");
            }
            body.put("prompt", prompt.append(request.prompt()).toString());
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

    public static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger counter = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
