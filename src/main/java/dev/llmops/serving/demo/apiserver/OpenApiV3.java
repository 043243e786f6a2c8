package dev.llmops.serving.demo.apiserver;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The OpenAPI v3 index and one document per group version of the built-in kinds and installed CRDs: kubectl explain
 * reads the CRDs' field types and descriptions from them, kubectl create and apply whether the server validates.
 */
final class OpenApiV3 {

    static final String ROOT = "/openapi/v3";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final InstalledCrds crds;

    OpenApiV3(InstalledCrds crds) {
        this.crds = crds;
    }

    /** The document at a path under {@link #ROOT} (query removed); empty when no such group version is served. */
    Optional<ObjectNode> document(String path) {
        Map<String, List<OpenApiKind>> groupVersions = groupVersions();
        if (path.equals(ROOT)) {
            return Optional.of(index(groupVersions));
        }
        if (!path.startsWith(ROOT + "/")) {
            return Optional.empty();
        }
        List<OpenApiKind> kinds = groupVersions.get(path.substring(ROOT.length() + 1));
        return Optional.ofNullable(kinds).map(GroupVersionOpenApi::document);
    }

    /** Stored kinds by index path (api/v1, apis/GROUP/VERSION); subresources have no paths of their own here. */
    private Map<String, List<OpenApiKind>> groupVersions() {
        List<OpenApiKind> kinds = new ArrayList<>();
        BuiltInResource.ALL.stream()
                .filter(resource ->
                        !resource.name().contains("/") && resource.verbs().contains("patch"))
                .map(OpenApiKind::of)
                .forEach(kinds::add);
        crds.servedVersions().stream().map(OpenApiKind::of).forEach(kinds::add);
        Map<String, List<OpenApiKind>> groupVersions = new LinkedHashMap<>();
        kinds.forEach(kind -> groupVersions
                .computeIfAbsent(kind.indexPath(), path -> new ArrayList<>())
                .add(kind));
        return groupVersions;
    }

    private static ObjectNode index(Map<String, List<OpenApiKind>> groupVersions) {
        ObjectNode index = JSON.createObjectNode();
        ObjectNode paths = index.putObject("paths");
        groupVersions.forEach((path, kinds) -> paths.putObject(path)
                .put("serverRelativeURL", ROOT + "/" + path + "?hash=" + hash(GroupVersionOpenApi.document(kinds))));
        return index;
    }

    private static String hash(ObjectNode document) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(JSON.writeValueAsString(document).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException | JsonProcessingException e) {
            throw new IllegalStateException("Cannot hash an OpenAPI document", e);
        }
    }
}
