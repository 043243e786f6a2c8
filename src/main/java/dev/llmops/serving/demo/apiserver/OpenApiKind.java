package dev.llmops.serving.demo.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/** A kind as an OpenAPI v3 document describes it: its paths, and its schema when the API knows one (CRDs only). */
record OpenApiKind(
        String group, String version, String plural, String kind, boolean namespaced, Optional<JsonNode> schema) {

    static OpenApiKind of(ServedCrdVersion crd) {
        return new OpenApiKind(
                crd.group(),
                crd.versionName(),
                crd.plural(),
                crd.kind(),
                crd.namespaced(),
                Optional.of(crd.openApiV3Schema()));
    }

    static OpenApiKind of(BuiltInResource resource) {
        return new OpenApiKind(
                resource.group(),
                resource.version(),
                resource.name(),
                resource.kind(),
                resource.namespaced(),
                Optional.empty());
    }

    /** The group version as the OpenAPI v3 index names it: api/v1 or apis/GROUP/VERSION. */
    String indexPath() {
        return group.isEmpty() ? "api/" + version : "apis/" + group + "/" + version;
    }

    String groupVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }
}
