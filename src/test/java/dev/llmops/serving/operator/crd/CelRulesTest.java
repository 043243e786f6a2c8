package dev.llmops.serving.operator.crd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRuleBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The rule compiler rejects what the API server rejects when a CRD is created, so a broken rule fails the build. */
class CelRulesTest {

    @Test
    void aRuleNamingAFieldTheSchemaLacksDoesNotCompile() {
        assertThatThrownBy(() -> new CelRules(parallelismWithRule("self.tpp % self.ep == 0", null)))
                .hasMessageContaining("rule at self does not compile: self.tpp % self.ep == 0")
                .hasMessageContaining("undefined field 'tpp'");
    }

    @Test
    void aRuleComparingAnIntegerWithAStringDoesNotCompile() {
        assertThatThrownBy(() -> new CelRules(parallelismWithRule("self.tp == 'eight'", null)))
                .hasMessageContaining("found no matching overload for '_==_' applied to '(int, string)'");
    }

    @Test
    void aFieldPathOutsideTheSchemaIsRejected() {
        assertThatThrownBy(() -> new CelRules(parallelismWithRule("self.tp % self.ep == 0", ".expertParallel")))
                .hasMessageContaining("fieldPath .expertParallel of a rule at self is not a field of the schema");
    }

    @Test
    void onlyARuleThatReadsOldSelfIsATransitionRule() throws Exception {
        JSONSchemaProps schema = parallelismWithRule("self.tp % self.ep == 0", ".ep");
        schema.getXKubernetesValidations()
                .add(new ValidationRuleBuilder()
                        .withRule("self.tp >= oldSelf.tp")
                        .build());
        CelRules rules = new CelRules(schema);

        assertThat(rules.at(schema)).extracting(CelRules.Compiled::transition).containsExactly(false, true);
        assertThat(rules.at(schema).get(0).holds(Map.of("tp", 8L, "ep", 4L), null))
                .isTrue();
        assertThat(rules.at(schema).get(0).holds(Map.of("tp", 8L, "ep", 3L), null))
                .isFalse();
        assertThat(rules.at(schema).get(1).holds(Map.of("tp", 4L, "ep", 1L), Map.of("tp", 8L, "ep", 1L)))
                .isFalse();
    }

    private static JSONSchemaProps parallelismWithRule(String rule, String fieldPath) {
        JSONSchemaProps integer =
                new JSONSchemaPropsBuilder().withType("integer").build();
        return new JSONSchemaPropsBuilder()
                .withType("object")
                .addToProperties("tp", integer)
                .addToProperties("ep", integer)
                .addNewXKubernetesValidation()
                .withRule(rule)
                .withFieldPath(fieldPath)
                .endXKubernetesValidation()
                .build();
    }
}
