package dev.llmops.serving.simulator;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One simulated generation: its schedule (first chunk at start + prefill — the TTFT setting, less the share of the
 * prompt the prefix cache served — then one chunk every chunk delay — tokens per
 * chunk × the per-token delay, or one step's delay under speculative decoding — at the running batch size when the
 * chunk is scheduled) and its emission, one timer task per chunk on
 * a shared scheduler, so a thousand streams need no thousand threads. Each chunk is written when its last token would
 * have been produced.
 */
final class Generation {

    /** logprob of every simulated token: greedy decoding's choice, near certain. */
    private static final String TOKEN_LOGPROB = "-0.05";

    private final SglangSimulator simulator;
    private final HttpExchange exchange;
    private final ScheduledExecutorService scheduler;
    private final String id;
    private final boolean chat;
    private final boolean stream;
    private final boolean includeUsage;
    private final boolean continuousUsage;
    private final int promptTokens;
    private final int cachedTokens;
    private final boolean reportCachedTokens;
    private final int maxTokens;
    private final boolean ignoreEos;
    private final int outputTokens;
    private final int reasoningTokens;
    private final SimulatedText text;
    private final boolean logprobs;
    private final int[] chunkEnds;
    private final int chunkCount;
    private final int disconnectAtChunk;
    private final long ttftNanos;
    private final long chunkDelayNanos;
    private final double batchSlowdown;
    private final long receivedNanos;
    private final long createdSeconds = System.currentTimeMillis() / 1000;
    private final long[] intendedNanos;
    private final long[] sentNanos;
    private final int[] chunkTokens;

    private OutputStream body;
    private long startedNanos;
    private int sentChunks;
    private int sentTokens;
    private boolean ended;

    Generation(
            SglangSimulator simulator,
            HttpExchange exchange,
            ScheduledExecutorService scheduler,
            String id,
            boolean chat,
            boolean stream,
            boolean includeUsage,
            boolean continuousUsage,
            int promptTokens,
            int cachedTokens,
            boolean reportCachedTokens,
            int maxTokens,
            boolean ignoreEos,
            int outputTokens,
            int reasoningTokens,
            SimulatedText text,
            boolean logprobs,
            int[] chunkEnds,
            long ttftNanos,
            long chunkDelayNanos,
            double batchSlowdown,
            boolean disconnect,
            long receivedNanos) {
        this.simulator = simulator;
        this.exchange = exchange;
        this.scheduler = scheduler;
        this.id = id;
        this.chat = chat;
        this.stream = stream;
        this.includeUsage = includeUsage;
        this.continuousUsage = continuousUsage;
        this.promptTokens = promptTokens;
        this.cachedTokens = cachedTokens;
        this.reportCachedTokens = reportCachedTokens;
        this.maxTokens = maxTokens;
        this.ignoreEos = ignoreEos;
        this.outputTokens = outputTokens;
        this.reasoningTokens = Math.min(reasoningTokens, outputTokens);
        this.text = text;
        this.logprobs = logprobs;
        this.chunkEnds = chunkEnds;
        this.chunkCount = chunkEnds.length;
        this.disconnectAtChunk = disconnect ? Math.max(1, chunkCount / 2) : -1;
        this.ttftNanos = ttftNanos;
        this.chunkDelayNanos = chunkDelayNanos;
        this.batchSlowdown = batchSlowdown;
        this.receivedNanos = receivedNanos;
        this.intendedNanos = new long[chunkCount];
        this.sentNanos = new long[chunkCount];
        this.chunkTokens = new int[chunkCount];
    }

    /** Sends the response headers at once, as SGLang does, whether or not a batch slot is free. */
    void open() throws IOException {
        if (stream) {
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
            exchange.getResponseHeaders().set("Cache-Control", "no-cache");
            exchange.sendResponseHeaders(200, 0);
            body = exchange.getResponseBody();
        }
    }

    /** Generation begins (a batch slot is free): the role-only chunk goes out now, the first token after TTFT. */
    synchronized void start() {
        startedNanos = System.nanoTime();
        if (stream && chat) {
            if (!write("data: " + chunkJson("\"role\":\"assistant\",\"content\":\"\"", null, null, -1) + "\n\n")) {
                return;
            }
        }
        scheduleChunk(0);
    }

    /**
     * Fixes when chunk {@code index} is due, from the previous chunk's due time (so a late write does not delay the
     * rest) and the batch running now. A whole answer without slowdown jumps straight to its last chunk's time.
     */
    private void scheduleChunk(int index) {
        int target = stream || batchSlowdown > 0 ? index : chunkCount - 1;
        for (int i = index; i <= target; i++) {
            intendedNanos[i] = i == 0 ? startedNanos + ttftNanos : intendedNanos[i - 1] + chunkIntervalNanos();
        }
        long delay = intendedNanos[target] - System.nanoTime();
        scheduler.schedule(() -> emit(target), Math.max(0, delay), TimeUnit.NANOSECONDS);
    }

