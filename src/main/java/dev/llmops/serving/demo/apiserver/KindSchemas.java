package dev.llmops.serving.demo.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The OpenAPI schemas of a custom kind and its list: the CRD's openAPIV3Schema completed with apiVersion, kind and
 * metadata, and tagged with the group-version-kind kubectl explain looks schemas up by.
 */
final class KindSchemas {

    private static final ObjectMapper JSON = new ObjectMapper();

    private KindSchemas() {}

    static ObjectNode kind(OpenApiKind kind, JsonNode openApiV3Schema) {
        ObjectNode schema = openApiV3Schema.deepCopy();
        ObjectNode properties = typeAndMetadata(
                kind,
                kind.kind(),
                "Standard object metadata: name, namespace, labels, annotations, and the fields the API server sets.");
        if (schema.path("properties") instanceof ObjectNode declared) {
            properties.setAll(declared);
        }
        schema.put("type", "object").set("properties", properties);
        tag(schema, kind, kind.kind());
        return schema;
    }

    static ObjectNode list(OpenApiKind kind, String itemReference) {
        ObjectNode schema = JSON.createObjectNode()
                .put("type", "object")
                .put("description", "A list of " + kind.kind() + " objects.");
        ObjectNode properties = typeAndMetadata(
                kind, kind.kind() + "List", "Standard list metadata: the resource version and continue token.");
        properties
                .putObject("items")
                .put("type", "array")
                .put("description", "The objects.")
                .putObject("items")
                .put("$ref", itemReference);
        schema.set("properties", properties);
        schema.putArray("required").add("items");
        tag(schema, kind, kind.kind() + "List");
        return schema;
    }

    private static ObjectNode typeAndMetadata(OpenApiKind kind, String kindName, String metadataDescription) {
        ObjectNode properties = JSON.createObjectNode();
        properties
                .putObject("apiVersion")
                .put("type", "string")
                .put("description", "The versioned schema of this object: " + kind.groupVersion() + ".");
        properties
                .putObject("kind")
                .put("type", "string")
                .put("description", "The REST resource this object represents: " + kindName + ".");
        properties.putObject("metadata").put("type", "object").put("description", metadataDescription);
        return properties;
    }

    private static void tag(ObjectNode schema, OpenApiKind kind, String kindName) {
        schema.putArray("x-kubernetes-group-version-kind")
                .addObject()
                .put("group", kind.group())
                .put("kind", kindName)
                .put("version", kind.version());
    }
}
