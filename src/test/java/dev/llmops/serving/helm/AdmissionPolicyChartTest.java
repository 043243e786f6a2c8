package dev.llmops.serving.helm;

import static dev.llmops.serving.helm.RenderedChart.FULLNAME;
import static dev.llmops.serving.helm.RenderedChart.NAMESPACE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.NamedRuleWithOperations;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.Validation;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.Variable;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The chart's admission policies are opt-in, carry the configured lists into their CEL, apply where the operator
 * watches, and the operator's self-policy covers everything its RBAC lets it create with a pod inside.
 */
class AdmissionPolicyChartTest {

    private static final String WORKLOADS = "admissionPolicy.workloads.";
    private static final Set<String> POD_CARRYING = Set.of("pods", "deployments", "jobs", "leaderworkersets");

    @Test
    void theDefaultChartRendersNoPolicy() {
        RenderedChart chart = RenderedChart.render(Map.of());

        assertThat(chart.all(ValidatingAdmissionPolicy.class)).isEmpty();
        assertThat(chart.all(ValidatingAdmissionPolicyBinding.class)).isEmpty();
    }

    @Test
    void enabledWorkloadPoliciesCarryTheConfiguredListsAndDenyInTheWatchedNamespaces() {
        RenderedChart chart = RenderedChart.render(Map.of(
                "watchNamespaces[0]",
                "team-a",
                "watchNamespaces[1]",
                "team-b",
                WORKLOADS + "enabled",
                true,
                WORKLOADS + "allowedImages[0]",
                "registry.example.com/ml/",
                WORKLOADS + "allowedImages[1]",
                "lmsysorg/sglang:",
                WORKLOADS + "allowedRuntimeClassNames[0]",
                "nvidia",
                WORKLOADS + "allowedPriorityClassNames[0]",
                "gpu-serving",
                WORKLOADS + "allowedSecrets[0]",
                "hf-token",
                WORKLOADS + "allowedConfigMaps[0]",
                "prompts"));

        ValidatingAdmissionPolicy servers = policy(chart, "modelservers");
        assertThat(variables(servers))
                .containsEntry("allowedImages", "[\"registry.example.com/ml/\",\"lmsysorg/sglang:\"]")
                .containsEntry("allowedRuntimeClassNames", "[\"nvidia\"]")
                .containsEntry("allowedPriorityClassNames", "[\"gpu-serving\"]")
                .containsEntry("allowedSecrets", "[\"hf-token\"]")
                .containsEntry("allowedConfigMaps", "[\"prompts\"]");
        assertThat(servers.getSpec().getMatchConstraints().getResourceRules())
                .flatExtracting(NamedRuleWithOperations::getResources)
                .containsExactly("modelservers");
        assertThat(servers.getSpec().getFailurePolicy()).isEqualTo("Fail");
        assertThat(servers.getSpec().getValidations())
                .extracting(Validation::getMessage)
                .anySatisfy(m ->
                        assertThat(m).startsWith("spec.image ").endsWith("registry.example.com/ml/, lmsysorg/sglang:"))
                .anySatisfy(m -> assertThat(m)
                        .startsWith("spec.scheduling.runtimeClassName")
                        .endsWith("nvidia"))
                .anySatisfy(m -> assertThat(m)
                        .startsWith("spec.scheduling.priorityClassName")
                        .endsWith("gpu-serving"))
                .anySatisfy(m -> assertThat(m)
                        .startsWith("spec.env[].valueFrom.secretKeyRef.name")
                        .endsWith("hf-token"))
                .anySatisfy(m -> assertThat(m).startsWith("spec.huggingFaceTokenSecret.name"))
                .anySatisfy(m -> assertThat(m).startsWith("spec.apiKeySecret.name"))
                .anySatisfy(m -> assertThat(m)
                        .startsWith("spec.env[].valueFrom.configMapKeyRef.name")
                        .endsWith("prompts"));
        assertThat(policy(chart, "benchmarkruns").getSpec().getValidations())
                .extracting(Validation::getMessage)
                .extracting(m -> m.substring(0, m.indexOf(' ')))
                .containsExactly(
                        "spec.runner.image", "spec.target.apiKeySecret.name", "spec.dataset.shareGpt.configMap.name");
        for (String name : List.of("modelservers", "benchmarkruns")) {
            ValidatingAdmissionPolicyBinding binding = binding(chart, name);
            assertThat(binding.getSpec().getPolicyName()).isEqualTo(FULLNAME + "-" + name);
            assertThat(binding.getSpec().getValidationActions()).containsExactly("Deny");
            assertThat(binding.getSpec()
                            .getMatchResources()
                            .getNamespaceSelector()
                            .getMatchExpressions())
                    .singleElement()
                    .satisfies(e -> {
                        assertThat(e.getKey()).isEqualTo("kubernetes.io/metadata.name");
                        assertThat(e.getOperator()).isEqualTo("In");
                        assertThat(e.getValues()).containsExactly("team-a", "team-b");
                    });
        }
    }

