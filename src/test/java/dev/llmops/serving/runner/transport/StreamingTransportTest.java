package dev.llmops.serving.runner.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The Netty transport against raw loopback servers: when chunks are timestamped, how failures are classed. */
class StreamingTransportTest {

    private static OpenAiClient client;

    @BeforeAll
    static void createClient() {
        client = OpenAiClient.create(1, Duration.ofSeconds(5));
    }

    @AfterAll
    static void closeClient() {
        client.close();
    }

    @Test
    void aReadIsTimestampedWhenTheSocketReturnsItNotWhenItIsParsed() throws InterruptedException {
        ReadClock clock = new ReadClock();
        List<Long> seen = new ArrayList<>();
        EmbeddedChannel channel = new EmbeddedChannel(clock, new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object message) {
                seen.add(clock.readNanos());
                ReferenceCountUtil.release(message);
            }
        });
        long before = System.nanoTime();
        channel.pipeline().fireChannelRead(Unpooled.wrappedBuffer(new byte[] {'a'}));
        long after = System.nanoTime();
        assertThat(seen).as("handled later, as a task of the event loop").isEmpty();
        Thread.sleep(200);
        channel.runPendingTasks();

        assertThat(seen).hasSize(1);
        assertThat(seen.get(0)).isBetween(before, after);
        channel.finishAndReleaseAll();
    }

    @Test
    void aDelayedChunkIsRecordedWithTheGapTheServerLeft() throws IOException {
        List<Long> written = new CopyOnWriteArrayList<>();
        try (RawServer server = new RawServer(out -> {
            out.write(streamHeaders());
            for (int i = 0; i < 4; i++) {
                if (i == 2) {
                    pause(400);
                }
                written.add(System.nanoTime());
                out.write(chunk("data: {\"id\":\"r\",\"choices\":[{\"delta\":{\"content\":\"t" + i + "\"}}]}\n\n"));
                out.flush();
            }
            out.write(chunk("data: {\"id\":\"r\",\"choices\":[{\"delta\":{},\"finish_reason\":\"length\"}]}\n\n"
                    + "data: [DONE]\n\n"));
            out.write(lastChunk());
        })) {
            RequestResult result = client.complete(server.request()).join();

            assertThat(result.succeeded()).as(result.errorMessage()).isTrue();
            long[] received = result.tokenChunkNanos();
            assertThat(received).hasSize(4);
            for (int i = 0; i < 4; i++) {
                assertThat(received[i] - written.get(i))
                        .as("chunk %d: received after it was written, and soon", i)
                        .isBetween(0L, TimeUnit.MILLISECONDS.toNanos(150));
            }
            long serverGap = written.get(2) - written.get(1);
            assertThat(received[2] - received[1])
                    .isBetween(
                            serverGap - TimeUnit.MILLISECONDS.toNanos(150),
                            serverGap + TimeUnit.MILLISECONDS.toNanos(150));
        }
    }

    @Test
    void aConnectionClosedMidStreamIsADisconnect() throws IOException {
        try (RawServer server = new RawServer(out -> {
            out.write(streamHeaders());
            out.write(chunk("data: {\"id\":\"r\",\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\n"));
        })) {
            RequestResult result = client.complete(server.request()).join();
            assertThat(result.failureClass()).isEqualTo(FailureClass.DISCONNECT);
            assertThat(result.errorMessage()).startsWith("connection broke after 1 chunks");
            assertThat(result.ttft()).isPresent();
        }
    }

    @Test
    void aConnectionClosedBeforeTheAnswerIsADisconnectWithoutResponse() throws IOException {
        try (RawServer server = new RawServer(out -> {})) {
            RequestResult result = client.complete(server.request()).join();
            assertThat(result.failureClass()).isEqualTo(FailureClass.DISCONNECT);
            assertThat(result.errorMessage()).startsWith("no response from http://127.0.0.1:");
            assertThat(result.httpStatus()).isZero();
        }
    }

    @Test
    void anAnswerThatIsNotHttpIsABadResponse() throws IOException {
        try (RawServer server = new RawServer(out -> out.write(ascii("SSH-2.0-OpenSSH_9.6\r\n\r\n")))) {
            RequestResult result = client.complete(server.request()).join();
            assertThat(result.failureClass()).isEqualTo(FailureClass.BAD_RESPONSE);
            assertThat(result.errorMessage()).startsWith("not an HTTP/1.1 response");
        }
    }

    @Test
    void endlessHeadersFailAtTheHeaderCap() throws IOException {
        try (RawServer server = new RawServer(out -> {
            out.write(ascii("HTTP/1.1 200 OK\r\n"));
            for (int i = 0; i < 2000; i++) {
                out.write(ascii("X-Filler-" + i + ": " + "x".repeat(60) + "\r\n"));
            }
            out.write(ascii("\r\n"));
        })) {
            RequestResult result = client.complete(server.request()).join();
            assertThat(result.failureClass()).isEqualTo(FailureClass.TOO_LARGE);
            assertThat(result.errorMessage()).isEqualTo("response headers exceed 64 KiB");
        }
    }

    @Test
    void requestsOneAfterAnotherShareOneConnection() throws IOException {
        try (RawServer server = new RawServer(out -> {
            out.write(streamHeaders());
            // the last event and the terminating chunk in one write, as a server that is done sends them
            out.write(concat(
                    chunk("data: {\"id\":\"r\",\"choices\":[{\"delta\":{\"content\":\"Hi\"},"
                            + "\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"),
                    lastChunk()));
        })) {
            for (int i = 0; i < 3; i++) {
                RequestResult result = client.complete(server.request()).join();
                assertThat(result.succeeded()).as(result.errorMessage()).isTrue();
                assertThat(result.sendNanos()).isLessThan(result.firstTokenNanos());
            }
            assertThat(server.connections.get()).isEqualTo(1);
            assertThat(server.requests.get()).isEqualTo(3);
        }
    }

    private static byte[] streamHeaders() {
        return ascii("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n");
    }

    private static byte[] chunk(String data) {
        byte[] bytes = data.getBytes(StandardCharsets.UTF_8);
        return ascii(Integer.toHexString(bytes.length) + "\r\n" + data + "\r\n");
    }

    private static byte[] lastChunk() {
        return ascii("0\r\n\r\n");
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = java.util.Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What the server writes after reading a request; when it returns without a last chunk, the connection closes. */
    @FunctionalInterface
    interface Answer {
        void write(OutputStream out) throws IOException;
    }

    /**
     * A loopback server that reads HTTP/1.1 requests (headers and a Content-Length body) and answers each with the
     * given bytes; it keeps a connection open for the next request only when the answer ended with a last chunk.
     */
    static final class RawServer implements AutoCloseable {
        final AtomicInteger connections = new AtomicInteger();
        final AtomicInteger requests = new AtomicInteger();
        private final ServerSocket socket;
        private final Answer answer;
        private final Thread acceptor;

        RawServer(Answer answer) throws IOException {
            this.answer = answer;
            this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            this.acceptor = new Thread(this::accept, "raw-server");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        CompletionRequest request() {
            return CompletionRequest.builder("http://127.0.0.1:" + socket.getLocalPort(), "m")
                    .timeout(Duration.ofSeconds(10))
                    .build();
        }

        private void accept() {
            while (!socket.isClosed()) {
                try {
                    Socket connection = socket.accept();
                    connections.incrementAndGet();
                    Thread serving = new Thread(() -> serve(connection), "raw-server-connection");
                    serving.setDaemon(true);
                    serving.start();
                } catch (IOException closed) {
                    return;
                }
            }
        }

        private void serve(Socket connection) {
            try (connection) {
                InputStream in = connection.getInputStream();
                OutputStream out = connection.getOutputStream();
                while (readRequest(in)) {
                    requests.incrementAndGet();
                    var recorded = new RecordingStream(out);
                    answer.write(recorded);
                    out.flush();
                    if (!recorded.endedWithLastChunk()) {
                        return;
                    }
                }
            } catch (IOException gone) {
                // the client closed the connection
            }
        }

        private static boolean readRequest(InputStream in) throws IOException {
            StringBuilder head = new StringBuilder();
            while (!head.toString().endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    return false;
                }
                head.append((char) b);
            }
            int length = 0;
            for (String line : head.toString().split("\r\n")) {
                if (line.toLowerCase().startsWith("content-length:")) {
                    length = Integer.parseInt(line.substring(15).trim());
                }
            }
            in.readNBytes(length);
            return true;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /** Passes bytes through and remembers whether the last ones were the chunked encoding's terminator. */
    private static final class RecordingStream extends OutputStream {
        private final OutputStream out;
        private byte[] last = new byte[0];

        RecordingStream(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b});
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            out.write(bytes, offset, length);
            last = java.util.Arrays.copyOfRange(bytes, offset, offset + length);
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        boolean endedWithLastChunk() {
            return new String(last, StandardCharsets.US_ASCII).endsWith("0\r\n\r\n");
        }
    }
}
