package dev.llmops.serving.demo.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JSONPath subset that printer columns and field selectors are written in — fields and list indexes, as in
 * {@code .status.phase} or {@code .status.conditions[0].type} — evaluated to the single value kube-apiserver uses.
 */
final class SimpleJsonPath {

    private static final Pattern STEP = Pattern.compile("\\.([A-Za-z0-9_-]+)|\\[(\\d+)]");

    private SimpleJsonPath() {}

    /**
     * The value at the path; empty when a step is missing or the value is null.
     *
     * @throws IllegalArgumentException for JSONPath beyond fields and indexes (filters, wildcards, ranges)
     */
    static Optional<JsonNode> evaluate(String path, JsonNode object) {
        Matcher step = STEP.matcher(path);
        JsonNode current = object;
        int position = 0;
        while (position < path.length()) {
            if (!step.find(position) || step.start() != position) {
                throw new IllegalArgumentException("Unsupported JSONPath " + path + " at position " + position);
            }
            String field = step.group(1);
            current = field != null ? current.path(field) : current.path(Integer.parseInt(step.group(2)));
            position = step.end();
        }
        return current.isMissingNode() || current.isNull() || position == 0 ? Optional.empty() : Optional.of(current);
    }
}