    @Test
    void eachEmptyListLeavesItsFieldsUncheckedAndAllEmptyIsRefused() {
        RenderedChart chart = RenderedChart.render(
                Map.of(WORKLOADS + "enabled", true, WORKLOADS + "allowedRuntimeClassNames[0]", "nvidia"));

        assertThat(policy(chart, "modelservers").getSpec().getValidations())
                .extracting(Validation::getMessage)
                .singleElement()
                .asString()
                .startsWith("spec.scheduling.runtimeClassName");
        assertThat(chart.all(ValidatingAdmissionPolicy.class))
                .extracting(p -> p.getMetadata().getName())
                .containsExactly(FULLNAME + "-modelservers");
        assertThat(binding(chart, "modelservers")
                        .getSpec()
                        .getMatchResources()
                        .getNamespaceSelector()
                        .getMatchExpressions())
                .flatExtracting(LabelSelectorRequirement::getValues)
                .containsExactly(NAMESPACE);
        assertThatThrownBy(() -> RenderedChart.render(Map.of(WORKLOADS + "enabled", true)))
                .hasMessageContaining("list at least one allowed image prefix");
    }

    @Test
    void everyNamespaceWithWatchAllNamespacesAndWarnInsteadOfDenyOnRequest() {
        RenderedChart chart = RenderedChart.render(Map.of(
                "watchAllNamespaces",
                true,
                "admissionPolicy.validationActions[0]",
                "Warn",
                "admissionPolicy.validationActions[1]",
                "Audit",
                WORKLOADS + "enabled",
                true,
                WORKLOADS + "allowedSecrets[0]",
                "hf-token"));

        ValidatingAdmissionPolicyBinding binding = binding(chart, "modelservers");
        assertThat(binding.getSpec().getMatchResources()).isNull();
        assertThat(binding.getSpec().getValidationActions()).containsExactly("Warn", "Audit");
    }

    @Test
    void listEntriesThatCouldBreakOutOfTheirCelOrMessageAreRefused() {
        assertThatThrownBy(() -> RenderedChart.render(
                        Map.of(WORKLOADS + "enabled", true, WORKLOADS + "allowedImages[0]", "evil' || true || '")))
                .hasMessageContaining("allowedImages");
        assertThatThrownBy(() -> RenderedChart.render(
                        Map.of(WORKLOADS + "enabled", true, WORKLOADS + "allowedSecrets[0]", "Not_A_Name")))
                .hasMessageContaining("allowedSecrets");
    }

    @Test
    void theOperatorPolicyAppliesToTheOperatorsRequestsOnEverythingItMayCreateWithAPod() {
        RenderedChart chart = RenderedChart.render(Map.of("admissionPolicy.operator.enabled", true));

        ValidatingAdmissionPolicy operator = policy(chart, "operator");
        assertThat(operator.getSpec().getMatchConditions())
                .singleElement()
                .satisfies(c -> assertThat(c.getExpression())
                        .isEqualTo("request.userInfo.username == 'system:serviceaccount:" + NAMESPACE + ":" + FULLNAME
                                + "'"));
        Set<String> matched = operator.getSpec().getMatchConstraints().getResourceRules().stream()
                .flatMap(rule -> rule.getResources().stream())
                .collect(Collectors.toSet());
        Set<String> creatable = chart.grantedRules().stream()
                .filter(r -> r.rule().getVerbs().contains("create")
                        || r.rule().getVerbs().contains("patch"))
                .flatMap(r -> r.rule().getResources().stream())
                .filter(POD_CARRYING::contains)
                .collect(Collectors.toSet());
        assertThat(creatable).isNotEmpty();
        assertThat(matched).containsAll(creatable).containsAll(POD_CARRYING);
        assertThat(operator.getSpec().getValidations())
                .extracting(Validation::getMessage)
                .anySatisfy(m -> assertThat(m).contains("hostNetwork, hostPID and hostIPC"))
                .anySatisfy(m -> assertThat(m).contains("hostPath"))
                .anySatisfy(m -> assertThat(m).contains("privileged"))
                .anySatisfy(m -> assertThat(m).contains("serviceAccountName"));
        assertThat(binding(chart, "operator").getSpec().getMatchResources()).isNull();
        assertThat(chart.all(ValidatingAdmissionPolicy.class)).hasSize(1);
    }

    private static ValidatingAdmissionPolicy policy(RenderedChart chart, String suffix) {
        return chart.find(ValidatingAdmissionPolicy.class, FULLNAME + "-" + suffix)
                .orElseThrow(() -> new AssertionError("no ValidatingAdmissionPolicy " + FULLNAME + "-" + suffix));
    }

    private static ValidatingAdmissionPolicyBinding binding(RenderedChart chart, String suffix) {
        return chart.find(ValidatingAdmissionPolicyBinding.class, FULLNAME + "-" + suffix)
                .orElseThrow(() -> new AssertionError("no binding " + FULLNAME + "-" + suffix));
    }

    private static Map<String, String> variables(ValidatingAdmissionPolicy policy) {
        return policy.getSpec().getVariables().stream()
                .collect(Collectors.toMap(Variable::getName, Variable::getExpression));
    }
}
