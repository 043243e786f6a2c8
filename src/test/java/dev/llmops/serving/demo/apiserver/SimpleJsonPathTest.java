package dev.llmops.serving.demo.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The JSONPath subset of printer columns and field selectors. */
class SimpleJsonPathTest {

    private static final JsonNode OBJECT = object("""
            {"status": {"phase": "Ready", "replicas": 2, "gone": null,
                        "conditions": [{"type": "Ready"}, {"type": "Scheduled", "status": "True"}]}}
            """);

    @Test
    void fieldsAndIndexesLeadToTheValue() {
        assertThat(SimpleJsonPath.evaluate(".status.phase", OBJECT))
                .hasValueSatisfying(value -> assertThat(value.asText()).isEqualTo("Ready"));
        assertThat(SimpleJsonPath.evaluate(".status.replicas", OBJECT))
                .hasValueSatisfying(value -> assertThat(value.asInt()).isEqualTo(2));
        assertThat(SimpleJsonPath.evaluate(".status.conditions[1].status", OBJECT))
                .hasValueSatisfying(value -> assertThat(value.asText()).isEqualTo("True"));
    }

    @Test
    void aFilterPicksTheListElementWhoseFieldHasTheValue() {
        assertThat(SimpleJsonPath.evaluate(".status.conditions[?(@.type==\"Scheduled\")].status", OBJECT))
                .hasValueSatisfying(value -> assertThat(value.asText()).isEqualTo("True"));
        assertThat(SimpleJsonPath.evaluate(".status.conditions[?(@.type == \"Ready\")].type", OBJECT))
                .hasValueSatisfying(value -> assertThat(value.asText()).isEqualTo("Ready"));
        assertThat(SimpleJsonPath.evaluate(".status.conditions[?(@.type==\"Ready\")].status", OBJECT))
                .isEmpty();
        assertThat(SimpleJsonPath.evaluate(".status.conditions[?(@.type==\"Stalled\")].status", OBJECT))
                .isEmpty();
        assertThat(SimpleJsonPath.evaluate(".status.phase[?(@.type==\"Ready\")]", OBJECT))
                .as("a filter on what is not a list")
                .isEmpty();
    }

    @Test
    void missingFieldsIndexesAndNullsHaveNoValue() {
        assertThat(SimpleJsonPath.evaluate(".status.endpoint", OBJECT)).isEmpty();
        assertThat(SimpleJsonPath.evaluate(".spec.model.path", OBJECT)).isEmpty();
        assertThat(SimpleJsonPath.evaluate(".status.conditions[2].type", OBJECT))
                .isEmpty();
        assertThat(SimpleJsonPath.evaluate(".status.gone", OBJECT)).isEmpty();
    }

    @Test
    void syntaxBeyondFieldsAndIndexesIsRejected() {
        assertThatThrownBy(() -> SimpleJsonPath.evaluate(".status.conditions[*].type", OBJECT))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SimpleJsonPath.evaluate("status.phase", OBJECT))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static JsonNode object(String json) {
        try {
            return new ObjectMapper().readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }
}
