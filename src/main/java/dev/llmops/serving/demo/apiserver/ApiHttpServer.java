package dev.llmops.serving.demo.apiserver;

import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.vertx.HttpServerRequestHandler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The HTTP server in front of the store: the fabric8 mock server's request handling (whole responses, and WebSocket
 * watches for fabric8 clients) for every request but kubectl's plain HTTP watches, which {@link HttpWatches} streams.
 * The mock web server itself answers only whole responses, and keeps every request it served.
 */
final class ApiHttpServer implements AutoCloseable {

    /** The subprotocols kube-apiserver offers for exec, attach and port-forward streams. */
    private static final List<String> WEBSOCKET_SUBPROTOCOLS =
            List.of("v1.channel.k8s.io", "v2.channel.k8s.io", "v3.channel.k8s.io", "v4.channel.k8s.io");

    private static final long STOP_SECONDS = 10;

    private final Vertx vertx;
    private final HttpServer server;
    private final HttpWatches watches;

    private ApiHttpServer(Vertx vertx, HttpServer server, HttpWatches watches) {
        this.vertx = vertx;
        this.server = server;
        this.watches = watches;
    }

    static ApiHttpServer start(InetAddress address, int port, Dispatcher dispatcher, HttpWatches watches) {
        Vertx vertx = Vertx.vertx();
        HttpServerRequestHandler whole = new HttpServerRequestHandler(vertx) {
            @Override
            protected MockResponse onHttpRequest(RecordedRequest request) {
                return dispatcher.dispatch(request);
            }
        };
        HttpServer server = vertx.createHttpServer(new HttpServerOptions()
                        .setHost(address.getHostAddress())
                        .setPort(port)
                        .setWebSocketSubProtocols(WEBSOCKET_SUBPROTOCOLS)
                        .setHandle100ContinueAutomatically(true))
                .requestHandler(request -> {
                    if (HttpWatches.isHttpWatch(request)) {
                        watches.open(vertx, request);
                    } else {
                        whole.handle(request);
                    }
                });
        try {
            server.listen().toCompletionStage().toCompletableFuture().get(STOP_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            vertx.close();
            throw new IllegalStateException("cannot listen on " + address.getHostAddress() + ":" + port, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            vertx.close();
            throw new IllegalStateException("interrupted while starting to listen", e);
        }
        return new ApiHttpServer(vertx, server, watches);
    }

    int port() {
        return server.actualPort();
    }

    /** Ends every watch, then stops listening. */
    @Override
    public void close() {
        watches.endAll();
        try {
            vertx.close().toCompletionStage().toCompletableFuture().get(STOP_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the embedded API did not stop within " + STOP_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
