package dev.llmops.serving.demo.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Event lists filtered by field selectors such as {@code involvedObject.name=x,involvedObject.kind=ModelServer}, typed
 * EventList: the store matches only metadata fields and answers a generic List, so without this kubectl describe and
 * the operator's diagnosis find no events.
 */
final class EventFieldSelector {

    static final Pattern PATH = Pattern.compile("^/api/v1(?:/namespaces/[^/]+)?/events$");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern SELECTOR_PARAMETER = Pattern.compile("(?<=[?&])fieldSelector=[^&]*&?");
    private static final Pattern REQUIREMENT = Pattern.compile("([A-Za-z0-9_.-]+)(!=|==|=)(.*)");

    private final KubernetesCrudDispatcher store;

    EventFieldSelector(KubernetesCrudDispatcher store) {
        this.store = store;
    }

    /** Whether the request is an event list (not a watch) with a field selector. */
    static boolean applies(ApiRequestLine request) {
        return PATH.matcher(request.path()).matches()
                && request.parameter("fieldSelector").isPresent()
                && request.parameter("watch").filter("true"::equals).isEmpty();
    }

    MockResponse list(ApiRequestLine request, String pathAndQuery) {
        List<Requirement> requirements = new ArrayList<>();
        for (String requirement :
                request.parameter("fieldSelector").orElseThrow().split(",")) {
            var matcher = REQUIREMENT.matcher(requirement.trim());
            if (!matcher.matches()) {
                return ApiResponses.status(
                        HttpURLConnection.HTTP_BAD_REQUEST,
                        "BadRequest",
                        "invalid field selector requirement: " + requirement);
            }
            requirements.add(
                    new Requirement("." + matcher.group(1), !matcher.group(2).equals("!="), matcher.group(3)));
        }
        MockResponse stored =
                store.handleGet(SELECTOR_PARAMETER.matcher(pathAndQuery).replaceFirst(""));
        ObjectNode list = read(stored);
        ArrayNode selected = JSON.createArrayNode();
        list.path("items").forEach(event -> {
            if (requirements.stream().allMatch(requirement -> requirement.matches(event))) {
                selected.add(event);
            }
        });
        list.put("kind", "EventList").put("apiVersion", "v1").set("items", selected);
        return ApiResponses.json(stored.code(), list);
    }

    private static ObjectNode read(MockResponse stored) {
        try {
            return (ObjectNode) JSON.readTree(stored.getBody().readUtf8());
        } catch (IOException e) {
            throw new UncheckedIOException("The stored event list is not JSON", e);
        }
    }

    /** One {@code field=value} or {@code field!=value}; a missing field has the empty value, as in kube-apiserver. */
    private record Requirement(String path, boolean equal, String value) {

        boolean matches(JsonNode event) {
            String actual =
                    SimpleJsonPath.evaluate(path, event).map(JsonNode::asText).orElse("");
            return actual.equals(value) == equal;
        }
    }
}
