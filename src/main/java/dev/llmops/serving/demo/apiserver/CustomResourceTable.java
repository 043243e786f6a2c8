package dev.llmops.serving.demo.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Server-side printing of custom resources: the meta.k8s.io/v1 Table kube-apiserver answers kubectl get with — a Name
 * column, then the CRD's printer columns (or Age when it declares none), each cell its JSONPath's value — since without
 * it kubectl shows only NAME and AGE.
 */
final class CustomResourceTable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String AGE_PATH = ".metadata.creationTimestamp";

    private final List<JsonNode> columns;
    private final Instant now;

    CustomResourceTable(ServedCrdVersion crd, Instant now) {
        this.columns = crd.printerColumns().isEmpty() ? List.of(ageColumn()) : crd.printerColumns();
        this.now = now;
    }

    /**
     * The Table of a list or of a single object; includeObject is the request's parameter (None, Object, or by default
     * PartialObjectMetadata).
     */
    ObjectNode of(JsonNode listOrObject, String includeObject) {
        ObjectNode table = JSON.createObjectNode().put("kind", "Table").put("apiVersion", "meta.k8s.io/v1");
        ObjectNode metadata = table.putObject("metadata");
        JsonNode listMetadata = listOrObject.path("metadata");
        if (listOrObject.has("items")) {
            copyText(listMetadata, metadata, "resourceVersion");
            copyText(listMetadata, metadata, "continue");
        }
        ArrayNode definitions = table.putArray("columnDefinitions");
        definitions.add(column("Name", "string", "name", "Name of the object.", 0));
        columns.forEach(column -> definitions.add(column(
                column.path("name").asText(),
                column.path("type").asText(),
                column.path("format").asText(""),
                describe(column),
                column.path("priority").asInt(0))));
        ArrayNode rows = table.putArray("rows");
        List<JsonNode> objects = new ArrayList<>();
        if (listOrObject.has("items")) {
            listOrObject.path("items").forEach(objects::add);
        } else {
            objects.add(listOrObject);
        }
        objects.forEach(object -> rows.add(row(object, includeObject)));
        return table;
    }

    private ObjectNode row(JsonNode object, String includeObject) {
        ObjectNode row = JSON.createObjectNode();
        ArrayNode cells = row.putArray("cells");
        cells.add(object.path("metadata").path("name").asText());
        columns.forEach(column -> cells.add(cell(column, object)));
        if ("Object".equals(includeObject)) {
            row.set("object", object);
        } else if (!"None".equals(includeObject)) {
            row.putObject("object")
                    .put("kind", "PartialObjectMetadata")
                    .put("apiVersion", "meta.k8s.io/v1")
                    .set("metadata", object.path("metadata"));
        }
        return row;
    }

    /** The cell of one column, typed as kube-apiserver types it; null (printed as &lt;none&gt;) without a value. */
    private JsonNode cell(JsonNode column, JsonNode object) {
        JsonNode value = SimpleJsonPath.evaluate(column.path("jsonPath").asText(), object)
                .orElse(null);
        if (value == null) {
            return NODES.nullNode();
        }
        return switch (column.path("type").asText()) {
            case "string" -> NODES.textNode(value.isValueNode() ? value.asText() : value.toString());
            case "integer" -> value.isNumber() ? NODES.numberNode(value.longValue()) : NODES.nullNode();
            case "number" -> value.isNumber() ? NODES.numberNode(value.doubleValue()) : NODES.nullNode();
            case "boolean" -> value.isBoolean() ? value : NODES.nullNode();
            case "date" -> age(value);
            default -> NODES.nullNode();
        };
    }

    private JsonNode age(JsonNode timestamp) {
        try {
            Instant time = OffsetDateTime.parse(timestamp.asText()).toInstant();
            return NODES.textNode(HumanAge.of(Duration.between(time, now)));
        } catch (DateTimeParseException e) {
            return NODES.nullNode();
        }
    }

    private static String describe(JsonNode column) {
        String description = column.path("description").asText("");
        return description.isEmpty()
                ? "Printer column at JSONPath " + column.path("jsonPath").asText()
                : description;
    }

    private static ObjectNode column(String name, String type, String format, String description, int priority) {
        return JSON.createObjectNode()
                .put("name", name)
                .put("type", type)
                .put("format", format)
                .put("description", description)
                .put("priority", priority);
    }

    private static JsonNode ageColumn() {
        return JSON.createObjectNode().put("name", "Age").put("type", "date").put("jsonPath", AGE_PATH);
    }

    private static void copyText(JsonNode from, ObjectNode to, String field) {
        if (from.hasNonNull(field)) {
            to.put(field, from.path(field).asText());
        }
    }
}
