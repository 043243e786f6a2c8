package dev.llmops.serving.demo.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Reads and sets metadata.resourceVersion in a stored object's JSON, which the store keeps as text. */
final class ResourceVersions {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ResourceVersions() {}

    /** The object's resourceVersion, 0 when there is no object or it has none. */
    static long of(String json) {
        if (json == null) {
            return 0;
        }
        try {
            return Long.parseLong(
                    read(json).path("metadata").path("resourceVersion").asText("0"));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The object with the resourceVersion set. */
    static String with(String json, long resourceVersion) {
        ObjectNode object = read(json);
        object.with("metadata").put("resourceVersion", String.valueOf(resourceVersion));
        return object.toString();
    }

    static ObjectNode read(String json) {
        try {
            JsonNode node = JSON.readTree(json);
            if (!(node instanceof ObjectNode object)) {
                throw new IllegalStateException("a stored object is not a JSON object");
            }
            return object;
        } catch (IOException e) {
            throw new UncheckedIOException("a stored object is not JSON", e);
        }
    }
}
