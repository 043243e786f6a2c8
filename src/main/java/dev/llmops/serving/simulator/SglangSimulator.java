package dev.llmops.serving.simulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An SGLang server without a GPU, for tests and demos: the same endpoints, streaming format and usage reporting, with
 * configurable speed (TTFT, token delay, tokens per chunk or speculative decoding with a random acceptance per step, a
 * reasoning phase, a batch limit, a prefix cache whose hits shorten prefill) and faults (slow start,
 * half-ready, hang, disconnect, a rate of HTTP 500s, and hostile answers that never end) that can be switched while it
 * runs. It records its own ground
 * truth — every chunk's intended and actual send time — so a client's measurements can be checked against it.
 *
 * <p>Built on the JDK's HTTP server: requests are parsed on a small pool and every chunk is written by a timer task on
 * a shared scheduler, so open streams cost no threads. The JDK server reads two settings once per JVM, before its
 * first use; unless already set, this class sets {@code sun.net.httpserver.nodelay=true} (otherwise Nagle's algorithm
 * delays small chunks) and {@code sun.net.httpserver.maxIdleConnections=65536} (otherwise connections beyond 200 are
 * closed between requests).
 */
public final class SglangSimulator implements AutoCloseable {

    static {
        setIfAbsent("sun.net.httpserver.nodelay", "true");
        setIfAbsent("sun.net.httpserver.maxIdleConnections", "65536");
    }

    /** The prefix cache's default capacity: 262 144 tokens, the KV cache of a small GPU. */
    public static final int DEFAULT_PREFIX_CACHE_BLOCKS = 16384;
    /** The most prefix-cache blocks: their keys take some 100 MiB. */
    public static final int MAX_PREFIX_CACHE_BLOCKS = 1 << 20;

    public static final int DEFAULT_PREFIX_CACHE_BLOCK_TOKENS = 16;
    public static final int MAX_PREFIX_CACHE_BLOCK_TOKENS = 4096;

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * When the server's dispatcher handed the current request's connection to a handler thread: the request's arrival,
     * before any wait for a free handler, so the ground truth counts that wait as the server's, not the client's.
     */
    private static final ThreadLocal<long[]> ARRIVED = ThreadLocal.withInitial(() -> new long[1]);

    private final Builder config;
    private final String modelJson;
    private final HttpServer server;
    private final ExecutorService handlers;
    private final ScheduledThreadPoolExecutor scheduler;
    private final SimulatorMetrics metrics = new SimulatorMetrics();
    private final PrefixCache prefixCache;
    private final AtomicLong requestCounter = new AtomicLong();
    private final AtomicLong generationCounter = new AtomicLong();
    private final Set<Generation> active = ConcurrentHashMap.newKeySet();
    private final Set<HttpExchange> hung = ConcurrentHashMap.newKeySet();
    private final Queue<Generation> waiting = new ArrayDeque<>();
    private final List<SimulatedRequest> groundTruth = new ArrayList<>();
    /** The body digest of each generation request until its ground truth is recorded. */
    private final Map<String, String> bodyDigests = new ConcurrentHashMap<>();
    /** Splits one generator per generation, so a seed gives the same acceptance sequence request by request. */
    private final SplittableRandom acceptanceRandom;

    /** Requests holding a batch slot (prefill or decode); written under this object's lock. */
    private volatile int running;

    private final HostileAnswers hostile;
    private volatile boolean closed;
    private volatile Fault fault;
    private volatile double errorRate;
    private volatile long loadedAtNanos;