    /** Chunk delay × (1 + slowdown × (running batch − 1)). */
    private long chunkIntervalNanos() {
        int batch = Math.max(1, simulator.batchSize());
        return Math.round(chunkDelayNanos * (1 + batchSlowdown * (batch - 1)));
    }

    private synchronized void emit(int index) {
        if (ended) {
            return;
        }
        if (!stream) {
            if (index < chunkCount - 1) {
                scheduleChunk(index + 1);
            } else {
                finishWhole();
            }
            return;
        }
        if (index == disconnectAtChunk) {
            end(SimulatedRequest.Outcome.DISCONNECTED, null);
            return;
        }
        int first = index == 0 ? 0 : chunkEnds[index - 1];
        int last = chunkEnds[index];
        StringBuilder events = new StringBuilder(256);
        events.append("data: ")
                .append(chunkJson(delta(first, last), logprobs ? logprobsJson(first, last) : null, null, last))
                .append("\n\n");
        boolean lastChunk = index == chunkCount - 1;
        if (lastChunk) {
            events.append("data: ")
                    .append(chunkJson(chat ? "\"content\":\"\"" : null, null, finishReason(), last))
                    .append("\n\n");
            if (includeUsage) {
                events.append("data: {\"id\":\"")
                        .append(id)
                        .append("\",\"object\":\"")
                        .append(chat ? "chat.completion.chunk" : "text_completion")
                        .append("\",\"created\":")
                        .append(createdSeconds)
                        .append(",\"model\":")
                        .append(simulator.modelJson())
                        .append(",\"choices\":[],\"usage\":")
                        .append(usage(last))
                        .append("}\n\n");
            }
            events.append("data: [DONE]\n\n");
        }
        long writeStart = System.nanoTime();
        // Counted before they are sent, as SGLang's scheduler counts them before they are streamed: a client that read
        // the last token and then reads /metrics finds it counted.
        simulator.tokensGenerated(last - first, 1, true, index == 0 ? writeStart - receivedNanos : -1);
        if (!write(events.toString())) {
            return;
        }
        sentNanos[index] = writeStart;
        chunkTokens[index] = last - first;
        sentChunks = index + 1;
        sentTokens = last;
        if (lastChunk) {
            end(SimulatedRequest.Outcome.COMPLETED, finishReason());
        } else {
            scheduleChunk(index + 1);
        }
    }

    private void finishWhole() {
        StringBuilder content = new StringBuilder();
        StringBuilder reasoning = new StringBuilder();
        for (int i = 0; i < outputTokens; i++) {
            (i < reasoningTokens ? reasoning : content).append(word(i));
        }
        String choice;
        if (chat) {
            choice = "{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"" + content + "\""
                    + (reasoningTokens > 0 ? ",\"reasoning_content\":\"" + reasoning + "\"" : "")
                    + "}" + wholeLogprobs() + ",\"finish_reason\":\"" + finishReason() + "\"}";
        } else {
            choice = "{\"index\":0,\"text\":\"" + reasoning + content + "\"" + wholeLogprobs() + ",\"finish_reason\":\""
                    + finishReason() + "\"}";
        }
        String json = "{\"id\":\"" + id + "\",\"object\":\"" + (chat ? "chat.completion" : "text_completion")
                + "\",\"created\":" + createdSeconds + ",\"model\":" + simulator.modelJson() + ",\"choices\":[" + choice
                + "],\"usage\":" + usage(outputTokens) + "}";
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        long now = System.nanoTime();
        simulator.tokensGenerated(outputTokens, chunkCount, false, now - receivedNanos);
        try {
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
        } catch (IOException e) {
            end(SimulatedRequest.Outcome.ABORTED, null);
            return;
        }
        Arrays.fill(sentNanos, now);
        for (int i = 0; i < chunkCount; i++) {
            chunkTokens[i] = chunkEnds[i] - (i == 0 ? 0 : chunkEnds[i - 1]);
        }
        sentChunks = chunkCount;
        sentTokens = outputTokens;
        end(SimulatedRequest.Outcome.COMPLETED, finishReason());
    }

    private String wholeLogprobs() {
        return logprobs ? ",\"logprobs\":" + logprobsJson(0, outputTokens) : "";
    }

    private String finishReason() {
        return outputTokens == maxTokens ? "length" : "stop";
    }

