package dev.llmops.serving.operator.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Marks in a CRD's schema the fields Kubernetes requires of the selector and affinity types embedded in it (a node
 * selector's terms, a requirement's key and operator, a pod affinity term's topology key, a weighted term's weight
 * and term). The CRD generator knows only the Java model, which declares none of them required, so an affinity the
 * Deployment would refuse was accepted; now the API server refuses it at admission, naming the field.
 */
final class EmbeddedRequiredFields {

    private EmbeddedRequiredFields() {}

    static void addTo(JSONSchemaProps schema) {
        visit(schema, "", false);
    }

    /** {@code name} is the property this schema is the value of, or, with {@code item}, the array it is an item of. */
    private static void visit(JSONSchemaProps schema, String name, boolean item) {
        if (schema == null) {
            return;
        }
        Set<String> properties = schema.getProperties() == null
                ? Set.of()
                : schema.getProperties().keySet();
        for (String field : requiredFields(name, item, properties)) {
            List<String> required =
                    schema.getRequired() == null ? new ArrayList<>() : new ArrayList<>(schema.getRequired());
            if (!required.contains(field)) {
                required.add(field);
            }
            schema.setRequired(required.stream().sorted().toList());
        }
        if (schema.getProperties() != null) {
            schema.getProperties().forEach((property, value) -> visit(value, property, false));
        }
        if (schema.getItems() != null) {
            visit(schema.getItems().getSchema(), name, true);
        }
    }

    private static List<String> requiredFields(String name, boolean item, Set<String> properties) {
        if (item && (name.equals("matchExpressions") || name.equals("matchFields"))) {
            return List.of("key", "operator");
        }
        boolean requiredTerm = name.equals("requiredDuringSchedulingIgnoredDuringExecution");
        if (requiredTerm && !item && properties.contains("nodeSelectorTerms")) {
            return List.of("nodeSelectorTerms");
        }
        if (((requiredTerm && item) || (name.equals("podAffinityTerm") && !item))
                && properties.contains("topologyKey")) {
            return List.of("topologyKey");
        }
        if (name.equals("preferredDuringSchedulingIgnoredDuringExecution") && item) {
            if (properties.contains("preference")) {
                return List.of("preference", "weight");
            }
            if (properties.contains("podAffinityTerm")) {
                return List.of("podAffinityTerm", "weight");
            }
        }
        return List.of();
    }
}
