package dev.llmops.serving.demo.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.util.Optional;

/**
 * Answers each request the way kube-apiserver would, so that kubectl works against the embedded API: the version,
 * discovery and OpenAPI documents, pod logs, event field selectors and Tables for kubectl get; everything else goes to
 * the object store.
 */
final class KubernetesApiDispatcher extends Dispatcher {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONTENT_TYPE = "Content-Type";

    private final ApplyAwareCrudDispatcher store;
    private final ServerSideTables tables;
    private final ListKinds lists;
    private final ApiDiscovery discovery;
    private final OpenApiV3 openApi;
    private final PodLogEndpoint podLogs;
    private final EventFieldSelector events;

    KubernetesApiDispatcher(ApplyAwareCrudDispatcher store, Clock clock) {
        this.store = store;
        InstalledCrds crds = new InstalledCrds(store);
        this.tables = new ServerSideTables(crds, clock);
        this.lists = new ListKinds(crds);
        this.discovery = new ApiDiscovery(crds);
        this.openApi = new OpenApiV3(crds);
        this.podLogs = new PodLogEndpoint(store);
        this.events = new EventFieldSelector(store);
    }

    ServerSideTables tables() {
        return tables;
    }

    void readPodLogsFrom(PodLogSource source) {
        podLogs.readFrom(source);
    }

    /** The answer to the request, always typed: kubectl decodes an answer without Content-Type as protobuf. */
    @Override
    public MockResponse dispatch(RecordedRequest request) {
        MockResponse response = answer(request);
        if (response.getBody() != null && response.header(CONTENT_TYPE) == null) {
            response.setHeader(CONTENT_TYPE, "application/json");
        }
        return response;
    }

    private MockResponse answer(RecordedRequest request) {
        if (request.method() != HttpMethod.GET) {
            MockResponse written = store.dispatch(request);
            store.garbage().collect();
            return written;
        }
        ApiRequestLine line = ApiRequestLine.parse(request.getPath());
        String path = line.path();
        if (path.equals(ApiDiscovery.VERSION_PATH)) {
            return ApiResponses.json(HttpURLConnection.HTTP_OK, ApiDiscovery.version());
        }
        if (ApiDiscovery.PATH.matcher(path).matches()) {
            return found(path, discovery.document(path));
        }
        if (path.startsWith("/openapi/")) {
            return found(path, openApi.document(path));
        }
        if (PodLogEndpoint.PATH.matcher(path).matches()) {
            return podLogs.serve(line);
        }
        if (EventFieldSelector.applies(line)) {
            return events.list(line, request.getPath());
        }
        MockResponse stored = store.dispatch(request);
        if (asksForTable(request, line) && stored.code() == HttpURLConnection.HTTP_OK) {
            return table(line, stored);
        }
        return stored.getWebSocketListener() == null ? lists.typed(path, stored) : stored;
    }

    private static boolean asksForTable(RecordedRequest request, ApiRequestLine line) {
        String accept = request.getHeader("Accept");
        boolean watch = line.parameter("watch").filter("true"::equals).isPresent();
        return accept != null && accept.contains("as=Table") && !watch;
    }

    /** The Table of a list or object of a kind with server-side printing; other kinds answer with the stored JSON. */
    private MockResponse table(ApiRequestLine line, MockResponse stored) {
        Optional<TableColumns> columns = tables.forPath(line.path());
        if (columns.isEmpty()) {
            return stored;
        }
        try {
            JsonNode listOrObject = JSON.readTree(stored.getBody().readUtf8());
            return ApiResponses.json(
                    HttpURLConnection.HTTP_OK,
                    columns.get()
                            .table(listOrObject, line.parameter("includeObject").orElse("")));
        } catch (IOException e) {
            throw new UncheckedIOException("The stored " + line.path() + " is not JSON", e);
        }
    }

    private static MockResponse found(String path, Optional<? extends JsonNode> document) {
        return document.map(body -> ApiResponses.json(HttpURLConnection.HTTP_OK, body))
                .orElseGet(() -> ApiResponses.status(
                        HttpURLConnection.HTTP_NOT_FOUND,
                        "NotFound",
                        "the server could not find the requested resource: " + path));
    }
}
