package dev.llmops.serving.runner.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.URI;
import java.time.Duration;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

/**
 * HTTP/1.1 on Netty for streamed completions: one connection per request in flight, idle ones kept for reuse by
 * requests to the same server with the same header cap ({@link ResponseLimits#headerBytes}), every socket read
 * timestamped by a {@link ReadClock} at the head of the pipeline before TLS, decoding or parsing.
 */
final class StreamingTransport implements AutoCloseable {

    private static final int MAX_INITIAL_LINE_BYTES = 4096;
    private static final int MAX_DECODED_CHUNK_BYTES = 64 * 1024;

    private final EventLoopGroup loops;
    private final Bootstrap bootstrap;
    private final Map<String, Deque<Channel>> idle = new ConcurrentHashMap<>();
    private volatile SslContext tls;

    StreamingTransport(int eventLoops, Duration connectTimeout) {
        this.loops = new NioEventLoopGroup(eventLoops, new DefaultThreadFactory("openai-client", true));
        this.bootstrap = new Bootstrap()
                .group(loops)
                .channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int)
                        Math.min(Integer.MAX_VALUE, connectTimeout.toMillis()));
    }

    /** The event loops: they read the sockets and parse every response, so their queueing delay is the client's lag. */
    EventLoopGroup loops() {
        return loops;
    }

    /** Sends the request on an idle connection to its server, or a new one, and feeds the answer to the reader. */
    void send(CompletionRequest request, byte[] body, ResponseReader reader) {
        Target target;
        try {
            target = Target.of(request.uri());
            if (target.tls()) {
                ensureTls();
            }
        } catch (IllegalArgumentException | SSLException e) {
            reader.failBeforeResponse(e);
            return;
        }
        FullHttpRequest http = new DefaultFullHttpRequest(
                HttpVersion.HTTP_1_1, HttpMethod.POST, target.path(), Unpooled.wrappedBuffer(body));
        http.headers()
                .set(HttpHeaderNames.HOST, target.hostHeader())
                .set(HttpHeaderNames.CONTENT_TYPE, "application/json")
                .set(HttpHeaderNames.ACCEPT, request.stream() ? "text/event-stream" : "application/json")
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        if (request.apiKey() != null) {
            http.headers().set(HttpHeaderNames.AUTHORIZATION, "Bearer " + request.apiKey());
        }
        request.headers().forEach(http.headers()::set);
        int headerBytes = request.limits().headerBytes();
        String pool = target.key() + " headers<=" + headerBytes;
        Channel reused = takeIdle(pool);
        Channel channel = reused != null ? reused : connect(target, pool, headerBytes, reader, http);
        var deadline =
                channel.eventLoop().schedule(reader::timeOut, request.timeout().toNanos(), TimeUnit.NANOSECONDS);
        reader.result().whenComplete((result, error) -> deadline.cancel(false));
        if (reused != null) {
            channel.eventLoop().execute(() -> exchange(channel, pool, reader, http));
        }
    }

    /**
     * Opens a connection whose decoder refuses headers past {@code headerBytes}; it goes back to {@code pool}, so only
     * requests with the same header cap reuse it.
     */
    private Channel connect(Target target, String pool, int headerBytes, ResponseReader reader, FullHttpRequest http) {
        ChannelFuture connecting = bootstrap
                .clone()
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        ReadClock clock = new ReadClock();
                        channel.pipeline().addLast(clock);
                        if (target.tls()) {
                            channel.pipeline().addLast(tlsHandler(channel, target));
                        }
                        channel.pipeline()
                                .addLast(new HttpClientCodec(
                                        MAX_INITIAL_LINE_BYTES, headerBytes, MAX_DECODED_CHUNK_BYTES))
                                .addLast(new ExchangeHandler(clock, headerBytes));
                    }
                })
                .connect(target.host(), target.port());
        Channel channel = connecting.channel();
        channel.closeFuture().addListener(closed -> {
            Deque<Channel> waiting = idle.get(pool);
            if (waiting != null) {
                waiting.remove(channel);
            }
        });
        connecting.addListener(connected -> {
            if (connected.isSuccess()) {
                exchange(channel, pool, reader, http);
            } else {
                http.release();
                reader.failBeforeResponse(connected.cause());
            }
        });
        return channel;
    }

    /** On the connection's event loop: hands it the reader, then writes the request. */
    private void exchange(Channel channel, String pool, ResponseReader reader, FullHttpRequest http) {
        ExchangeHandler handler = channel.pipeline().get(ExchangeHandler.class);
        if (reader.finished() || handler == null || !channel.isActive()) {
            http.release();
            if (!reader.finished()) {
                reader.failBeforeResponse(new java.io.IOException("the connection closed before the request was sent"));
            }
            channel.close();
            return;
        }
        handler.begin(
                reader,
                () -> idle.computeIfAbsent(pool, k -> new ConcurrentLinkedDeque<>())
                        .offerLast(channel));
        reader.onAbort(channel::close);
        // Stamped before the write: the server cannot have the request earlier, so no latency counts less than the
        // server's own (a stamp after the write can come after the server has already started on it).
        long sending = System.nanoTime();
        channel.writeAndFlush(http).addListener(written -> {
            if (written.isSuccess()) {
                reader.bodySent(sending);
            } else {
                reader.failBeforeResponse(written.cause());
                channel.close();
            }
        });
    }

    private Channel takeIdle(String key) {
        Deque<Channel> waiting = idle.get(key);
        if (waiting == null) {
            return null;
        }
        for (Channel channel = waiting.pollLast(); channel != null; channel = waiting.pollLast()) {
            if (channel.isActive()) {
                return channel;
            }
        }
        return null;
    }

    private SslHandler tlsHandler(Channel channel, Target target) {
        SslHandler handler = tls.newHandler(channel.alloc(), target.host(), target.port());
        SSLEngine engine = handler.engine();
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        engine.setSSLParameters(parameters);
        return handler;
    }

    private void ensureTls() throws SSLException {
        if (tls == null) {
            synchronized (this) {
                if (tls == null) {
                    tls = SslContextBuilder.forClient().build();
                }
            }
        }
    }

    /** Where a request goes: the connection's address, whether it is TLS, and what the request line and Host say. */
    record Target(String host, int port, boolean tls, String hostHeader, String path) {

        static Target of(URI uri) {
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase();
            if (!scheme.equals("http") && !scheme.equals("https")) {
                throw new IllegalArgumentException("the URL must start with http:// or https://: " + uri);
            }
            if (uri.getHost() == null) {
                throw new IllegalArgumentException("the URL has no host: " + uri);
            }
            boolean tls = scheme.equals("https");
            int port = uri.getPort() != -1 ? uri.getPort() : tls ? 443 : 80;
            String host = uri.getHost();
            String address = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
            String path = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                    + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
            return new Target(address, port, tls, uri.getPort() == -1 ? host : host + ":" + port, path);
        }

        /** Connections are shared by requests with the same key. */
        String key() {
            return (tls ? "https://" : "http://") + hostHeader;
        }
    }

    @Override
    public void close() {
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(2, TimeUnit.SECONDS);
    }
}
