package dev.llmops.serving.demo.apiserver;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The OpenAPI v3 document of one group version: the paths of its kinds, whose operations name the kind (kubectl
 * explain finds a resource's kind there) and declare the fieldValidation parameter (so kubectl create and apply leave
 * validation to the server instead of fetching OpenAPI v2, which this API does not serve), plus each CRD's schema. The
 * store itself does not validate.
 */
final class GroupVersionOpenApi {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SCHEMAS = "#/components/schemas/";

    private GroupVersionOpenApi() {}

    static ObjectNode document(List<OpenApiKind> kinds) {
        ObjectNode document = JSON.createObjectNode().put("openapi", "3.0.0");
        document.putObject("info").put("title", "Embedded Kubernetes API").put("version", "v1");
        ObjectNode paths = document.putObject("paths");
        ObjectNode schemas = document.putObject("components").putObject("schemas");
        for (OpenApiKind kind : kinds) {
            String collection =
                    "/" + kind.indexPath() + (kind.namespaced() ? "/namespaces/{namespace}/" : "/") + kind.plural();
            ObjectNode list = paths.putObject(collection);
            list.set("get", operation(kind, "list", kind.kind() + "List"));
            list.set("parameters", pathParameters(kind, false));
            ObjectNode object = paths.putObject(collection + "/{name}");
            object.set("get", operation(kind, "get", kind.kind()));
            ObjectNode patch = operation(kind, "patch", kind.kind());
            patch.putArray("parameters")
                    .addObject()
                    .put("name", "fieldValidation")
                    .put("in", "query")
                    .put("description", "Ignore, Warn or Strict handling of unknown and duplicate fields.")
                    .putObject("schema")
                    .put("type", "string");
            object.set("patch", patch);
            object.set("parameters", pathParameters(kind, true));
            kind.schema().ifPresent(schema -> {
                schemas.set(schemaName(kind, kind.kind()), KindSchemas.kind(kind, schema));
                schemas.set(
                        schemaName(kind, kind.kind() + "List"),
                        KindSchemas.list(kind, SCHEMAS + schemaName(kind, kind.kind())));
            });
        }
        return document;
    }

    private static ObjectNode operation(OpenApiKind kind, String action, String responseKind) {
        ObjectNode operation = JSON.createObjectNode()
                .put("operationId", action + kind.kind())
                .put("description", action + " " + kind.plural())
                .put("x-kubernetes-action", action);
        operation
                .putObject("x-kubernetes-group-version-kind")
                .put("group", kind.group())
                .put("kind", kind.kind())
                .put("version", kind.version());
        ObjectNode ok = operation.putObject("responses").putObject("200").put("description", "OK");
        if (kind.schema().isPresent()) {
            ok.putObject("content")
                    .putObject("application/json")
                    .putObject("schema")
                    .put("$ref", SCHEMAS + schemaName(kind, responseKind));
        }
        return operation;
    }

    private static ArrayNode pathParameters(OpenApiKind kind, boolean named) {
        List<String> names = new ArrayList<>();
        if (kind.namespaced()) {
            names.add("namespace");
        }
        if (named) {
            names.add("name");
        }
        ArrayNode parameters = JSON.createArrayNode();
        names.forEach(name -> parameters
                .addObject()
                .put("name", name)
                .put("in", "path")
                .put("required", true)
                .putObject("schema")
                .put("type", "string"));
        return parameters;
    }

    /** As kube-apiserver names schemas: the group's DNS labels reversed, the version, the kind. */
    private static String schemaName(OpenApiKind kind, String kindName) {
        List<String> labels = new ArrayList<>(List.of(kind.group().split("\\.")));
        Collections.reverse(labels);
        return String.join(".", labels) + "." + kind.version() + "." + kindName;
    }
}
