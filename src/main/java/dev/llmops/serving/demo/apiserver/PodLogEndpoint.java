package dev.llmops.serving.demo.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The pods/log subresource: the container's log from the registered {@link PodLogSource}, cut by tailLines, then
 * limitBytes, with kube-apiserver's answers for a missing pod, an ambiguous or unknown container, and no log.
 */
final class PodLogEndpoint {

    static final Pattern PATH = Pattern.compile("^/api/v1/namespaces/([^/]+)/pods/([^/]+)/log$");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BAD_REQUEST = "BadRequest";

    private final KubernetesCrudDispatcher store;
    private volatile PodLogSource source = (namespace, pod, container) -> Optional.empty();

    PodLogEndpoint(KubernetesCrudDispatcher store) {
        this.store = store;
    }

    void readFrom(PodLogSource source) {
        this.source = source;
    }

    MockResponse serve(ApiRequestLine request) {
        Matcher path = PATH.matcher(request.path());
        if (!path.matches()) {
            throw new IllegalArgumentException(request.path() + " is not a pod log path");
        }
        String namespace = path.group(1);
        String pod = path.group(2);
        MockResponse stored = store.handleGet("/api/v1/namespaces/" + namespace + "/pods/" + pod);
        if (stored.code() == HttpURLConnection.HTTP_NOT_FOUND) {
            return ApiResponses.status(HttpURLConnection.HTTP_NOT_FOUND, "NotFound", "pods \"" + pod + "\" not found");
        }
        List<String> containers = containerNames(stored);
        Optional<String> named = request.parameter("container");
        if (named.isEmpty() && containers.size() != 1) {
            return badRequest("a container name must be specified for pod " + pod + ", choose one of: " + containers);
        }
        String container = named.orElseGet(() -> containers.get(0));
        if (!containers.contains(container)) {
            return badRequest("container " + container + " is not valid for pod " + pod);
        }
        if (request.parameter("previous").filter("true"::equals).isPresent()) {
            return badRequest("previous terminated container \"" + container + "\" in pod \"" + pod + "\" not found");
        }
        Optional<Integer> tailLines;
        Optional<Integer> limitBytes;
        try {
            tailLines = wholeNumber(request, "tailLines", 0);
            limitBytes = wholeNumber(request, "limitBytes", 1);
        } catch (IllegalArgumentException e) {
            return badRequest(e.getMessage());
        }
        return source.log(namespace, pod, container)
                .map(log ->
                        tailLines.map(lines -> PodLogSource.tail(log, lines)).orElse(log))
                .map(log -> limit(log.getBytes(StandardCharsets.UTF_8), limitBytes))
                .map(ApiResponses::text)
                .orElseGet(() -> ApiResponses.status(
                        HttpURLConnection.HTTP_NOT_FOUND,
                        "NotFound",
                        "no log recorded for container \"" + container + "\" in pod \"" + pod + "\""));
    }

    private static byte[] limit(byte[] log, Optional<Integer> limitBytes) {
        return limitBytes
                .filter(limit -> limit < log.length)
                .map(limit -> Arrays.copyOf(log, limit))
                .orElse(log);
    }

    /** The parameter's value, empty when absent; throws when it is not a whole number of at least minimum. */
    private static Optional<Integer> wholeNumber(ApiRequestLine request, String name, int minimum) {
        Optional<Integer> value;
        try {
            value = request.parameter(name).map(Integer::valueOf);
        } catch (NumberFormatException e) {
            value = Optional.of(Integer.MIN_VALUE);
        }
        if (value.filter(number -> number < minimum).isPresent()) {
            throw new IllegalArgumentException(name + ": must be a whole number of at least " + minimum);
        }
        return value;
    }

    private static List<String> containerNames(MockResponse storedPod) {
        try {
            JsonNode spec = JSON.readTree(storedPod.getBody().readUtf8()).path("spec");
            List<String> names = new ArrayList<>();
            spec.path("containers")
                    .forEach(container -> names.add(container.path("name").asText()));
            spec.path("initContainers")
                    .forEach(container -> names.add(container.path("name").asText()));
            return names;
        } catch (IOException e) {
            throw new UncheckedIOException("The stored pod is not JSON", e);
        }
    }

    private static MockResponse badRequest(String message) {
        return ApiResponses.status(HttpURLConnection.HTTP_BAD_REQUEST, BAD_REQUEST, message);
    }
}
