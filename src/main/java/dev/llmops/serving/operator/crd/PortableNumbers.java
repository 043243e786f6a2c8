package dev.llmops.serving.operator.crd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.math.BigDecimal;

/**
 * A copy of a CRD whose floating-point numbers every YAML reader takes for numbers. The schema model holds bounds as
 * {@code Double}, which the generator writes as Java prints a double ({@code maximum: 8.64E7}, {@code minimum: 1.0});
 * YAML 1.1 floats need a dot and a signed exponent, so PyYAML, behind many validators and GitOps tools, reads
 * {@code 8.64E7} as a string. In the copy a whole number is an integer ({@code 86400000}) and any other number its
 * shortest decimal, without exponent unless tiny, then with a dot and a signed one ({@code 1.0E-7}). The copy is plain
 * maps, which can hold integers where the model cannot; the generator writes whatever the post-processor returns, in
 * the copy's unchanged field order.
 */
final class PortableNumbers {

    /** Configured as the generator's own, so the copy has the fields the CRD would be written with, in that order. */
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization(new ObjectMapper(), false);

    private PortableNumbers() {}

    static GenericKubernetesResource copyOf(HasMetadata resource) {
        JsonNode tree = SERIALIZATION.convertValue(resource, JsonNode.class);
        rewriteChildren(tree);
        return SERIALIZATION.convertValue(tree, GenericKubernetesResource.class);
    }

    private static void rewriteChildren(JsonNode node) {
        if (node instanceof ObjectNode object) {
            object.properties().forEach(property -> property.setValue(portable(property.getValue())));
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                array.set(i, portable(array.get(i)));
            }
        }
    }

    private static JsonNode portable(JsonNode node) {
        if (!node.isFloatingPointNumber()) {
            rewriteChildren(node);
            return node;
        }
        if (node.canConvertToExactIntegral()) {
            return BigIntegerNode.valueOf(node.bigIntegerValue());
        }
        return DecimalNode.valueOf(BigDecimal.valueOf(node.doubleValue()));
    }
}
