package dev.llmops.serving.demo.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The columns of one kind's server-side Table and the cells of an object's row; {@link #table} wraps them in the
 * meta.k8s.io/v1 Table kube-apiserver answers kubectl get with, a list's rows in its order.
 */
interface TableColumns {

    ObjectMapper JSON = new ObjectMapper();

    ArrayNode definitions();

    ArrayNode cells(JsonNode object);

    /**
     * The Table of a list or of a single object; includeObject is the request's parameter (None, Object, or by default
     * PartialObjectMetadata).
     */
    default ObjectNode table(JsonNode listOrObject, String includeObject) {
        ObjectNode table = JSON.createObjectNode().put("kind", "Table").put("apiVersion", "meta.k8s.io/v1");
        ObjectNode metadata = table.putObject("metadata");
        JsonNode listMetadata = listOrObject.path("metadata");
        List<JsonNode> objects = new ArrayList<>();
        if (listOrObject.has("items")) {
            copyText(listMetadata, metadata, "resourceVersion");
            copyText(listMetadata, metadata, "continue");
            listOrObject.path("items").forEach(objects::add);
        } else {
            copyText(listMetadata, metadata, "resourceVersion");
            objects.add(listOrObject);
        }
        table.set("columnDefinitions", definitions());
        ArrayNode rows = table.putArray("rows");
        objects.forEach(object -> {
            ObjectNode row = rows.addObject();
            row.set("cells", cells(object));
            if ("Object".equals(includeObject)) {
                row.set("object", object);
            } else if (!"None".equals(includeObject)) {
                row.putObject("object")
                        .put("kind", "PartialObjectMetadata")
                        .put("apiVersion", "meta.k8s.io/v1")
                        .set("metadata", object.path("metadata"));
            }
        });
        return table;
    }

    /** A column definition as kube-apiserver writes it. */
    static ObjectNode column(String name, String type, String format, String description, int priority) {
        return JSON.createObjectNode()
                .put("name", name)
                .put("type", type)
                .put("format", format)
                .put("description", description)
                .put("priority", priority);
    }

    private static void copyText(JsonNode from, ObjectNode to, String field) {
        if (from.hasNonNull(field)) {
            to.put(field, from.path(field).asText());
        }
    }
}
