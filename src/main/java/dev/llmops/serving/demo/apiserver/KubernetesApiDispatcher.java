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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Answers each request the way kube-apiserver would, so that kubectl works against the embedded API: the version,
 * discovery and OpenAPI documents, pod logs, event field selectors and Tables for kubectl get; everything else goes to
 * the object store.
 */
final class KubernetesApiDispatcher extends Dispatcher {

    /** A custom resource list or object: group, version, namespace (optional), plural, name (optional). */
    private static final Pattern CUSTOM_RESOURCE_PATH =
            Pattern.compile("^/apis/([^/]+)/([^/]+)(?:/namespaces/([^/]+))?/([^/]+)(?:/([^/]+))?$");

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ApplyAwareCrudDispatcher store;
    private final InstalledCrds crds;
    private final ApiDiscovery discovery;
    private final OpenApiV3 openApi;
    private final PodLogEndpoint podLogs;
    private final EventFieldSelector events;
    private final Clock clock;

    KubernetesApiDispatcher(ApplyAwareCrudDispatcher store, Clock clock) {
        this.store = store;
        this.crds = new InstalledCrds(store);
        this.discovery = new ApiDiscovery(crds);
        this.openApi = new OpenApiV3(crds);
        this.podLogs = new PodLogEndpoint(store);
        this.events = new EventFieldSelector(store);
        this.clock = clock;
    }

    void readPodLogsFrom(PodLogSource source) {
        podLogs.readFrom(source);
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        if (request.method() != HttpMethod.GET) {
            return store.dispatch(request);
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
        return asksForTable(request, line) && stored.code() == HttpURLConnection.HTTP_OK ? table(line, stored) : stored;
    }

    private static boolean asksForTable(RecordedRequest request, ApiRequestLine line) {
        String accept = request.getHeader("Accept");
        boolean watch = line.parameter("watch").filter("true"::equals).isPresent();
        return accept != null && accept.contains("as=Table") && !watch;
    }

    /** The Table of a custom resource list or object; other kinds answer with the stored JSON, which kubectl prints. */
    private MockResponse table(ApiRequestLine line, MockResponse stored) {
        Matcher resource = CUSTOM_RESOURCE_PATH.matcher(line.path());
        if (!resource.matches()) {
            return stored;
        }
        Optional<ServedCrdVersion> crd = crds.find(resource.group(1), resource.group(2), resource.group(4));
        if (crd.isEmpty()) {
            return stored;
        }
        try {
            JsonNode listOrObject = JSON.readTree(stored.getBody().readUtf8());
            return ApiResponses.json(
                    HttpURLConnection.HTTP_OK,
                    new CustomResourceTable(crd.get(), clock.instant())
                            .of(listOrObject, line.parameter("includeObject").orElse("")));
        } catch (IOException e) {
            throw new UncheckedIOException("The stored " + crd.get().plural() + " are not JSON", e);
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
