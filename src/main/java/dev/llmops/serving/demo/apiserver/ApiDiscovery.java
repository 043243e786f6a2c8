package dev.llmops.serving.demo.apiserver;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The legacy discovery documents (/api, /api/v1, /apis, /apis/GROUP, /apis/GROUP/VERSION) of the built-in kinds and
 * the installed CRDs: kubectl maps resource names, short names and categories to URLs with them.
 */
final class ApiDiscovery {

    /**
     * Paths that are discovery documents, not resources: group 1 is the core version, groups 2 and 3 the group and
     * version under /apis.
     */
    static final Pattern PATH = Pattern.compile("^/api(?:/(v1))?$|^/apis(?:/([^/]+)(?:/([^/]+))?)?$");

    static final String VERSION_PATH = "/version";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CORE_VERSION = "v1";
    /** The Kubernetes release whose API the fabric8 model behind the store and the operator's client describes. */
    private static final String MINOR = "33";

    private final InstalledCrds crds;

    ApiDiscovery(InstalledCrds crds) {
        this.crds = crds;
    }

    /** The /version document; kubectl version compares it with its own. */
    static ObjectNode version() {
        return JSON.createObjectNode()
                .put("major", "1")
                .put("minor", MINOR)
                .put("gitVersion", "v1." + MINOR + ".0")
                .put(
                        "platform",
                        System.getProperty("os.name").toLowerCase(Locale.ROOT) + "/" + System.getProperty("os.arch"));
    }

    /** The document at a path {@link #PATH} matches; empty when no such group or version is served. */
    Optional<ObjectNode> document(String path) {
        Matcher matcher = PATH.matcher(path);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        if (path.startsWith("/apis")) {
            String group = matcher.group(2);
            String version = matcher.group(3);
            if (group == null) {
                return Optional.of(groupList());
            }
            return version == null ? group(group) : resourceList(group + "/" + version);
        }
        return Optional.of(
                matcher.group(1) == null
                        ? coreVersions()
                        : resourceList(CORE_VERSION).orElseThrow());
    }

    private ObjectNode coreVersions() {
        ObjectNode versions = JSON.createObjectNode().put("kind", "APIVersions");
        versions.putArray("versions").add(CORE_VERSION);
        return versions;
    }

    private ObjectNode groupList() {
        ObjectNode list = JSON.createObjectNode().put("kind", "APIGroupList").put("apiVersion", "v1");
        ArrayNode groups = list.putArray("groups");
        groupVersions().forEach((group, versions) -> groups.add(groupDocument(group, versions)));
        return list;
    }

    private Optional<ObjectNode> group(String group) {
        List<String> versions = groupVersions().get(group);
        return versions == null ? Optional.empty() : Optional.of(groupDocument(group, versions));
    }

    private static ObjectNode groupDocument(String group, List<String> versions) {
        ObjectNode document = JSON.createObjectNode()
                .put("kind", "APIGroup")
                .put("apiVersion", "v1")
                .put("name", group);
        ArrayNode versionList = document.putArray("versions");
        versions.forEach(version -> versionList.add(groupVersion(group, version)));
        document.set("preferredVersion", groupVersion(group, versions.get(0)));
        return document;
    }

    private static ObjectNode groupVersion(String group, String version) {
        return JSON.createObjectNode()
                .put("groupVersion", group + "/" + version)
                .put("version", version);
    }

    /** Groups under /apis with their versions, the preferred one first: a CRD's storage version is its preferred. */
    private Map<String, List<String>> groupVersions() {
        Map<String, Set<String>> versions = new LinkedHashMap<>();
        BuiltInResource.ALL.stream()
                .filter(resource -> !resource.group().isEmpty())
                .forEach(resource -> versions.computeIfAbsent(resource.group(), g -> new LinkedHashSet<>())
                        .add(resource.version()));
        crds.servedVersions().stream()
                .sorted(Comparator.comparing(served -> !served.storage()))
                .forEach(served -> versions.computeIfAbsent(served.group(), g -> new LinkedHashSet<>())
                        .add(served.versionName()));
        Map<String, List<String>> lists = new LinkedHashMap<>();
        versions.forEach((group, set) -> lists.put(group, new ArrayList<>(set)));
        return lists;
    }

    private Optional<ObjectNode> resourceList(String groupVersion) {
        ObjectNode list = JSON.createObjectNode()
                .put("kind", "APIResourceList")
                .put("apiVersion", "v1")
                .put("groupVersion", groupVersion);
        ArrayNode resources = list.putArray("resources");
        BuiltInResource.ALL.stream()
                .filter(resource -> resource.groupVersion().equals(groupVersion))
                .forEach(resource -> resources.add(resource(
                        resource.name(),
                        resource.singular(),
                        resource.kind(),
                        resource.namespaced(),
                        resource.verbs(),
                        resource.shortNames(),
                        resource.categories())));
        crds.servedVersions().stream()
                .filter(served -> served.groupVersion().equals(groupVersion))
                .forEach(served -> addCustomResource(resources, served));
        return resources.isEmpty() ? Optional.empty() : Optional.of(list);
    }

    private static void addCustomResource(ArrayNode resources, ServedCrdVersion served) {
        resources.add(resource(
                served.plural(),
                served.singular(),
                served.kind(),
                served.namespaced(),
                BuiltInResource.STANDARD_VERBS,
                served.shortNames(),
                served.categories()));
        if (served.hasStatusSubresource()) {
            resources.add(resource(
                    served.plural() + "/status",
                    "",
                    served.kind(),
                    served.namespaced(),
                    BuiltInResource.SUBRESOURCE_VERBS,
                    List.of(),
                    List.of()));
        }
    }

    private static ObjectNode resource(
            String name,
            String singular,
            String kind,
            boolean namespaced,
            List<String> verbs,
            List<String> shortNames,
            List<String> categories) {
        ObjectNode resource = JSON.createObjectNode()
                .put("name", name)
                .put("singularName", singular)
                .put("namespaced", namespaced)
                .put("kind", kind);
        verbs.forEach(resource.putArray("verbs")::add);
        if (!shortNames.isEmpty()) {
            shortNames.forEach(resource.putArray("shortNames")::add);
        }
        if (!categories.isEmpty()) {
            categories.forEach(resource.putArray("categories")::add);
        }
        return resource;
    }
}
