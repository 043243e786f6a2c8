package dev.llmops.serving.demo.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JSONPath subset that printer columns and field selectors are written in — fields, list indexes and a list
 * element picked by one field's value, as in {@code .status.phase}, {@code .status.conditions[0].type} or
 * {@code .status.conditions[?(@.type=="Ready")].reason} — evaluated to the single value kube-apiserver shows.
 */
final class SimpleJsonPath {

    private static final Pattern STEP =
            Pattern.compile("\\.([A-Za-z0-9_-]+)|\\[(\\d+)]|\\[\\?\\(@\\.([A-Za-z0-9_-]+)\\s*==\\s*\"([^\"]*)\"\\)]");

    private SimpleJsonPath() {}

    /**
     * The value at the path; empty when a step is missing or the value is null.
     *
     * @throws IllegalArgumentException for JSONPath beyond fields, indexes and equality filters (wildcards, ranges)
     */
    static Optional<JsonNode> evaluate(String path, JsonNode object) {
        Matcher step = STEP.matcher(path);
        JsonNode current = object;
        int position = 0;
        while (position < path.length()) {
            if (!step.find(position) || step.start() != position) {
                throw new IllegalArgumentException("Unsupported JSONPath " + path + " at position " + position);
            }
            if (step.group(1) != null) {
                current = current.path(step.group(1));
            } else if (step.group(2) != null) {
                current = current.path(Integer.parseInt(step.group(2)));
            } else {
                current = firstWhere(current, step.group(3), step.group(4));
            }
            position = step.end();
        }
        return current.isMissingNode() || current.isNull() || position == 0 ? Optional.empty() : Optional.of(current);
    }

    /** The first element of a list whose field has the value, as a filter with one match shows it. */
    private static JsonNode firstWhere(JsonNode list, String field, String value) {
        for (JsonNode element : list) {
            if (element.path(field).isTextual() && element.path(field).asText().equals(value)) {
                return element;
            }
        }
        return MissingNode.getInstance();
    }
}