    private SglangSimulator(Builder config) throws IOException {
        this.config = config;
        this.fault = config.fault;
        this.errorRate = config.errorRate;
        this.loadedAtNanos = System.nanoTime() + config.loading.toNanos();
        this.modelJson = JSON.writeValueAsString(config.model);
        this.prefixCache = new PrefixCache(config.prefixCacheBlockTokens, config.prefixCacheBlocks);
        this.acceptanceRandom = new SplittableRandom(config.acceptanceSeed);
        this.hostile = new HostileAnswers(hung, () -> !closed);
        this.handlers = Executors.newFixedThreadPool(config.handlerThreads, daemonThreads("sglang-simulator-http"));
        this.scheduler = new ScheduledThreadPoolExecutor(config.emitterThreads, daemonThreads("sglang-simulator-emit"));
        this.scheduler.setRemoveOnCancelPolicy(true);
        this.server = HttpServer.create(new InetSocketAddress(config.host, config.port), 4096);
        server.createContext("/", this::handle);
        server.setExecutor(task -> {
            long arrived = System.nanoTime();
            handlers.execute(() -> {
                ARRIVED.get()[0] = arrived;
                task.run();
            });
        });
        server.start();
        scheduler.scheduleAtFixedRate(metrics::sampleThroughput, 1, 1, TimeUnit.SECONDS);
    }