    private String delta(int firstToken, int endToken) {
        StringBuilder reasoning = new StringBuilder();
        StringBuilder content = new StringBuilder();
        for (int i = firstToken; i < endToken; i++) {
            (i < reasoningTokens ? reasoning : content).append(word(i));
        }
        if (!chat) {
            return reasoning.append(content).toString();
        }
        StringBuilder delta = new StringBuilder();
        if (reasoning.length() > 0) {
            delta.append("\"reasoning_content\":\"").append(reasoning).append('"');
        }
        if (content.length() > 0) {
            delta.append(delta.length() > 0 ? "," : "")
                    .append("\"content\":\"")
                    .append(content)
                    .append('"');
        }
        return delta.toString();
    }

    private String word(int token) {
        return text.word(token);
    }

    /** The choice's logprobs of tokens {@code first} to {@code end} (exclusive), as SGLang streams them. */
    private String logprobsJson(int first, int end) {
        StringBuilder json = new StringBuilder(64 * (end - first) + 32).append("{\"content\":[");
        for (int i = first; i < end; i++) {
            String token = word(i);
            json.append(i == first ? "" : ",")
                    .append("{\"token\":\"")
                    .append(token)
                    .append("\",\"logprob\":")
                    .append(TOKEN_LOGPROB)
                    .append(",\"bytes\":[");
            byte[] bytes = token.getBytes(StandardCharsets.UTF_8);
            for (int b = 0; b < bytes.length; b++) {
                json.append(b == 0 ? "" : ",").append(bytes[b] & 0xff);
            }
            json.append("],\"top_logprobs\":[]}");
        }
        return json.append("]}").toString();
    }

    /**
     * A chunk object; {@code delta} is the delta's fields for chat, the text for completions; {@code logprobs} the
     * choice's logprobs object, or null.
     */
    private String chunkJson(String delta, String logprobs, String finishReason, int tokensSoFar) {
        StringBuilder json = new StringBuilder(256)
                .append("{\"id\":\"")
                .append(id)
                .append("\",\"object\":\"")
                .append(chat ? "chat.completion.chunk" : "text_completion")
                .append("\",\"created\":")
                .append(createdSeconds)
                .append(",\"model\":")
                .append(simulator.modelJson())
                .append(",\"choices\":[{\"index\":0,");
        if (chat) {
            json.append("\"delta\":{").append(delta == null ? "" : delta).append('}');
        } else {
            json.append("\"text\":\"").append(delta == null ? "" : delta).append('"');
        }
        if (logprobs != null) {
            json.append(",\"logprobs\":").append(logprobs);
        }
        json.append(",\"finish_reason\":")
                .append(finishReason == null ? "null" : '"' + finishReason + '"')
                .append("}]");
        if (continuousUsage && tokensSoFar >= 0) {
            json.append(",\"usage\":").append(usage(tokensSoFar));
        }
        return json.append('}').toString();
    }

    /** SGLang's usage object; {@code prompt_tokens_details.cached_tokens} as with {@code --enable-cache-report}. */
    private String usage(int completionTokens) {
        return "{\"prompt_tokens\":" + promptTokens + ",\"completion_tokens\":" + completionTokens
                + ",\"total_tokens\":" + (promptTokens + completionTokens)
                + (reportCachedTokens ? ",\"prompt_tokens_details\":{\"cached_tokens\":" + cachedTokens + "}" : "")
                + ",\"completion_tokens_details\":{\"reasoning_tokens\":" + Math.min(reasoningTokens, completionTokens)
                + "}}";
    }

    private boolean write(String events) {
        try {
            body.write(events.getBytes(StandardCharsets.UTF_8));
            body.flush();
            return true;
        } catch (IOException e) {
            end(SimulatedRequest.Outcome.ABORTED, null);
            return false;
        }
    }

    /** Closes the exchange without finishing the answer: the simulator is shutting down. */
    synchronized void abort() {
        if (!ended) {
            end(SimulatedRequest.Outcome.ABORTED, null);
        }
    }

    private void end(SimulatedRequest.Outcome outcome, String finishReason) {
        ended = true;
        exchange.close();
        simulator.finished(
                this,
                new SimulatedRequest(
                        id,
                        outcome,
                        200,
                        stream,
                        promptTokens,
                        cachedTokens,
                        maxTokens,
                        ignoreEos,
                        receivedNanos,
                        startedNanos,
                        Arrays.copyOf(intendedNanos, sentChunks),
                        Arrays.copyOf(sentNanos, sentChunks),
                        Arrays.copyOf(chunkTokens, sentChunks),
                        sentTokens,
                        Math.min(reasoningTokens, sentTokens),
                        finishReason,
                        null));
    }
}
