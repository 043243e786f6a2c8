package dev.llmops.serving.modelserver;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A bare HTTP server on a loopback address that records every request it gets and answers with what a test gives it,
 * so tests see exactly what reaches a pod and can answer in ways the simulator does not.
 */
public final class LoopbackHttp implements AutoCloseable {

    /** One request as it arrived; {@code authorization} is its Authorization header, or null. */
    record Request(String method, String path, String authorization) {}

    /** What the server sends back for a request. */
    @FunctionalInterface
    public interface Answer {
        public void send(HttpExchange exchange) throws IOException;
    }

    /** A streamed chat completion of one token for a generation; 200 with no body for anything else (/health). */
    public static final Answer ONE_TOKEN = exchange -> {
        if (exchange.getRequestURI().getPath().endsWith("/chat/completions")) {
            send(exchange, 200, "text/event-stream", """
                    data: {"id":"c1","choices":[{"index":0,"delta":{"content":"Ready."},"finish_reason":null}]}

                    data: {"id":"c1","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],\
                    "usage":{"prompt_tokens":9,"completion_tokens":1,"total_tokens":10}}

                    data: [DONE]

                    """.getBytes(StandardCharsets.UTF_8));
        } else {
            send(exchange, 200, "application/json", new byte[0]);
        }
    };

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    private LoopbackHttp(HttpServer server) {
        this.server = server;
    }

    public static LoopbackHttp start(String host, Answer answer) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(host, 0), 0);
            LoopbackHttp http = new LoopbackHttp(server);
            server.createContext("/", exchange -> {
                http.requests.add(new Request(
                        exchange.getRequestMethod(),
                        exchange.getRequestURI().getPath(),
                        exchange.getRequestHeaders().getFirst("Authorization")));
                exchange.getRequestBody().readAllBytes();
                try (exchange) {
                    answer.send(exchange);
                }
            });
            server.setExecutor(http.threads);
            server.start();
            return http;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends the whole body with its length. */
    public static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public URI baseUrl() {
        return URI.create("http://" + server.getAddress().getHostString() + ":" + port());
    }

    public List<Request> requests() {
        return List.copyOf(requests);
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
