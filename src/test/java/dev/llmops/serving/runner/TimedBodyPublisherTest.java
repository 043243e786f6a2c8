package dev.llmops.serving.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The send time is taken when the connection has taken the whole body, not when the request was built. */
class TimedBodyPublisherTest {

    @Test
    void notesTheTimeAfterTheLastByteWasTaken() throws Exception {
        AtomicLong sent = new AtomicLong();
        TimedBodyPublisher publisher =
                new TimedBodyPublisher("{\"model\":\"m\"}".getBytes(StandardCharsets.UTF_8), sent::set);
        ByteArrayOutputStream taken = new ByteArrayOutputStream();
        AtomicLong completed = new AtomicLong();
        Flow.Subscription[] subscription = new Flow.Subscription[1];
        publisher.subscribe(new Flow.Subscriber<ByteBuffer>() {
            @Override
            public void onSubscribe(Flow.Subscription s) {
                subscription[0] = s;
            }

            @Override
            public void onNext(ByteBuffer item) {
                byte[] bytes = new byte[item.remaining()];
                item.get(bytes);
                taken.writeBytes(bytes);
            }

            @Override
            public void onError(Throwable error) {
                throw new AssertionError(error);
            }

            @Override
            public void onComplete() {
                completed.set(System.nanoTime());
            }
        });
        Thread.sleep(20);
        assertThat(sent.get()).as("nothing taken yet").isZero();

        subscription[0].request(Long.MAX_VALUE);

        assertThat(taken.toString(StandardCharsets.UTF_8)).isEqualTo("{\"model\":\"m\"}");
        assertThat(publisher.contentLength()).isEqualTo(13);
        assertThat(completed.get()).isPositive();
        assertThat(sent.get()).isGreaterThanOrEqualTo(completed.get());
    }
}
