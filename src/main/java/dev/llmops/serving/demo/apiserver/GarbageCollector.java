package dev.llmops.serving.demo.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import java.net.HttpURLConnection;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * What kube-controller-manager's garbage collector does with background propagation: when an object is removed, each
 * object whose ownerReferences named it is deleted once none of its owners exists any more, and so on down the chain;
 * an object created with owners that are all gone is deleted too. Owners of kinds this API does not serve are taken to
 * exist, as the real collector leaves what it cannot resolve alone.
 */
final class GarbageCollector {

    /** How many objects one collection deletes at most, so a cycle of owner references cannot keep it going. */
    static final int MOST_DELETIONS_PER_COLLECTION = 10_000;

    private final KubernetesCrudDispatcher store;
    private final InstalledCrds crds;
    private final Deque<String> candidates = new ArrayDeque<>();

    GarbageCollector(KubernetesCrudDispatcher store) {
        this.store = store;
        this.crds = new InstalledCrds(store);
    }

    /** Called with the store locked when an object was removed: its dependents are candidates now. */
    void removed(String removedJson, Iterable<String> stored) {
        String uid =
                ResourceVersions.read(removedJson).path("metadata").path("uid").asText("");
        if (uid.isEmpty()) {
            return;
        }
        List<String> dependents = new ArrayList<>();
        for (String object : stored) {
            if (object.contains(uid) && ownerUids(ResourceVersions.read(object)).contains(uid)) {
                dependents.add(object);
            }
        }
        synchronized (candidates) {
            candidates.addAll(dependents);
        }
    }

    /** Called with the store locked when an object was created: if it has owners, they are checked. */
    void created(String createdJson) {
        if (!ownerUids(ResourceVersions.read(createdJson)).isEmpty()) {
            synchronized (candidates) {
                candidates.add(createdJson);
            }
        }
    }

    /** Deletes every candidate none of whose owners exists, and what that removes in turn; the store is not locked. */
    void collect() {
        int deletions = 0;
        while (deletions < MOST_DELETIONS_PER_COLLECTION) {
            String candidate;
            synchronized (candidates) {
                candidate = candidates.pollFirst();
            }
            if (candidate == null) {
                return;
            }
            JsonNode object = ResourceVersions.read(candidate);
            if (ownersAllGone(object)) {
                Optional<String> path =
                        pathOf(object, object.path("metadata").path("name").asText());
                if (path.isPresent() && sameObject(path.get(), object)) {
                    store.handleDelete(path.get());
                    deletions++;
                }
            }
        }
    }

    private boolean ownersAllGone(JsonNode dependent) {
        for (JsonNode owner : dependent.path("metadata").path("ownerReferences")) {
            Optional<String> path = pathOf(
                    owner,
                    dependent.path("metadata").path("namespace").asText(""),
                    owner.path("name").asText());
            if (path.isEmpty()) {
                return false;
            }
            if (uidAt(path.get()).equals(owner.path("uid").asText())) {
                return false;
            }
        }
        return true;
    }

    private boolean sameObject(String path, JsonNode object) {
        return uidAt(path).equals(object.path("metadata").path("uid").asText());
    }

    private String uidAt(String path) {
        var stored = store.handleGet(path);
        if (stored.code() != HttpURLConnection.HTTP_OK) {
            return "";
        }
        return ResourceVersions.read(stored.getBody().readUtf8())
                .path("metadata")
                .path("uid")
                .asText("");
    }

    private Optional<String> pathOf(JsonNode object, String name) {
        return pathOf(object, object.path("metadata").path("namespace").asText(""), name);
    }

    /** The object's path on this API from its apiVersion and kind; empty for a kind it does not serve. */
    private Optional<String> pathOf(JsonNode typed, String namespace, String name) {
        String apiVersion = typed.path("apiVersion").asText();
        String kind = typed.path("kind").asText();
        String prefix = apiVersion.contains("/") ? "/apis/" + apiVersion : "/api/" + apiVersion;
        for (BuiltInResource resource : BuiltInResource.ALL) {
            if (resource.groupVersion().equals(apiVersion)
                    && resource.kind().equals(kind)
                    && !resource.name().contains("/")) {
                return Optional.of(path(prefix, resource.namespaced(), namespace, resource.name(), name));
            }
        }
        return crds.servedVersions().stream()
                .filter(crd ->
                        crd.groupVersion().equals(apiVersion) && crd.kind().equals(kind))
                .findFirst()
                .map(crd -> path(prefix, crd.namespaced(), namespace, crd.plural(), name));
    }

    private static String path(String prefix, boolean namespaced, String namespace, String plural, String name) {
        return prefix + (namespaced ? "/namespaces/" + namespace : "") + "/" + plural + "/" + name;
    }

    private static List<String> ownerUids(JsonNode object) {
        List<String> uids = new ArrayList<>();
        object.path("metadata")
                .path("ownerReferences")
                .forEach(owner -> uids.add(owner.path("uid").asText()));
        return uids;
    }
}
