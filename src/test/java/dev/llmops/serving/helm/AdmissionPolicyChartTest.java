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
 * watches, check a ServingExperiment as the ModelServers and BenchmarkRuns it would create, and the operator's
 * self-policy covers everything its RBAC lets it create with a pod inside, ephemeral containers included.
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
        assertThat(fields(policy(chart, "benchmarkruns")))
                .containsExactly(
                        "spec.runner.image",
                        "spec.dataset.shareGpt.configMap.name",
                        "spec.dataset.trace.configMap.name",
                        "spec.target.apiKeySecret.name");
        for (String name : List.of("modelservers", "benchmarkruns", "servingexperiments")) {
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
    void aServingExperimentIsCheckedAsTheModelServersAndBenchmarkRunsItWouldCreateAndEachVariantToo() {
        RenderedChart chart = RenderedChart.render(Map.of(
                WORKLOADS + "enabled",
                true,
                WORKLOADS + "allowedImages[0]",
                "registry.example.com/ml/",
                WORKLOADS + "allowedRuntimeClassNames[0]",
                "nvidia",
                WORKLOADS + "allowedPriorityClassNames[0]",
                "gpu-serving",
                WORKLOADS + "allowedSecrets[0]",
                "hf-token",
                WORKLOADS + "allowedConfigMaps[0]",
                "prompts"));

        ValidatingAdmissionPolicy experiments = policy(chart, "servingexperiments");
        assertThat(experiments.getSpec().getMatchConstraints().getResourceRules())
                .flatExtracting(NamedRuleWithOperations::getResources)
                .containsExactly("servingexperiments");
        assertThat(experiments.getSpec().getFailurePolicy()).isEqualTo("Fail");
        assertThat(fields(experiments))
                .containsExactly(
                        "spec.server.image",
                        "spec.server.scheduling.runtimeClassName",
                        "spec.server.scheduling.priorityClassName",
                        "spec.server.env[].valueFrom.secretKeyRef.name",
                        "spec.server.huggingFaceTokenSecret.name",
                        "spec.server.apiKeySecret.name",
                        "spec.server.env[].valueFrom.configMapKeyRef.name",
                        "spec.variants[].image",
                        "spec.variants[].env[].valueFrom.secretKeyRef.name",
                        "spec.variants[].env[].valueFrom.configMapKeyRef.name",
                        "spec.benchmark.runner.image",
                        "spec.benchmark.dataset.shareGpt.configMap.name",
                        "spec.benchmark.dataset.trace.configMap.name");
        assertThat(experiments.getSpec().getValidations())
                .extracting(Validation::getMessage)
                .allSatisfy(m -> assertThat(m)
                        .endsWith(
                                m.contains("image")
                                        ? "registry.example.com/ml/"
                                        : m.contains("runtimeClassName")
                                                ? "nvidia"
                                                : m.contains("priorityClassName")
                                                        ? "gpu-serving"
                                                        : m.contains("secretKeyRef") || m.contains("Secret")
                                                                ? "hf-token"
                                                                : "prompts"));
        assertThat(expressions(experiments))
                .as("spec.server checked as a ModelServer's spec")
                .containsAll(expressions(policy(chart, "modelservers")).stream()
                        .map(e -> e.replace("object.spec.", "object.spec.server."))
                        .toList())
                .as("spec.benchmark checked as a BenchmarkRun's spec, when it has one")
                .containsAll(expressions(policy(chart, "benchmarkruns")).stream()
                        .filter(e -> !e.contains("object.spec.target"))
                        .map(e ->
                                "!has(object.spec.benchmark) || " + e.replace("object.spec.", "object.spec.benchmark."))
                        .toList());
        assertThat(variables(experiments))
                .containsEntry(
                        "env",
                        variables(policy(chart, "modelservers"))
                                .get("env")
                                .replace("object.spec.", "object.spec.server."));
    }

    @Test
    void eachEmptyListLeavesItsFieldsUncheckedAndAllEmptyIsRefused() {
        RenderedChart chart = RenderedChart.render(
                Map.of(WORKLOADS + "enabled", true, WORKLOADS + "allowedRuntimeClassNames[0]", "nvidia"));

        assertThat(fields(policy(chart, "modelservers"))).containsExactly("spec.scheduling.runtimeClassName");
        assertThat(fields(policy(chart, "servingexperiments")))
                .containsExactly("spec.server.scheduling.runtimeClassName");
        assertThat(chart.all(ValidatingAdmissionPolicy.class))
                .extracting(p -> p.getMetadata().getName())
                .containsExactly(FULLNAME + "-modelservers", FULLNAME + "-servingexperiments");
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
        assertThat(matched).containsAll(creatable).containsAll(POD_CARRYING).contains("pods/ephemeralcontainers");
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

    /** The field each validation of the policy checks: the first word of its message. */
    private static List<String> fields(ValidatingAdmissionPolicy policy) {
        return policy.getSpec().getValidations().stream()
                .map(Validation::getMessage)
                .map(m -> m.substring(0, m.indexOf(' ')))
                .toList();
    }

    private static List<String> expressions(ValidatingAdmissionPolicy policy) {
        return policy.getSpec().getValidations().stream()
                .map(Validation::getExpression)
                .toList();
    }

    private static Map<String, String> variables(ValidatingAdmissionPolicy policy) {
        return policy.getSpec().getVariables().stream()
                .collect(Collectors.toMap(Variable::getName, Variable::getExpression));
    }
}
