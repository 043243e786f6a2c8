package dev.llmops.serving.demo.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * kubectl's watches (GET ...?watch=true without a WebSocket upgrade): one chunked response per watch, a line of JSON
 * per event — the object, or with the Table media type a one-row Table — from the list's resourceVersion (or, without
 * one, every current object as ADDED) until the client goes away, the timeoutSeconds it asked for pass, or the API
 * stops. A client that does not read its events is cut off once {@value #MOST_UNSENT_BYTES} bytes wait for it, as
 * kube-apiserver drops a watcher that cannot keep up, and at most {@value #MOST_WATCHES} watches are open at once.
 */
final class HttpWatches {

    static final int MOST_WATCHES = 100;
    static final int MOST_UNSENT_BYTES = 1 << 20;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern WATCH_PARAMETER = Pattern.compile("(?<=[?&])watch=[^&]*&?");

    private final ApplyAwareCrudDispatcher store;
    private final ServerSideTables tables;
    private final Set<Watch> open = ConcurrentHashMap.newKeySet();

    HttpWatches(ApplyAwareCrudDispatcher store, ServerSideTables tables) {
        this.store = store;
        this.tables = tables;
    }

    static boolean isHttpWatch(HttpServerRequest request) {
        String watch = request.getParam("watch");
        String upgrade = request.getHeader("Upgrade");
        return request.method() == HttpMethod.GET
                && ("true".equals(watch) || "1".equals(watch))
                && (upgrade == null || !upgrade.toLowerCase(Locale.ROOT).contains("websocket"));
    }

    void open(Vertx vertx, HttpServerRequest request) {
        HttpServerResponse response = request.response();
        if (open.size() >= MOST_WATCHES) {
            send(response, ApiResponses.status(429, "TooManyRequests", "too many watches are open"));
            return;
        }
        ApiRequestLine line = ApiRequestLine.parse(request.uri());
        String listPath =
                WATCH_PARAMETER.matcher(request.uri()).replaceFirst("").replaceFirst("[?&]$", "");
        Optional<String> requested =
                line.parameter("resourceVersion").filter(version -> !version.isEmpty() && !"0".equals(version));
        long after;
        List<String> current = new ArrayList<>();
        try {
            after = requested.map(Long::parseLong).orElse(-1L);
        } catch (NumberFormatException e) {
            send(response, ApiResponses.status(400, "BadRequest", "invalid resourceVersion: " + requested.get()));
            return;
        }
        if (requested.isEmpty()) {
            JsonNode list =
                    ResourceVersions.read(store.handleGet(listPath).getBody().readUtf8());
            list.path("items").forEach(item -> current.add(item.toString()));
            after = list.path("metadata").path("resourceVersion").asLong(0);
        }
        Optional<TableColumns> table = asksForTable(request)
                ? tables.forPath(ApiRequestLine.parse(listPath).path())
                : Optional.empty();
        Watch watch = new Watch(
                response,
                store.getKey(listPath),
                table,
                line.parameter("includeObject").orElse(""));
        open.add(watch);
        response.setStatusCode(HttpURLConnection.HTTP_OK)
                .setChunked(true)
                .setWriteQueueMaxSize(MOST_UNSENT_BYTES)
                .putHeader("Content-Type", "application/json");
        response.closeHandler(closed -> watch.end());
        response.exceptionHandler(failure -> watch.end());
        response.writeHead();
        current.forEach(object -> watch.send("ADDED", object));
        try {
            store.changes().subscribe(after, watch);
        } catch (ChangeFeed.Expired e) {
            ObjectNode gone = JSON.createObjectNode().put("kind", "Status").put("apiVersion", "v1");
            gone.putObject("metadata");
            gone.put("status", "Failure")
                    .put("message", e.getMessage())
                    .put("reason", "Expired")
                    .put("code", HttpURLConnection.HTTP_GONE);
            watch.write("ERROR", gone);
            watch.end();
            return;
        }
        line.parameter("timeoutSeconds")
                .filter(seconds -> seconds.matches("[1-9][0-9]{0,5}"))
                .ifPresent(seconds -> vertx.setTimer(Long.parseLong(seconds) * 1000, timer -> watch.end()));
    }

    /** Ends every open watch, as the API stops. */
    void endAll() {
        List.copyOf(open).forEach(Watch::end);
    }

    int openCount() {
        return open.size();
    }

    private static boolean asksForTable(HttpServerRequest request) {
        String accept = request.getHeader("Accept");
        return accept != null && accept.contains("as=Table");
    }

    private static void send(HttpServerResponse response, MockResponse answer) {
        response.setStatusCode(answer.code());
        answer.getHeaders().toMultimap().forEach((name, values) -> response.putHeader(name, values));
        response.end(Buffer.buffer(answer.getBody().getBytes()));
    }

    /** One client's watch: the changes its path and selectors see, written as they come. */
    private final class Watch implements Consumer<ChangeFeed.Change> {

        private final HttpServerResponse response;
        private final AttributeSet query;
        private final Optional<TableColumns> table;
        private final String includeObject;
        private volatile boolean ended;

        Watch(HttpServerResponse response, AttributeSet query, Optional<TableColumns> table, String includeObject) {
            this.response = response;
            this.query = query;
            this.table = table;
            this.includeObject = includeObject;
        }

        @Override
        public void accept(ChangeFeed.Change change) {
            String type = change.typeFor(query);
            if (!type.isEmpty()) {
                send(type, change.object());
            }
        }

        void send(String type, String object) {
            JsonNode parsed = ResourceVersions.read(object);
            write(
                    type,
                    table.<JsonNode>map(columns -> columns.table(parsed, includeObject))
                            .orElse(parsed));
        }

        void write(String type, JsonNode object) {
            if (ended) {
                return;
            }
            if (response.writeQueueFull()) {
                cutOff();
                return;
            }
            ObjectNode event = JSON.createObjectNode().put("type", type);
            event.set("object", object);
            try {
                response.write(Buffer.buffer(event + "\n"));
            } catch (IllegalStateException closed) {
                end();
            }
        }

        /** Ends the response after the events written so far. */
        void end() {
            if (forget()) {
                try {
                    response.end();
                } catch (IllegalStateException clientWentAway) {
                    response.close();
                }
            }
        }

        /** Closes the connection of a client that does not read, dropping what it did not read. */
        private void cutOff() {
            if (forget()) {
                response.close();
            }
        }

        /** Stops the events; false when they had stopped already. */
        private boolean forget() {
            synchronized (this) {
                if (ended) {
                    return false;
                }
                ended = true;
            }
            store.changes().unsubscribe(this);
            open.remove(this);
            return true;
        }
    }
}
