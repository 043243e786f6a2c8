package dev.llmops.serving.demo.apiserver;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.http.MockResponse;
import java.net.HttpURLConnection;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names a list by its kind, as kube-apiserver does (PodList, EventList, BenchmarkRunList in its group version): the
 * store answers every list as a generic v1 List, which typed clients such as kubectl events read as empty.
 */
final class ListKinds {

    /** A list path: /api/VERSION or /apis/GROUP/VERSION, an optional namespace, the plural. */
    private static final Pattern LIST_PATH =
            Pattern.compile("^/(?:api|apis/([^/]+))/([^/]+)(?:/namespaces/[^/]+)?/([^/]+)$");

    private final InstalledCrds crds;

    ListKinds(InstalledCrds crds) {
        this.crds = crds;
    }

    /** The stored answer with its list typed; anything but a generic list of a served kind is unchanged. */
    MockResponse typed(String path, MockResponse stored) {
        Matcher list = LIST_PATH.matcher(path);
        if (stored.code() != HttpURLConnection.HTTP_OK || !list.matches()) {
            return stored;
        }
        String group = list.group(1) == null ? "" : list.group(1);
        Optional<String> kind = kindOf(group, list.group(2), list.group(3));
        if (kind.isEmpty()) {
            return stored;
        }
        ObjectNode body = ResourceVersions.read(stored.getBody().readUtf8());
        if (!"List".equals(body.path("kind").asText())) {
            return ApiResponses.json(stored.code(), body);
        }
        body.put("kind", kind.get() + "List")
                .put("apiVersion", group.isEmpty() ? list.group(2) : group + "/" + list.group(2));
        return ApiResponses.json(stored.code(), body);
    }

    private Optional<String> kindOf(String group, String version, String plural) {
        for (BuiltInResource resource : BuiltInResource.ALL) {
            if (resource.group().equals(group)
                    && resource.version().equals(version)
                    && resource.name().equals(plural)) {
                return Optional.of(resource.kind());
            }
        }
        return crds.find(group, version, plural).map(ServedCrdVersion::kind);
    }
}
