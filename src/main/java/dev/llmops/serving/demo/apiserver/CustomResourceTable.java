package dev.llmops.serving.demo.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * Server-side printing of custom resources: the meta.k8s.io/v1 Table kube-apiserver answers kubectl get with — a Name
 * column, then the CRD's printer columns (or Age when it declares none), each cell its JSONPath's value — since without
 * it kubectl shows only NAME and AGE.
 */
final class CustomResourceTable implements TableColumns {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String AGE_PATH = ".metadata.creationTimestamp";

    private final List<JsonNode> columns;
    private final Instant now;

    CustomResourceTable(ServedCrdVersion crd, Instant now) {
        this.columns = crd.printerColumns().isEmpty() ? List.of(ageColumn()) : crd.printerColumns();
        this.now = now;
    }

    @Override
    public ArrayNode definitions() {
        ArrayNode definitions = JSON.createArrayNode();
        definitions.add(TableColumns.column("Name", "string", "name", "Name of the object.", 0));
        columns.forEach(column -> definitions.add(TableColumns.column(
                column.path("name").asText(),
                column.path("type").asText(),
                column.path("format").asText(""),
                describe(column),
                column.path("priority").asInt(0))));
        return definitions;
    }

    @Override
    public ArrayNode cells(JsonNode object) {
        ArrayNode cells = JSON.createArrayNode();
        cells.add(object.path("metadata").path("name").asText());
        columns.forEach(column -> cells.add(cell(column, object)));
        return cells;
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

    private static JsonNode ageColumn() {
        return JSON.createObjectNode().put("name", "Age").put("type", "date").put("jsonPath", AGE_PATH);
    }
}