    public static Builder builder() {
        return new Builder();
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** {@code http://host:port}, the base URL clients append {@code /v1/...} to. */
    public URI baseUrl() {
        return URI.create("http://" + config.host + ":" + port());
    }

    public String model() {
        return config.model;
    }

    /** The capacities of this simulator's speed settings under a latency SLO. */
    public SimulatedCapacity capacity() {
        return config.capacity();
    }

    public Fault fault() {
        return fault;
    }

    /** Applies to requests that arrive from now on. */
    public void setFault(Fault value) {
        this.fault = Objects.requireNonNull(value);
    }

    /** Fraction of generation requests answered with HTTP 500, spread evenly (every 1/rate-th request). */
    public void setErrorRate(double value) {
        this.errorRate = checkRate(value);
    }

    /** Ends the slow start now: /health turns 200 and generation works. */
    public void finishLoading() {
        loadedAtNanos = System.nanoTime();
    }

    public boolean isLoading() {
        return System.nanoTime() < loadedAtNanos;
    }

    /** Ground truth of every generation request that has ended, in the order they ended. */
    public List<SimulatedRequest> requests() {
        synchronized (groundTruth) {
            return List.copyOf(groundTruth);
        }
    }

    /** Tokens written to clients since start. */
    public long tokensSent() {
        return metrics.generationTokens();
    }

    /**
     * Ground truth of speculative decoding since start: tokens delivered by verify steps and the steps (every chunk of
     * a speculative simulator is one step, the first included); both 0 without {@link Builder#speculative}.
     */
    public SpeculativeTotals speculativeTotals() {
        return config.speculative == null
                ? new SpeculativeTotals(0, 0)
                : new SpeculativeTotals(metrics.generationTokens(), metrics.verifyCalls.get());
    }

    /**
     * Accepted tokens and verify steps of a speculative simulator.
     *
     * @param acceptedTokens tokens delivered, each step's accepted tokens (bonus token included)
     * @param verifySteps verify calls made
     */
    public record SpeculativeTotals(long acceptedTokens, long verifySteps) {
        /** Accepted tokens per verify step between {@code earlier} and this, or NaN when no step was made. */
        public double acceptLengthSince(SpeculativeTotals earlier) {
            long steps = verifySteps - earlier.verifySteps;
            return steps == 0 ? Double.NaN : (double) (acceptedTokens - earlier.acceptedTokens) / steps;
        }
    }

    public int running() {
        return running;
    }

    public synchronized int queued() {
        return waiting.size();
    }

    @Override
    public void close() {
        closed = true;
        server.stop(0);
        for (Generation generation : List.copyOf(active)) {
            generation.abort();
        }
        for (HttpExchange exchange : List.copyOf(hung)) {
            exchange.close();
        }
        scheduler.shutdownNow();
        handlers.shutdownNow();
    }

    String modelJson() {
        return modelJson;
    }

    /** The running batch a token's delay is computed from. */
    int batchSize() {
        return running;
    }

    void tokensGenerated(int tokens, int chunks, boolean streaming, long ttftNanos) {
        (streaming ? metrics.streamedTokens : metrics.wholeTokens).addAndGet(tokens);
        if (config.speculative != null) {
            metrics.verifyCalls.addAndGet(chunks);
        }
        if (ttftNanos >= 0) {
            metrics.recordTtft(ttftNanos);
        }
    }

    void finished(Generation generation, SimulatedRequest record) {
        active.remove(generation);
        record(record);
        Generation next;
        synchronized (this) {
            running--;
            next = waiting.poll();
            if (next != null) {
                running++;
            }
        }
        if (next != null) {
            next.start();
        }
    }

    private void record(SimulatedRequest record) {
        if (config.recordGroundTruth) {
            synchronized (groundTruth) {
                groundTruth.add(record.withBodySha256(bodyDigests.remove(record.id())));
            }
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try {
            byte[] requestBody = exchange.getRequestBody().readAllBytes();
            String path = exchange.getRequestURI().getPath();
            if (config.apiKey != null
                    && !path.startsWith("/health")
                    && !path.equals("/metrics")
                    && !("Bearer " + config.apiKey)
                            .equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                sendError(exchange, 401, "Unauthorized: missing or wrong API key");
                return;
            }
            Fault current = fault;
            boolean generation = path.equals("/v1/chat/completions") || path.equals("/v1/completions");
            if (HostileAnswers.attacks(current, path, generation)) {
                hostile.answer(exchange, current, generation && asksForStream(requestBody));
                return;
            }
            switch (path) {
                case "/health" -> {
                    if (isLoading()) {
                        sendError(exchange, 503, "The server is still loading the model");
                    } else {
                        send(exchange, 200, "text/plain", "");
                    }
                }
                case "/health_generate" -> healthGenerate(exchange);
                case "/v1/models" ->
                    send(
                            exchange,
                            200,
                            "application/json",
                            "{\"object\":\"list\",\"data\":[{\"id\":"
                                    + modelJson
                                    + ",\"object\":\"model\",\"created\":0,\"owned_by\":\"sglang\",\"root\":"
                                    + modelJson
                                    + ",\"max_model_len\":" + config.contextLength + "}]}");
                case "/get_server_info" -> send(exchange, 200, "application/json", serverInfo());
                case "/metrics" -> metrics(exchange);
                case "/simulator/ground_truth" -> groundTruth(exchange);
                case "/v1/chat/completions" -> generate(exchange, requestBody, true);
                case "/v1/completions" -> generate(exchange, requestBody, false);
                default -> sendError(exchange, 404, "Not found: " + path);
            }
        } catch (IOException | RuntimeException e) {
            exchange.close();
        }
    }

    private static boolean asksForStream(byte[] requestBody) {
        try {
            JsonNode body = JSON.readTree(requestBody);
            return body != null && body.path("stream").asBoolean(false);
        } catch (IOException e) {
            return false;
        }
    }

    /** The running and queued counts of one instant, so they add up to the requests the server holds. */
    private void metrics(HttpExchange exchange) throws IOException {
        int runningNow;
        int queuedNow;
        synchronized (this) {
            runningNow = running;
            queuedNow = waiting.size();
        }
        send(
                exchange,
                200,
                "text/plain; version=0.0.4",
                metrics.render(config.model, runningNow, queuedNow, config.maxRunning, config.speculative != null));
    }

    private void groundTruth(HttpExchange exchange) throws IOException {
        if (!config.recordGroundTruth) {
            sendError(exchange, 404, "This simulator keeps no ground truth (start it with ground-truth recording on)");
            return;
        }
        byte[] json = GroundTruthJson.write(requests());
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, json.length);
        exchange.getResponseBody().write(json);
        exchange.close();
    }

    private void healthGenerate(HttpExchange exchange) throws IOException {
        if (isLoading()) {
            sendError(exchange, 503, "The server is still loading the model");
            return;
        }
        switch (fault) {
            case HALF_READY -> sendError(exchange, 503, "health_generate failed: the generation did not finish");
            case HANG -> hung.add(exchange);
            default ->
                scheduler.schedule(
                        () -> {
                            try {
                                send(exchange, 200, "text/plain", "");
                            } catch (IOException e) {
                                exchange.close();
                            }
                        },
                        config.ttft.toNanos(),
                        TimeUnit.NANOSECONDS);
        }
    }

    private void generate(HttpExchange exchange, byte[] requestBody, boolean chat) throws IOException {
        long received = ARRIVED.get()[0];
        String id = (chat ? "chatcmpl-" : "cmpl-") + Long.toHexString(generationCounter.incrementAndGet());
        if (config.recordGroundTruth) {
            bodyDigests.put(id, sha256(requestBody));
        }
        if (!"POST".equals(exchange.getRequestMethod())) {
            reject(exchange, id, received, 405, "Method not allowed");
            return;
        }
        JsonNode body;
        try {
            body = JSON.readTree(requestBody);
        } catch (JsonProcessingException e) {
            reject(exchange, id, received, 400, "The request body is not JSON: " + e.getOriginalMessage());
            return;
        }
        if (body == null || !body.isObject()) {
            reject(exchange, id, received, 400, "The request body must be a JSON object");
            return;
        }
        PromptTokens prompt = PromptTokens.of(body.path(chat ? "messages" : "prompt"), config.prefixCacheBlockTokens);
        int promptTokens = prompt.count();
        metrics.requests.incrementAndGet();
        metrics.promptTokens.addAndGet(promptTokens);
        if (isLoading()) {
            reject(exchange, id, received, 503, "The server is still loading the model");
            return;
        }
        Fault current = fault;
        if (current == Fault.HALF_READY) {
            reject(exchange, id, received, 500, "CUDA error: no kernel image is available for execution on the device");
            return;
        }
        if (current == Fault.HANG) {
            hung.add(exchange);
            return;
        }
        if (failsByErrorRate()) {
            reject(exchange, id, received, 500, "Internal server error (simulated)");
            return;
        }
        int maxTokens =
                body.path("max_tokens").asInt(body.path("max_completion_tokens").asInt(config.defaultMaxTokens));
        if (maxTokens < 1) {
            reject(exchange, id, received, 400, "max_tokens must be at least 1");
            return;
        }
        boolean ignoreEos = body.path("ignore_eos").asBoolean(false);
        int outputTokens = maxTokens;
        if (config.naturalLength > 0 && !(ignoreEos && config.honourIgnoreEos)) {
            outputTokens = Math.min(maxTokens, config.naturalLength);
        }
        boolean stream = body.path("stream").asBoolean(false);
        JsonNode options = body.path("stream_options");
        int cachedTokens = prefixCache.admit(prompt);
        metrics.cachedTokens.addAndGet(cachedTokens);
        Generation generation = new Generation(
                this,
                exchange,
                scheduler,
                id,
                chat,
                stream,
                options.path("include_usage").asBoolean(false),
                options.path("continuous_usage_stats").asBoolean(false),
                promptTokens,
                cachedTokens,
                config.reportCachedTokens,
                maxTokens,
                ignoreEos,
                outputTokens,
                chat ? config.reasoningTokens : 0,
                new SimulatedText(
                        chat ? config.reasoningTokens : 0,
                        greedy(body) ? body.path(chat ? "messages" : "prompt").toString() : null,
                        current == Fault.BROKEN_DRAFT),
                body.path("logprobs").asBoolean(false),
                chunkEnds(outputTokens, current == Fault.BROKEN_DRAFT),
                prefillNanos(promptTokens, cachedTokens),
                config.speculative == null
                        ? config.tokenDelay.toNanos() * config.tokensPerChunk
                        : config.tokenDelay.toNanos(),
                config.batchSlowdown,
                current == Fault.DISCONNECT,
                received);
        active.add(generation);
        generation.open();
        boolean startNow;
        synchronized (this) {
            startNow = config.maxRunning == 0 || running < config.maxRunning;
            if (startNow) {
                running++;
            } else {
                waiting.add(generation);
            }
        }
        if (startNow) {
            generation.start();
        }
    }

    /**
     * The TTFT setting prefills a whole prompt, plus the prefill token delay per prompt token; only the tokens the
     * prefix cache did not serve are prefilled.
     */
    private long prefillNanos(int promptTokens, int cachedTokens) {
        long ttft = config.ttft.toNanos();
        int uncached = promptTokens - cachedTokens;
        long perToken = config.prefillTokenDelay.toNanos() * uncached;
        return promptTokens == 0 ? ttft : Math.round(ttft * ((double) uncached / promptTokens)) + perToken;
    }

    /** Temperature 0: the answer is the same for the same prompt, on every simulator. */
    private static boolean greedy(JsonNode body) {
        JsonNode temperature = body.path("temperature");
        return temperature.isNumber() && temperature.asDouble() == 0;
    }

    /**
     * Where each chunk's tokens end: every tokens-per-chunk, or each speculative step's accepted tokens, drawn or, with
     * a broken draft, the most a step can accept.
     */
    private int[] chunkEnds(int outputTokens, boolean brokenDraft) {
        if (config.speculative == null) {
            int[] ends = new int[(outputTokens + config.tokensPerChunk - 1) / config.tokensPerChunk];
            for (int i = 0; i < ends.length; i++) {
                ends[i] = Math.min(outputTokens, (i + 1) * config.tokensPerChunk);
            }
            return ends;
        }
        SplittableRandom random;
        synchronized (acceptanceRandom) {
            random = acceptanceRandom.split();
        }
        int[] ends = new int[outputTokens];
        int chunks = 0;
        for (int end = 0; end < outputTokens; chunks++) {
            int accepted = brokenDraft ? config.speculative.maxTokensPerStep() : config.speculative.draw(random);
            end = Math.min(outputTokens, end + accepted);
            ends[chunks] = end;
        }
        return Arrays.copyOf(ends, chunks);
    }

    private boolean failsByErrorRate() {
        double rate = errorRate;
        long n = requestCounter.incrementAndGet();
        return rate > 0 && Math.floor(n * rate) > Math.floor((n - 1) * rate);
    }

    private void reject(HttpExchange exchange, String id, long received, int status, String message)
            throws IOException {
        record(new SimulatedRequest(
                id,
                SimulatedRequest.Outcome.REJECTED,
                status,
                false,
                0,
                0,
                0,
                false,
                received,
                0,
                new long[0],
                new long[0],
                new int[0],
                0,
                0,
                null,
                null));
        sendError(exchange, status, message);
    }

    private String serverInfo() {
        var info = JSON.createObjectNode();
        info.put("model_path", config.model);
        info.put("served_model_name", config.model);
        info.put("tp_size", 1);
        info.put("context_length", config.contextLength);
        if (config.maxRunning > 0) {
            info.put("max_running_requests", config.maxRunning);
        } else {
            info.putNull("max_running_requests");
        }
        if (config.speculativeAlgorithm != null) {
            info.put("speculative_algorithm", config.speculativeAlgorithm);
        } else {
            info.putNull("speculative_algorithm");
        }
        info.put("version", "simulator");
        return info.toString();
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    private static void sendError(HttpExchange exchange, int status, String message) throws IOException {
        var error = JSON.createObjectNode();
        error.put("object", "error");
        error.put("message", message);
        error.put("type", status >= 500 ? "InternalServerError" : "BadRequestError");
        error.put("code", status);
        send(exchange, status, "application/json", error.toString());
    }

    private static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
        exchange.close();
    }

    private static double checkRate(double rate) {
        if (!(rate >= 0 && rate <= 1)) {
            throw new IllegalArgumentException("error rate must be between 0 and 1, was " + rate);
        }
        return rate;
    }

    private static void setIfAbsent(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }

    private static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger counter = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** Configures a simulator; every setting has a usable default (a fast server on an ephemeral loopback port). */
    public static final class Builder {
        private String host = "127.0.0.1";
        private int port;
        private String model = "simulated/model";
        private Duration ttft = Duration.ofMillis(50);
        private Duration tokenDelay = Duration.ofMillis(10);
        private Duration prefillTokenDelay = Duration.ZERO;
        private int tokensPerChunk = 1;
        private int reasoningTokens;
        private int naturalLength;
        private int maxRunning;
        private double batchSlowdown;
        private Duration loading = Duration.ZERO;
        private Fault fault = Fault.NONE;
        private double errorRate;
        private String apiKey;
        private boolean honourIgnoreEos = true;
        private String speculativeAlgorithm;
        private SpeculativeAcceptance speculative;
        private long acceptanceSeed = 1;
        private int defaultMaxTokens = 128;
        private int contextLength = 131072;
        private boolean recordGroundTruth = true;
        private int prefixCacheBlocks = DEFAULT_PREFIX_CACHE_BLOCKS;
        private int prefixCacheBlockTokens = DEFAULT_PREFIX_CACHE_BLOCK_TOKENS;
        private boolean reportCachedTokens = true;
        private int handlerThreads = 2;
        private int emitterThreads = 2;

        private Builder() {}

        /** Address to bind, e.g. 127.0.0.2 to run several simulators side by side. */
        public Builder host(String value) {
            this.host = Objects.requireNonNull(value);
            return this;
        }

        /** Port to bind; 0 (the default) picks a free one. */
        public Builder port(int value) {
            this.port = value;
            return this;
        }

        public Builder model(String value) {
            this.model = Objects.requireNonNull(value);
            return this;
        }

        /** From the start of generation to the first token (prefill). */
        public Builder ttft(Duration value) {
            this.ttft = nonNegative(value, "ttft");
            return this;
        }

        /**
         * Prefill time per uncached prompt token, on top of the TTFT setting: a long prompt's first token comes later,
         * and a prefix cache hit saves its share.
         */
        public Builder prefillTokenDelay(Duration value) {
            this.prefillTokenDelay = nonNegative(value, "prefillTokenDelay");
            return this;
        }

        /** Time per output token after the first; a chunk of k tokens goes out every k × this. */
        public Builder tokenDelay(Duration value) {
            this.tokenDelay = nonNegative(value, "tokenDelay");
            return this;
        }

        /** Tokens per streamed chunk, as speculative decoding or a stream interval deliver them. */
        public Builder tokensPerChunk(int value) {
            this.tokensPerChunk = atLeast(value, 1, "tokensPerChunk");
            return this;
        }

        /** The first N tokens of a chat answer stream as reasoning_content. */
        public Builder reasoningTokens(int value) {
            this.reasoningTokens = atLeast(value, 0, "reasoningTokens");
            return this;
        }

        /** Without ignore_eos an answer ends (finish_reason stop) after this many tokens; 0 means never early. */
        public Builder naturalLength(int value) {
            this.naturalLength = atLeast(value, 0, "naturalLength");
            return this;
        }

        /** Requests generating at once; the rest wait in a queue. 0 means no limit. */
        public Builder maxRunning(int value) {
            this.maxRunning = atLeast(value, 0, "maxRunning");
            return this;
        }

        /**
         * Service time under load: with b requests running (in prefill or decode) each token takes token delay × (1 +
         * this × (b − 1)), b taken when the token (or chunk) is scheduled. 0 (the default) keeps the delay fixed.
         */
        public Builder batchSlowdown(double value) {
            if (!(value >= 0 && Double.isFinite(value))) {
                throw new IllegalArgumentException("batchSlowdown must be a finite number of at least 0, was " + value);
            }
            this.batchSlowdown = value;
            return this;
        }

        /** The capacities this configuration has under a latency SLO, computed from its speed settings. */
        public SimulatedCapacity capacity() {
            return new SimulatedCapacity(ttft, tokenDelay, batchSlowdown, maxRunning);
        }

        /** Slow start: for this long /health answers 503 and generation fails with 503; /v1/models answers. */
        public Builder loading(Duration value) {
            this.loading = nonNegative(value, "loading");
            return this;
        }

        public Builder fault(Fault value) {
            this.fault = Objects.requireNonNull(value);
            return this;
        }

        public Builder errorRate(double value) {
            this.errorRate = checkRate(value);
            return this;
        }

        /** Requires {@code Authorization: Bearer <key>} on everything but /health, /health_generate and /metrics. */
        public Builder apiKey(String value) {
            this.apiKey = value;
            return this;
        }

        /** false makes the server ignore ignore_eos, so fixed-length runs fall short at the natural length. */
        public Builder honourIgnoreEos(boolean value) {
            this.honourIgnoreEos = value;
            return this;
        }

        /**
         * Speculative decoding: every decoding step is one verify call that takes the token delay (the step time, at
         * the running batch) and streams the tokens it accepted, drawn per step from {@code acceptance}, in one chunk.
         * /metrics then counts verify calls as SGLang does. Replaces tokens per chunk.
         */
        public Builder speculative(SpeculativeAcceptance acceptance) {
            this.speculative = acceptance;
            return this;
        }

        /** Seeds the acceptance draws of {@link #speculative}; the same seed gives the same draws per request. */
        public Builder acceptanceSeed(long value) {
            this.acceptanceSeed = value;
            return this;
        }

        /** Reported by /get_server_info. */
        public Builder speculativeAlgorithm(String value) {
            this.speculativeAlgorithm = value;
            return this;
        }

        /** max_tokens of a request that sets none. */
        public Builder defaultMaxTokens(int value) {
            this.defaultMaxTokens = atLeast(value, 1, "defaultMaxTokens");
            return this;
        }

        /**
         * The prefix cache's capacity in blocks (0 turns it off), least recently used evicted first: a request's
         * cached tokens are the leading blocks of its prompt (messages with the system prompt, or the prompt) that an
         * earlier request left in the cache, and its prefill (the TTFT setting, for a whole prompt) shrinks to the
         * share of tokens not cached. Default {@value SglangSimulator#DEFAULT_PREFIX_CACHE_BLOCKS} blocks.
         */
        public Builder prefixCacheBlocks(int value) {
            this.prefixCacheBlocks = between(value, 0, MAX_PREFIX_CACHE_BLOCKS, "prefixCacheBlocks");
            return this;
        }

        /**
         * Tokens (words) per prefix-cache block. Default {@value SglangSimulator#DEFAULT_PREFIX_CACHE_BLOCK_TOKENS}, as
         * vLLM's.
         */
        public Builder prefixCacheBlockTokens(int value) {
            this.prefixCacheBlockTokens = between(value, 1, MAX_PREFIX_CACHE_BLOCK_TOKENS, "prefixCacheBlockTokens");
            return this;
        }

        /**
         * Whether usage reports {@code prompt_tokens_details.cached_tokens}, as SGLang does with
         * {@code --enable-cache-report}; default true.
         */
        public Builder reportCachedTokens(boolean value) {
            this.reportCachedTokens = value;
            return this;
        }

        /** false keeps no per-request ground truth (long benchmark runs). */
        public Builder recordGroundTruth(boolean value) {
            this.recordGroundTruth = value;
            return this;
        }

        /** Threads that write chunks; writes to a socket whose buffer has room do not block. */
        public Builder emitterThreads(int value) {
            this.emitterThreads = atLeast(value, 1, "emitterThreads");
            return this;
        }

        /** Binds and starts serving. */
        public SglangSimulator start() {
            if (speculative != null && tokensPerChunk > 1) {
                throw new IllegalArgumentException(
                        "speculative decoding sets the tokens of each chunk: leave tokensPerChunk at 1");
            }
            try {
                return new SglangSimulator(this);
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "cannot bind the simulator to " + host + ":" + port + ": " + e.getMessage(), e);
            }
        }

        private static Duration nonNegative(Duration value, String name) {
            if (value.isNegative()) {
                throw new IllegalArgumentException(name + " must not be negative");
            }
            return value;
        }

        private static int between(int value, int minimum, int maximum, String name) {
            if (value > maximum) {
                throw new IllegalArgumentException(name + " must be at most " + maximum + ", was " + value);
            }
            return atLeast(value, minimum, name);
        }

        private static int atLeast(int value, int minimum, String name) {
            if (value < minimum) {
                throw new IllegalArgumentException(name + " must be at least " + minimum + ", was " + value);
            }
            return value;
        }
    }
}
