package dev.llmops.serving.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.net.HttpURLConnection;

/**
 * The fabric8 mock API server in CRUD mode, taught server-side apply for a single field manager: applying an object
 * that does not exist creates it; applying one that does replaces the fields the manager sends while the server keeps
 * its own (uid, resourceVersion, creation time, generation) and, for the main resource, the status — and an apply to
 * the status subresource replaces the status. That is what the operator's production patch path needs to run
 * against the embedded API; conflicts between several managers are out of its scope.
 */
final class ApplyAwareCrudDispatcher extends KubernetesCrudDispatcher {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final YAMLMapper YAML = new YAMLMapper();
    private static final String STATUS = "/status";

    @Override
    public MockResponse handlePatch(RecordedRequest request) {
        String contentType = request.getHeader("Content-Type");
        if (contentType == null || !contentType.contains("apply-patch")) {
            return super.handlePatch(request);
        }
        try {
            return apply(request);
        } catch (IOException e) {
            return new MockResponse().setResponseCode(HttpURLConnection.HTTP_BAD_REQUEST).setBody(e.getMessage());
        }
    }

    private MockResponse apply(RecordedRequest request) throws IOException {
        String path = request.getPath();
        String query = "";
        int queryStart = path.indexOf('?');
        if (queryStart >= 0) {
            query = path.substring(queryStart);
            path = path.substring(0, queryStart);
        }
        boolean statusSubresource = path.endsWith(STATUS);
        String objectPath = statusSubresource ? path.substring(0, path.length() - STATUS.length()) : path;
        ObjectNode applied = (ObjectNode) YAML.readTree(request.getUtf8Body());

        MockResponse current = handleGet(objectPath);
        if (current.code() == HttpURLConnection.HTTP_NOT_FOUND) {
            if (statusSubresource) {
                return current;
            }
            String collection = objectPath.substring(0, objectPath.lastIndexOf('/'));
            return handleCreate(request(HttpMethod.POST, collection + query, applied));
        }
        ObjectNode existing = (ObjectNode) JSON.readTree(current.getBody().readUtf8());
        ObjectNode merged;
        if (statusSubresource) {
            merged = existing.deepCopy();
            merged.set("status", applied.get("status"));
        } else {
            merged = applied.deepCopy();
            ObjectNode metadata = (ObjectNode) merged.with("metadata");
            JsonNode serverMetadata = existing.get("metadata");
            for (String field : new String[] {"uid", "resourceVersion", "creationTimestamp", "generation"}) {
                if (serverMetadata.has(field)) {
                    metadata.set(field, serverMetadata.get(field));
                }
            }
            if (existing.has("status") && !merged.has("status")) {
                merged.set("status", existing.get("status"));
            }
        }
        return handleUpdate(request(HttpMethod.PUT, path + query, merged));
    }

    private static RecordedRequest request(HttpMethod method, String path, JsonNode body) throws IOException {
        Headers headers = new Headers.Builder().add("Content-Type", "application/json").build();
        Buffer buffer = new Buffer().writeUtf8(JSON.writeValueAsString(body));
        return new RecordedRequest("HTTP/1.1", method, path, headers, buffer);
    }
}
