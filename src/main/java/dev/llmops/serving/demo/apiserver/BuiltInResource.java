package dev.llmops.serving.demo.apiserver;

import java.util.List;
import java.util.Locale;

/**
 * A built-in kind (or subresource) the embedded API stores, as discovery lists it: only those the operator, the demo's
 * stand-ins and kubectl use, since the store answers any path but a client should find just what makes sense here.
 */
record BuiltInResource(
        String group,
        String version,
        String name,
        String singular,
        String kind,
        boolean namespaced,
        List<String> verbs,
        List<String> shortNames,
        List<String> categories) {

    static final List<String> STANDARD_VERBS =
            List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");
    static final List<String> SUBRESOURCE_VERBS = List.of("get", "patch", "update");
    private static final String CORE = "";

    static final List<BuiltInResource> ALL = List.of(
            kind(CORE, "v1", "namespaces", "Namespace", false, List.of("ns"), List.of()),
            status(CORE, "v1", "namespaces", "Namespace", false),
            kind(CORE, "v1", "nodes", "Node", false, List.of("no"), List.of()),
            status(CORE, "v1", "nodes", "Node", false),
            kind(CORE, "v1", "pods", "Pod", true, List.of("po"), List.of("all")),
            new BuiltInResource(CORE, "v1", "pods/log", "", "Pod", true, List.of("get"), List.of(), List.of()),
            status(CORE, "v1", "pods", "Pod", true),
            kind(CORE, "v1", "services", "Service", true, List.of("svc"), List.of("all")),
            status(CORE, "v1", "services", "Service", true),
            kind(CORE, "v1", "configmaps", "ConfigMap", true, List.of("cm"), List.of()),
            kind(CORE, "v1", "secrets", "Secret", true, List.of(), List.of()),
            kind(CORE, "v1", "events", "Event", true, List.of("ev"), List.of()),
            kind(CORE, "v1", "persistentvolumeclaims", "PersistentVolumeClaim", true, List.of("pvc"), List.of()),
            status(CORE, "v1", "persistentvolumeclaims", "PersistentVolumeClaim", true),
            kind("apps", "v1", "deployments", "Deployment", true, List.of("deploy"), List.of("all")),
            status("apps", "v1", "deployments", "Deployment", true),
            kind("apps", "v1", "replicasets", "ReplicaSet", true, List.of("rs"), List.of("all")),
            new BuiltInResource(
                    "authorization.k8s.io",
                    "v1",
                    "selfsubjectrulesreviews",
                    "selfsubjectrulesreview",
                    "SelfSubjectRulesReview",
                    false,
                    List.of("create"),
                    List.of(),
                    List.of()),
            kind("batch", "v1", "jobs", "Job", true, List.of(), List.of("all")),
            status("batch", "v1", "jobs", "Job", true),
            kind(
                    "apiextensions.k8s.io",
                    "v1",
                    "customresourcedefinitions",
                    "CustomResourceDefinition",
                    false,
                    List.of("crd", "crds"),
                    List.of("api-extensions")),
            status("apiextensions.k8s.io", "v1", "customresourcedefinitions", "CustomResourceDefinition", false),
            kind("coordination.k8s.io", "v1", "leases", "Lease", true, List.of(), List.of()));

    String groupVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    private static BuiltInResource kind(
            String group,
            String version,
            String plural,
            String kind,
            boolean namespaced,
            List<String> shortNames,
            List<String> categories) {
        return new BuiltInResource(
                group,
                version,
                plural,
                kind.toLowerCase(Locale.ROOT),
                kind,
                namespaced,
                STANDARD_VERBS,
                shortNames,
                categories);
    }

    private static BuiltInResource status(
            String group, String version, String plural, String kind, boolean namespaced) {
        return new BuiltInResource(
                group, version, plural + "/status", "", kind, namespaced, SUBRESOURCE_VERBS, List.of(), List.of());
    }
}
