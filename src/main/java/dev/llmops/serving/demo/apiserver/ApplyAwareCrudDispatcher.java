package dev.llmops.serving.demo.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.util.List;
import java.util.Objects;

/**
 * The fabric8 mock API server in CRUD mode, taught enough server-side apply for the operator's production patch path:
 * applying an object that does not exist creates it; applying one that does merges the sent fields into it (objects
 * field by field, lists and values replaced), so fields other managers own — the user's spec under a finalizer
 * apply — stay; an apply to the status subresource replaces the status, which the operator alone writes. Field
 * ownership, removal of fields a manager stopped sending, and conflicts are out of its scope. Every change goes to
 * the {@link ChangeFeed} HTTP watches read, each removal to the {@link GarbageCollector}, and a new object gets the
 * {@link CreationDefaults}.
 */
final class ApplyAwareCrudDispatcher extends KubernetesCrudDispatcher {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final YAMLMapper YAML = new YAMLMapper();
    private static final String STATUS = "/status";
    private static final String SELF_SUBJECT_RULES_REVIEWS = "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews";

    private final ChangeFeed changes = new ChangeFeed();
    private final GarbageCollector garbage = new GarbageCollector(this);
    private long lastChange;

    ChangeFeed changes() {
        return changes;
    }

    GarbageCollector garbage() {
        return garbage;
    }

    /**
     * Stores the change as the mock server does, then publishes it with a resourceVersion of its own (a removal
     * included, which the mock server does not count) and hands a removed object to the garbage collector.
     */
    @Override
    public void processEvent(
            String path,
            AttributeSet pathAttributes,
            AttributeSet oldAttributes,
            GenericKubernetesResource resource,
            String newState) {
        String stored = oldAttributes == null && newState != null ? CreationDefaults.applied(path, newState) : newState;
        String existing = oldAttributes == null ? null : map.get(oldAttributes);
        super.processEvent(path, pathAttributes, oldAttributes, resource, stored);
        if (Objects.equals(existing, stored)) {
            return;
        }
        long assigned = ResourceVersions.of(stored);
        long resourceVersion = assigned > lastChange ? assigned : requestResourceVersion();
        lastChange = resourceVersion;
        if (stored == null) {
            changes.publish(new ChangeFeed.Change(
                    resourceVersion, oldAttributes, null, ResourceVersions.with(existing, resourceVersion)));
            garbage.removed(existing, map.values());
        } else {
            if (existing == null) {
                garbage.created(stored);
            }
            AttributeSet key = keyOf(pathAttributes, resource, stored);
            changes.publish(new ChangeFeed.Change(resourceVersion, oldAttributes, key, stored));
        }
    }

    /** The key the mock server files the object under, worked out as it does. */
    private AttributeSet keyOf(AttributeSet pathAttributes, GenericKubernetesResource resource, String json) {
        KubernetesAttributesExtractor extractor = (KubernetesAttributesExtractor) getAttributeExtractor();
        AttributeSet key = resource != null ? extractor.extract(resource) : extractor.fromResource(json);
        return key.containsKey(KubernetesAttributesExtractor.PLURAL) ? key : AttributeSet.merge(pathAttributes, key);
    }

    /**
     * The embedded API has no authorization: a SelfSubjectRulesReview (leader election asks one before it takes its
     * Lease) is answered with every verb on every resource, which is what this API enforces.
     */
    @Override
    public MockResponse handleCreate(RecordedRequest request) {
        if (!request.getPath().startsWith(SELF_SUBJECT_RULES_REVIEWS)) {
            return super.handleCreate(request);
        }
        try {
            ObjectNode review = (ObjectNode) JSON.readTree(request.getUtf8Body());
            ObjectNode status = review.putObject("status");
            ObjectNode everything = status.putArray("resourceRules").addObject();
            everything.putArray("verbs").add("*");
            everything.putArray("apiGroups").add("*");
            everything.putArray("resources").add("*");
            status.putArray("nonResourceRules")
                    .addObject()
                    .<ObjectNode>set("verbs", JSON.createArrayNode().add("*"))
                    .putArray("nonResourceURLs")
                    .add("*");
            status.put("incomplete", false);
            return new MockResponse()
                    .setResponseCode(HttpURLConnection.HTTP_CREATED)
                    .setBody(JSON.writeValueAsString(review));
        } catch (IOException e) {
            return new MockResponse()
                    .setResponseCode(HttpURLConnection.HTTP_BAD_REQUEST)
                    .setBody(e.getMessage());
        }
    }

    @Override
    public MockResponse handlePatch(RecordedRequest request) {
        String contentType = request.getHeader("Content-Type");
        if (contentType == null || !contentType.contains("apply-patch")) {
            return super.handlePatch(request);
        }
        try {
            return apply(request);
        } catch (IOException e) {
            return new MockResponse()
                    .setResponseCode(HttpURLConnection.HTTP_BAD_REQUEST)
                    .setBody(e.getMessage());
        }
    }

    private MockResponse apply(RecordedRequest request) throws IOException {
        String path = request.getPath().replaceFirst("\\?.*$", "");
        boolean statusSubresource = path.endsWith(STATUS);
        String objectPath = statusSubresource ? path.substring(0, path.length() - STATUS.length()) : path;
        ObjectNode applied = (ObjectNode) YAML.readTree(request.getUtf8Body());

        MockResponse current = handleGet(objectPath);
        if (current.code() == HttpURLConnection.HTTP_NOT_FOUND) {
            if (statusSubresource) {
                return current;
            }
            String collection = objectPath.substring(0, objectPath.lastIndexOf('/'));
            return handleCreate(request(HttpMethod.POST, collection, applied));
        }
        ObjectNode existing = (ObjectNode) JSON.readTree(current.getBody().readUtf8());
        ObjectNode merged;
        if (statusSubresource) {
            merged = existing.deepCopy();
            merged.set("status", applied.get("status"));
        } else {
            merged = existing.deepCopy();
            applied.remove("status");
            ((ObjectNode) applied.with("metadata"))
                    .remove(List.of("uid", "resourceVersion", "creationTimestamp", "generation"));
            mergeInto(merged, applied);
        }
        return handleUpdate(request(HttpMethod.PUT, path, merged));
    }

    private static void mergeInto(ObjectNode target, ObjectNode source) {
        source.fields().forEachRemaining(field -> {
            JsonNode current = target.get(field.getKey());
            if (current instanceof ObjectNode currentObject && field.getValue() instanceof ObjectNode sourceObject) {
                mergeInto(currentObject, sourceObject);
            } else {
                target.set(field.getKey(), field.getValue());
            }
        });
    }

    private static RecordedRequest request(HttpMethod method, String path, JsonNode body) throws IOException {
        Headers headers =
                new Headers.Builder().add("Content-Type", "application/json").build();
        Buffer buffer = new Buffer().writeUtf8(JSON.writeValueAsString(body));
        return new RecordedRequest("HTTP/1.1", method, path, headers, buffer);
    }
}
