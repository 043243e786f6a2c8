package dev.llmops.serving.runner.transport;

import dev.llmops.serving.api.contract.QualityOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Reads one response without ever blocking: every buffer comes with the {@link System#nanoTime()} of the socket read
 * that returned it, is split into server-sent events and parsed on the spot. Also the place a request's outcome is
 * decided, exactly once, whether by the end of the stream, a broken connection or the deadline.
 */
final class ResponseReader {

    /** An error body is only shown, so it is cut here rather than failing the request. */
    private static final int MAX_ERROR_BODY = 8192;
    /** A failure's message quotes the server (its error object, an exception); longer ones are cut here. */
    static final int MAX_ERROR_MESSAGE_CHARS = 1024;
    /**
     * Chunks with text or tokens a request may deliver beyond twice its max_tokens: a real server sends at most one per
     * token plus the usage chunk, and each kept chunk costs the reader 16 bytes until the request ends.
     */
    static final int EXTRA_CHUNKS = 64;

    private static final byte[] DONE = "[DONE]".getBytes(StandardCharsets.US_ASCII);

    private final CompletionRequest request;
    private final ResponseLimits limits;
    private long sendNanos;
    private final CompletableFuture<RequestResult> result = new CompletableFuture<>();
    private RequestResult outcome;
    private Runnable abort;
    private boolean held;
    private int status;
    private boolean eventStream;
    private boolean finished;

    private byte[] pending = new byte[1024];
    private int pendingLength;
    private byte[] data = new byte[512];
    private int dataLength;
    private boolean hasData;
    private byte[] rawBody;
    private int rawLength;

    private String responseId;
    private long firstTokenNanos = RequestResult.NO_TIME;
    private long firstContentNanos = RequestResult.NO_TIME;
    private boolean done;
    private String finishReason;
    private int promptTokens = CompletionChunk.ABSENT;
    private int cachedTokens = CompletionChunk.ABSENT;
    private int completionTokens = CompletionChunk.ABSENT;
    private int reasoningTokens = CompletionChunk.ABSENT;
    private boolean usageOnChoiceChunks;
    private boolean textWithoutUsage;
    private int cumulativeTokens;
    private long[] chunkNanos = new long[64];
    private int[] chunkChars = new int[64];
    private int[] chunkTokens = new int[64];
    private int chunks;
    private final StringBuilder text;
    private final StringBuilder reasoningText;
    /** Token pieces from logprobs, and one piece per content chunk in case the server sends no logprobs. */
    private final List<String> logprobPieces;

    private final List<String> chunkPieces;
    private boolean sawLogprobs;

    ResponseReader(CompletionRequest request, long sendNanos) {
        this.request = request;
        this.limits = request.limits();
        this.sendNanos = sendNanos;
        this.text = request.captureText() ? new StringBuilder() : null;
        this.reasoningText = request.captureText() ? new StringBuilder() : null;
        this.logprobPieces = request.logprobs() ? new ArrayList<>() : null;
        this.chunkPieces = request.logprobs() ? new ArrayList<>() : null;
    }

    /**
     * The request has been written to its connection, starting at {@code nanos}: latencies count from there, not from
     * the submission (which may have waited for a connection to open).
     */
    synchronized void bodySent(long nanos) {
        if (!finished) {
            sendNanos = nanos;
        }
    }

    CompletableFuture<RequestResult> result() {
        return result;
    }

    /**
     * Called when a failure should drop the connection (a timeout, a cap, a bad chunk); runs at once when the request
     * has already failed.
     */
    synchronized void onAbort(Runnable dropConnection) {
        if (finished && outcome.failureClass() != null) {
            dropConnection.run();
        } else {
            abort = dropConnection;
        }
    }

    synchronized boolean finished() {
        return finished;
    }

    /** Whether the request failed; false while it runs and when it succeeded. */
    synchronized boolean failed() {
        return finished && outcome.failureClass() != null;
    }

    /**
     * Once held, a success is decided but handed to whoever waits for it only at {@link #release()}, so the connection
     * can first go back to the pool: the next request of a closed loop then reuses it instead of opening another.
     */
    synchronized void hold() {
        held = true;
    }

    /**
     * Hands over a success decided while held; called at the end of each socket read's handling, so a success waits at
     * most for the rest of the read that decided it. Failures are never held.
     */
    void release() {
        RequestResult decided;
        synchronized (this) {
            decided = finished ? outcome : null;
        }
        if (decided != null) {
            result.complete(decided);
        }
    }

    synchronized void onHeaders(int statusCode, String contentType) {
        status = statusCode;
        eventStream = status == 200
                && contentType != null
                && contentType.toLowerCase().startsWith("text/event-stream");
        if (!eventStream) {
            rawBody = new byte[1024];
        }
    }

    /** Whether the response headers arrived. */
    synchronized boolean answered() {
        return status != 0;
    }

    /** Bytes of the body, as the socket read at {@code readNanos} returned them. */
    synchronized void onBody(ByteBuffer buffer, long readNanos) {
        if (finished) {
            return;
        }
        try {
            if (eventStream) {
                readEvents(buffer, readNanos);
            } else {
                keepBody(buffer);
            }
        } catch (ResponseTooLarge e) {
            fail(
                    FailureClass.TOO_LARGE,
                    e.getMessage() + (eventStream ? " after " + chunks + " chunks" : ""),
                    readNanos);
        } catch (IOException | RuntimeException e) {
            fail(FailureClass.BAD_RESPONSE, "unreadable chunk: " + e.getMessage(), readNanos);
        }
    }

    /** The connection broke after the response headers arrived. */
    synchronized void onBroken(Throwable error, long nanos) {
        fail(
                FailureClass.DISCONNECT,
                "connection broke after " + chunks + " chunks: " + FailureClass.describe(error),
                nanos);
    }

    /** The server sent something that is not HTTP/1.1, or headers past the client's cap. */
    synchronized void onUnreadable(String failureClass, String message) {
        fail(failureClass, message, System.nanoTime());
    }

    /** The body ended as HTTP framing says (last chunk, content length, or the server closing an unframed body). */
    synchronized void onEnd(long nanos) {
        if (!finished) {
            if (status != 200) {
                fail(FailureClass.http(status), errorText(), nanos);
            } else if (eventStream) {
                endOfStream(nanos);
            } else {
                readWholeBody(nanos);
            }
        }
    }

    /** The connection could not be used or no response arrived; classified by the exception. */
    synchronized void failBeforeResponse(Throwable error) {
        fail(
                FailureClass.of(error),
                "no response from " + request.uri() + ": " + FailureClass.reason(error),
                System.nanoTime());
    }

    /** The request's deadline passed: whatever arrived so far is kept, the connection is dropped. */
    synchronized void timeOut() {
        if (!finished) {
            fail(
                    FailureClass.TIMEOUT,
                    "no complete answer within " + request.timeout().toMillis() + " ms ("
                            + (status == 0 ? "no response headers" : chunks + " chunks received") + ")",
                    System.nanoTime());
        }
    }

    private void readEvents(ByteBuffer buffer, long now) throws IOException {
        while (buffer.hasRemaining() && !finished) {
            readEventSlice(buffer, now);
        }
    }

    /**
     * Copies as much of the buffer as one line and its line break can take behind the incomplete line left so far,
     * and handles every complete line in it; what follows the last newline waits for the next slice. So the line
     * buffer never holds more than one line, however large a socket read.
     */
    private void readEventSlice(ByteBuffer buffer, long now) throws IOException {
        int room = limits.lineBytes() + 2;
        int incoming = Math.min(buffer.remaining(), room - pendingLength);
        if (pendingLength + incoming > pending.length) {
            pending = Arrays.copyOf(pending, Math.min(room, Math.max(pendingLength + incoming, pending.length * 2)));
        }
        int scanFrom = pendingLength;
        buffer.get(pending, pendingLength, incoming);
        pendingLength += incoming;
        int lineStart = 0;
        for (int i = scanFrom; i < pendingLength; i++) {
            if (pending[i] != '\n') {
                continue;
            }
            int lineEnd = i > lineStart && pending[i - 1] == '\r' ? i - 1 : i;
            if (lineEnd - lineStart > limits.lineBytes()) {
                throw new ResponseTooLarge("response line", limits.lineBytes());
            }
            readLine(lineStart, lineEnd, now);
            lineStart = i + 1;
            if (finished) {
                return;
            }
        }
        pendingLength -= lineStart;
        if (pendingLength > limits.lineBytes()) {
            throw new ResponseTooLarge("response line", limits.lineBytes());
        }
        System.arraycopy(pending, lineStart, pending, 0, pendingLength);
    }

    private void readLine(int start, int end, long now) throws IOException {
        int length = end - start;
        if (length == 0) {
            dispatchEvent(now);
        } else if (length >= 5
                && pending[start] == 'd'
                && pending[start + 1] == 'a'
                && pending[start + 2] == 't'
                && pending[start + 3] == 'a'
                && pending[start + 4] == ':') {
            appendData(length > 5 && pending[start + 5] == ' ' ? start + 6 : start + 5, end);
        }
    }

    private void appendData(int start, int end) throws ResponseTooLarge {
        int needed = dataLength + (hasData ? 1 : 0) + end - start;
        if (needed > limits.eventBytes()) {
            throw new ResponseTooLarge("server-sent event", limits.eventBytes());
        }
        if (needed > data.length) {
            data = Arrays.copyOf(data, Math.min(limits.eventBytes(), Math.max(needed, data.length * 2)));
        }
        if (hasData) {
            data[dataLength++] = '\n';
        }
        System.arraycopy(pending, start, data, dataLength, end - start);
        dataLength += end - start;
        hasData = true;
    }

    private void dispatchEvent(long now) throws IOException {
        if (!hasData) {
            return;
        }
        hasData = false;
        int length = dataLength;
        dataLength = 0;
        if (Arrays.equals(data, 0, length, DONE, 0, DONE.length)) {
            done = true;
            endOfStream(now);
            return;
        }
        accept(CompletionChunk.parse(data, 0, length), now);
    }

    private void accept(CompletionChunk chunk, long now) {
        if (chunk.isError()) {
            int code = chunk.errorCode;
            fail(
                    code >= 400 && code < 600 ? FailureClass.http(code) : FailureClass.STREAM_ERROR,
                    "error in stream: " + chunk.errorMessage,
                    now);
            return;
        }
        if (responseId == null) {
            responseId = chunk.id;
        }
        int tokens = 0;
        if (chunk.completionTokens != CompletionChunk.ABSENT) {
            tokens = Math.max(0, chunk.completionTokens - cumulativeTokens);
            cumulativeTokens = Math.max(cumulativeTokens, chunk.completionTokens);
            completionTokens = chunk.completionTokens;
            usageOnChoiceChunks |= chunk.hasChoices;
        }
        if (chunk.promptTokens != CompletionChunk.ABSENT) {
            promptTokens = chunk.promptTokens;
        }
        if (chunk.cachedTokens != CompletionChunk.ABSENT) {
            cachedTokens = chunk.cachedTokens;
        }
        if (chunk.reasoningTokens != CompletionChunk.ABSENT) {
            reasoningTokens = chunk.reasoningTokens;
        }
        if (chunk.finishReason != null) {
            finishReason = chunk.finishReason;
        }
        int contentChars = chunk.content == null ? 0 : chunk.content.length();
        int reasoningChars = chunk.reasoning == null ? 0 : chunk.reasoning.length();
        int chars = contentChars + reasoningChars;
        if (chars > 0) {
            if (firstTokenNanos == RequestResult.NO_TIME) {
                firstTokenNanos = now;
            }
            if (contentChars > 0 && firstContentNanos == RequestResult.NO_TIME) {
                firstContentNanos = now;
            }
            textWithoutUsage |= chunk.completionTokens == CompletionChunk.ABSENT;
            capture(text, chunk.content);
            capture(reasoningText, chunk.reasoning);
        }
        if (chars > 0 || tokens > 0) {
            if (chunks >= maxChunks()) {
                fail(
                        FailureClass.TOO_LARGE,
                        "more than " + maxChunks() + " chunks with text or tokens for max_tokens "
                                + request.maxTokens(),
                        now);
                return;
            }
            addChunk(now, chars, tokens);
        }
        if (logprobPieces != null) {
            keepPieces(chunk);
        }
    }

    private int maxChunks() {
        return (int) Math.min(Integer.MAX_VALUE - 8, 2L * request.maxTokens() + EXTRA_CHUNKS);
    }

    private void keepPieces(CompletionChunk chunk) {
        if (chunk.logprobTokens != null) {
            sawLogprobs = true;
            chunk.logprobTokens.forEach(token -> addPiece(logprobPieces, token));
        }
        if (chunk.content != null && !chunk.content.isEmpty()) {
            addPiece(chunkPieces, chunk.content);
        }
    }

    private static void addPiece(List<String> pieces, String piece) {
        if (pieces.size() < RequestResult.MAX_TOKEN_PIECES) {
            pieces.add(
                    piece.length() > QualityOutput.MAX_PIECE_CHARS
                            ? piece.substring(0, QualityOutput.MAX_PIECE_CHARS)
                            : piece);
        }
    }

    private static void capture(StringBuilder target, String value) {
        if (target != null && value != null && target.length() < RequestResult.MAX_CAPTURED_CHARS) {
            target.append(value, 0, Math.min(value.length(), RequestResult.MAX_CAPTURED_CHARS - target.length()));
        }
    }

    private void addChunk(long now, int chars, int tokens) {
        if (chunks == chunkNanos.length) {
            chunkNanos = Arrays.copyOf(chunkNanos, chunks * 2);
            chunkChars = Arrays.copyOf(chunkChars, chunks * 2);
            chunkTokens = Arrays.copyOf(chunkTokens, chunks * 2);
        }
        chunkNanos[chunks] = now;
        chunkChars[chunks] = chars;
        chunkTokens[chunks] = tokens;
        chunks++;
    }

    private void endOfStream(long now) {
        if (!done && finishReason == null) {
            fail(FailureClass.DISCONNECT, "stream ended without [DONE] after " + chunks + " chunks", now);
            return;
        }
        succeed(now);
    }

    private void readWholeBody(long now) {
        CompletionChunk whole;
        try {
            whole = CompletionChunk.parse(rawBody, 0, rawLength);
        } catch (IOException e) {
            fail(FailureClass.BAD_RESPONSE, "response is not a completion: " + e.getMessage(), now);
            return;
        }
        accept(whole, now);
        if (!finished) {
            succeed(now);
        }
    }

    private void succeed(long now) {
        if (firstTokenNanos == RequestResult.NO_TIME) {
            fail(FailureClass.EMPTY_OUTPUT, "the server finished (" + finishReason + ") without a token", now);
            return;
        }
        TokenCounting counting;
        if (completionTokens == CompletionChunk.ABSENT) {
            counting = TokenCounting.COUNTED;
            keepTextChunks();
            Arrays.fill(chunkTokens, 0, chunks, 1);
        } else if (usageOnChoiceChunks && !textWithoutUsage) {
            counting = TokenCounting.SERVER_PER_CHUNK;
            keepChunksWithTokens();
        } else {
            counting = TokenCounting.SERVER_TOTAL;
            keepTextChunks();
            spreadTokens(completionTokens);
        }
        int output = counting == TokenCounting.COUNTED ? chunks : completionTokens;
        complete(null, null, now, output, counting);
    }

    private void keepTextChunks() {
        int kept = 0;
        for (int i = 0; i < chunks; i++) {
            if (chunkChars[i] > 0) {
                chunkNanos[kept] = chunkNanos[i];
                chunkChars[kept] = chunkChars[i];
                kept++;
            }
        }
        chunks = kept;
    }

    private void keepChunksWithTokens() {
        int kept = 0;
        for (int i = 0; i < chunks; i++) {
            if (chunkTokens[i] > 0) {
                chunkNanos[kept] = chunkNanos[i];
                chunkTokens[kept] = chunkTokens[i];
                kept++;
            }
        }
        chunks = kept;
    }

    /** One token per chunk when there are enough, the rest in proportion to characters, summing exactly to total. */
    private void spreadTokens(int total) {
        int base = total >= chunks ? 1 : 0;
        long surplus = total - (long) base * chunks;
        long allChars = 0;
        for (int i = 0; i < chunks; i++) {
            allChars += chunkChars[i];
        }
        long seenChars = 0;
        long assigned = 0;
        for (int i = 0; i < chunks; i++) {
            seenChars += chunkChars[i];
            long target = Math.round((double) surplus * seenChars / allChars);
            chunkTokens[i] = (int) (base + target - assigned);
            assigned = target;
        }
        keepChunksWithTokens();
    }

    private void fail(String failureClass, String message, long now) {
        complete(
                failureClass,
                message.length() > MAX_ERROR_MESSAGE_CHARS
                        ? message.substring(0, MAX_ERROR_MESSAGE_CHARS) + "…"
                        : message,
                now,
                completionTokens == CompletionChunk.ABSENT ? 0 : completionTokens,
                TokenCounting.COUNTED);
    }

    private void complete(String failureClass, String message, long now, int outputTokens, TokenCounting counting) {
        if (finished) {
            return;
        }
        finished = true;
        outcome = new RequestResult(
                failureClass,
                message,
                status,
                responseId,
                sendNanos,
                firstTokenNanos,
                firstContentNanos,
                now,
                Math.max(0, promptTokens),
                cachedTokens == CompletionChunk.ABSENT || promptTokens < 0
                        ? RequestResult.NOT_REPORTED
                        : Math.min(cachedTokens, promptTokens),
                outputTokens,
                Math.max(0, reasoningTokens),
                counting,
                finishReason,
                Arrays.copyOf(chunkNanos, chunks),
                Arrays.copyOf(chunkTokens, chunks),
                text == null ? null : text.toString(),
                reasoningText == null ? null : reasoningText.toString(),
                logprobPieces == null ? null : List.copyOf(sawLogprobs ? logprobPieces : chunkPieces));
        if (failureClass != null && abort != null) {
            abort.run();
        }
        if (failureClass != null || !held) {
            result.complete(outcome);
        }
    }

    private void keepBody(ByteBuffer buffer) throws ResponseTooLarge {
        if (status == 200 && rawLength + buffer.remaining() > limits.bodyBytes()) {
            throw new ResponseTooLarge("response body", limits.bodyBytes());
        }
        int cap = status == 200 ? limits.bodyBytes() : MAX_ERROR_BODY;
        int take = Math.min(buffer.remaining(), cap - rawLength);
        if (rawLength + take > rawBody.length) {
            rawBody = Arrays.copyOf(rawBody, Math.min(cap, Math.max(rawLength + take, rawBody.length * 2)));
        }
        buffer.get(rawBody, rawLength, take);
        rawLength += take;
        buffer.position(buffer.limit());
    }

    private String errorText() {
        try {
            CompletionChunk error = CompletionChunk.parse(rawBody, 0, rawLength);
            if (error.errorMessage != null) {
                return error.errorMessage;
            }
        } catch (IOException | RuntimeException notJson) {
            // a plain-text error body is shown as it is
        }
        String raw = new String(rawBody, 0, rawLength, StandardCharsets.UTF_8).strip();
        return raw.isEmpty() ? "HTTP " + status + " without a body" : raw.length() > 300 ? raw.substring(0, 300) : raw;
    }
}
