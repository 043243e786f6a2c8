package dev.llmops.serving.runner.transport;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body read as UTF-8 text up to a cap: past it the read stops, the connection is dropped and the body fails
 * with {@link ResponseTooLarge}, so a server that never ends its body costs the client no more than the cap.
 */
final class BoundedText implements HttpResponse.BodySubscriber<String> {

    private final int maxBytes;
    private final CompletableFuture<String> result = new CompletableFuture<>();
    private Flow.Subscription subscription;
    private byte[] bytes = new byte[256];
    private int length;

    BoundedText(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** Bytes received so far, for a message saying how far a slow body got. */
    synchronized int received() {
        return length;
    }

    /** Stops reading: the body will not complete unless it already has. */
    synchronized void cancel() {
        if (subscription != null) {
            subscription.cancel();
        }
    }

    @Override
    public CompletionStage<String> getBody() {
        return result;
    }

    @Override
    public synchronized void onSubscribe(Flow.Subscription value) {
        subscription = value;
        value.request(Long.MAX_VALUE);
    }

    @Override
    public synchronized void onNext(List<ByteBuffer> buffers) {
        if (result.isDone()) {
            return;
        }
        for (ByteBuffer buffer : buffers) {
            int incoming = buffer.remaining();
            if (length + incoming > maxBytes) {
                subscription.cancel();
                result.completeExceptionally(new ResponseTooLarge("response body", maxBytes));
                return;
            }
            if (length + incoming > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.min(maxBytes, Math.max(length + incoming, bytes.length * 2)));
            }
            buffer.get(bytes, length, incoming);
            length += incoming;
        }
    }

    @Override
    public void onError(Throwable error) {
        result.completeExceptionally(error);
    }

    @Override
    public synchronized void onComplete() {
        result.complete(new String(bytes, 0, length, StandardCharsets.UTF_8));
    }
}
