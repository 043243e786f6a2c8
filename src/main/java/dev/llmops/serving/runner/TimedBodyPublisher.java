package dev.llmops.serving.runner;

import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.util.concurrent.Flow;
import java.util.function.LongConsumer;

/**
 * A request body that notes when the HTTP client has taken all of it, so a request's send time is when the server can
 * have it rather than when it was queued for a connection that was still being opened.
 */
final class TimedBodyPublisher implements HttpRequest.BodyPublisher {

    private final HttpRequest.BodyPublisher bytes;
    private final LongConsumer sent;

    TimedBodyPublisher(byte[] body, LongConsumer sent) {
        this.bytes = HttpRequest.BodyPublishers.ofByteArray(body);
        this.sent = sent;
    }

    @Override
    public long contentLength() {
        return bytes.contentLength();
    }

    @Override
    public void subscribe(Flow.Subscriber<? super ByteBuffer> connection) {
        bytes.subscribe(new Flow.Subscriber<ByteBuffer>() {
            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                connection.onSubscribe(subscription);
            }

            @Override
            public void onNext(ByteBuffer item) {
                connection.onNext(item);
            }

            @Override
            public void onError(Throwable error) {
                connection.onError(error);
            }

            @Override
            public void onComplete() {
                connection.onComplete();
                sent.accept(System.nanoTime());
            }
        });
    }
}
