package dev.llmops.serving.e2e.support;

import dev.llmops.serving.demo.apiserver.PodLogSource;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.PemKeyCertOptions;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one kubelet API the fake fleet serves: {@code GET /containerLogs/{namespace}/{pod}/{container}} over HTTPS on
 * loopback, from the kubelet stand-in's recorded logs, so kube-apiserver answers {@code pods/log} (kubectl logs, the
 * operator's progress and samples) as it does with a real kubelet. The API server has no kubelet CA and so does not
 * verify the certificate; it presents no client certificate either, and this server asks for none.
 */
final class KubeletLogServer implements AutoCloseable {

    /** The kubelet's log path: namespace, pod and container names, which never hold a slash or need decoding. */
    static final Pattern PATH = Pattern.compile("^/containerLogs/([^/]+)/([^/]+)/([^/]+)$");

    private static final long START_TIMEOUT_SECONDS = 30;

    private final Vertx vertx;
    private final HttpServer server;
    private final PodLogSource logs;

    private KubeletLogServer(Vertx vertx, PodLogSource logs, PemKeyCertOptions certificate) {
        this.vertx = vertx;
        this.logs = logs;
        this.server = vertx.createHttpServer(new HttpServerOptions()
                        .setHost("127.0.0.1")
                        .setPort(0)
                        .setSsl(true)
                        .setKeyCertOptions(certificate))
                .requestHandler(this::serve);
    }

    /** Serves logs on a free loopback port with the given PEM certificate and key (any: the API server trusts all). */
    static KubeletLogServer start(PodLogSource logs, Path certificate, Path key) {
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1));
        KubeletLogServer logServer = new KubeletLogServer(
                vertx,
                logs,
                new PemKeyCertOptions().setCertPath(certificate.toString()).setKeyPath(key.toString()));
        try {
            logServer
                    .server
                    .listen()
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (Exception e) {
            logServer.close();
            throw new IllegalStateException("The kubelet log server did not start", e);
        }
        return logServer;
    }

    int port() {
        return server.actualPort();
    }

    private void serve(HttpServerRequest request) {
        Matcher path = PATH.matcher(request.path());
        if (!path.matches()) {
            reply(request, HttpURLConnection.HTTP_NOT_FOUND, "404 page not found");
            return;
        }
        if (request.method() != HttpMethod.GET) {
            reply(request, HttpURLConnection.HTTP_BAD_METHOD, "method " + request.method() + " not allowed");
            return;
        }
        String namespace = path.group(1);
        String pod = path.group(2);
        String container = path.group(3);
        Optional<Integer> tailLines;
        Optional<Integer> limitBytes;
        try {
            tailLines = wholeNumber(request, "tailLines", 0);
            limitBytes = wholeNumber(request, "limitBytes", 1);
        } catch (IllegalArgumentException e) {
            reply(request, HttpURLConnection.HTTP_BAD_REQUEST, e.getMessage());
            return;
        }
        Optional<String> log = logs.log(namespace, pod, container);
        if (log.isEmpty()) {
            reply(
                    request,
                    HttpURLConnection.HTTP_NOT_FOUND,
                    "pod \"" + namespace + "/" + pod + "\" has no container \"" + container + "\" on this node");
        } else if ("true".equals(request.getParam("previous"))) {
            // The stand-in never restarts a container, so there is no previous instance, as on a kubelet.
            reply(
                    request,
                    HttpURLConnection.HTTP_BAD_REQUEST,
                    "previous terminated container \"" + container + "\" in pod \"" + pod + "\" not found");
        } else {
            String text =
                    tailLines.map(lines -> PodLogSource.tail(log.get(), lines)).orElse(log.get());
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            if (limitBytes.isPresent() && limitBytes.get() < bytes.length) {
                bytes = Arrays.copyOf(bytes, limitBytes.get());
            }
            request.response().putHeader("Content-Type", "text/plain").end(Buffer.buffer(bytes));
        }
    }

    /** The parameter's value, empty when absent; throws, naming it, when it is not a whole number of at least min. */
    private static Optional<Integer> wholeNumber(HttpServerRequest request, String name, int minimum) {
        String value = request.getParam(name);
        if (value == null) {
            return Optional.empty();
        }
        if (!value.matches("\\d{1,9}") || Integer.parseInt(value) < minimum) {
            throw new IllegalArgumentException(
                    name + ": must be a whole number of at least " + minimum + ", not " + value);
        }
        return Optional.of(Integer.parseInt(value));
    }

    private static void reply(HttpServerRequest request, int code, String message) {
        request.response()
                .setStatusCode(code)
                .putHeader("Content-Type", "text/plain")
                .end(message);
    }

    @Override
    public void close() {
        vertx.close()
                .toCompletionStage()
                .toCompletableFuture()
                .orTimeout(10, TimeUnit.SECONDS)
                .join();
    }
}
