package dev.llmops.serving.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperimentSpec;
import dev.llmops.serving.e2e.support.E2eCluster;
import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.OperatorUnderTest;
import dev.llmops.serving.e2e.support.ServingResources;
import dev.llmops.serving.e2e.support.TestNamespace;
import dev.llmops.serving.helm.RenderedChart;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The chart's opt-in admission policies, enforced by a real API server: every rule of the workloads policy refuses a
 * ModelServer, BenchmarkRun or ServingExperiment naming an image, runtime or priority class, Secret or ConfigMap the
 * installation does not allow, with a message naming the field and the allowed values, and admits its near miss; an
 * allowed ModelServer (its image pinned by digest) is accepted, and the operator, its own ServiceAccount bound to the
 * self-policy, still creates its Deployments and Jobs, while the same token asking for a privileged, host-sharing or
 * other-ServiceAccount pod is refused, be it a Pod, a Deployment, a LeaderWorkerSet, an init or an ephemeral container.
 */
@E2eTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AdmissionPolicyOnRealClusterIT {

    private static final String ALLOWED_REGISTRY = "registry.example.com/ml/";
    private static final String PINNED_IMAGE = ALLOWED_REGISTRY + "sglang:v0.5.18-cu130@sha256:" + "ab12".repeat(16);
    private static final String ALLOWED_SECRET = "hf-token";
    private static final String ALLOWED_PRIORITY_CLASS = "gpu-serving";
    private static final String ALLOWED_CONFIG_MAP = "prompts";
    /** An image from next to the allowed registry path, which a prefix without its final "/" would let through. */
    private static final String NEIGHBOURING_IMAGE = "registry.example.com/ml-untrusted/sglang:v0.5.18-cu130";

    private static final String LEGACY_IMAGE = "docker.io/legacy/sglang:v0.5.18-cu130";
    private static final Duration ENFORCED_WITHIN = Duration.ofSeconds(60);
    /** The most env entries the schema lets spec.server and each variant have. */
    private static final int MAX_ENV = 128;

    private static final Map<String, Object> POLICY_VALUES = policyValues();

    private static final List<HasMetadata> policies = new ArrayList<>();

    /** Only the API server's schema of LeaderWorkerSet matters to the policy, so any object is accepted. */
    private static final String LEADER_WORKER_SET_CRD = """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata:
              name: leaderworkersets.leaderworkerset.x-k8s.io
            spec:
              group: leaderworkerset.x-k8s.io
              scope: Namespaced
              names: {kind: LeaderWorkerSet, listKind: LeaderWorkerSetList, plural: leaderworkersets,
                      singular: leaderworkerset}
              versions:
                - name: v1
                  served: true
                  storage: true
                  schema:
                    openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
            """;

    @RegisterExtension
    static final OperatorUnderTest operator = OperatorUnderTest.installed()
            .values(POLICY_VALUES)
            .beforeStart(AdmissionPolicyOnRealClusterIT::installLegacyServerAndPolicies)
            .afterStop((cluster, namespace) ->
                    policies.forEach(p -> cluster.client().resource(p).delete()));

    /** The chart's admission policies of this installation, for the workloads and for the operator itself. */
    private static Map<String, Object> policyValues() {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("admissionPolicy.workloads.enabled", true);
        values.put("admissionPolicy.workloads.allowedImages[0]", ALLOWED_REGISTRY);
        values.put("admissionPolicy.workloads.allowedRuntimeClassNames[0]", "nvidia");
        values.put("admissionPolicy.workloads.allowedPriorityClassNames[0]", ALLOWED_PRIORITY_CLASS);
        values.put("admissionPolicy.workloads.allowedSecrets[0]", ALLOWED_SECRET);
        values.put("admissionPolicy.workloads.allowedConfigMaps[0]", ALLOWED_CONFIG_MAP);
        values.put("admissionPolicy.operator.enabled", true);
        return values;
    }

    /** A ModelServer the policies would refuse, created before them, then the policies the chart renders. */
    private static void installLegacyServerAndPolicies(E2eCluster cluster, TestNamespace namespace) {
        KubernetesClient client = cluster.client();
        client.resource(modelServer(client, namespace, "legacy", s -> s.replace(PINNED_IMAGE, LEGACY_IMAGE)))
                .create();
        // The names OperatorProcess gives the installation: the test namespace as full name and only watched namespace.
        Map<String, Object> chartValues = new LinkedHashMap<>(POLICY_VALUES);
        chartValues.put("fullnameOverride", namespace.name());
        chartValues.put("watchNamespaces[0]", namespace.name());
        RenderedChart chart = RenderedChart.render(chartValues, namespace.name());
        policies.addAll(chart.all(ValidatingAdmissionPolicy.class).toList());
        policies.addAll(chart.all(ValidatingAdmissionPolicyBinding.class).toList());
        assertThat(policies).hasSize(8);
        policies.forEach(p -> client.resource(p).forceConflicts().serverSideApply());
    }

    @BeforeAll
    static void awaitPoliciesEnforced(KubernetesClient client, TestNamespace namespace) {
        await("the ModelServer policy enforced")
                .atMost(ENFORCED_WITHIN)
                .pollInterval(Duration.ofMillis(500))
                .until(() -> rejection(() -> client.resource(
                                        modelServer(client, namespace, "probe", s -> s.replace(PINNED_IMAGE, "evil/x")))
                                .dryRun()
                                .create())
                        != null);
        await("the operator policy enforced")
                .atMost(ENFORCED_WITHIN)
                .pollInterval(Duration.ofMillis(500))
                .until(() -> rejection(() -> asOperator(
                                client,
                                namespace,
                                c -> c.resource(deployment(namespace, "probe", "privileged: true"))
                                        .dryRun()
                                        .create()))
                        != null);
        for (Rule rule : List.of(BENCHMARK_RUN_RUNNER_IMAGE, EXPERIMENT_SERVER_IMAGE)) {
            await("the " + rule.kind() + " policy enforced")
                    .atMost(ENFORCED_WITHIN)
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> dryRunRejection(client, namespace, rule, "docker.io/attacker/miner:latest") != null);
        }
        client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .resource(
                        new KubernetesSerialization().unmarshal(LEADER_WORKER_SET_CRD, CustomResourceDefinition.class))
                .serverSideApply();
        await("LeaderWorkerSets served")
                .atMost(ENFORCED_WITHIN)
                .pollInterval(Duration.ofMillis(200))
                .ignoreExceptions()
                .until(() -> client.genericKubernetesResources("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet")
                                .inNamespace(namespace.name())
                                .list()
                        != null);
    }

    /** The LeaderWorkerSet API exists only for this class: other classes' operators run without it. */
    @AfterAll
    static void removeLeaderWorkerSets(KubernetesClient client) {
        client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .withName("leaderworkersets.leaderworkerset.x-k8s.io")
                .delete();
    }

    @Test
    @Order(1)
    void anAllowedModelServerIsAcceptedAndTheOperatorStillCreatesItsDeploymentAndJob(
            KubernetesClient client, TestNamespace namespace) {
        client.resource(modelServer(client, namespace, "allowed", UnaryOperator.identity()))
                .create();
        ServingResources.createRun(client, namespace, """
                apiVersion: serving.llmops.dev/v1alpha1
                kind: BenchmarkRun
                metadata:
                  name: external
                spec:
                  target:
                    url: http://inference.example:8000
                    model: some-model
                  warmup:
                    requests: 0
                  sweep:
                    concurrency: []
                """);

        Deployment deployment = await("the operator's Deployment")
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(500))
                .until(
                        () -> client.apps()
                                .deployments()
                                .inNamespace(namespace.name())
                                .withName("allowed")
                                .get(),
                        d -> d != null);
        assertThat(deployment
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getImage())
                .isEqualTo(PINNED_IMAGE);
        ServingResources.awaitRun(
                client,
                namespace,
                "external",
                r -> r.getStatus() != null && r.getStatus().jobName != null,
                "its Job created");
        assertThat(client.batch()
                        .v1()
                        .jobs()
                        .inNamespace(namespace.name())
                        .list()
                        .getItems())
                .hasSize(1);
        // Not the audit log: the checks that the operator policy is enforced were refused calls of the operator's name.
        assertThat(operator.process().log())
                .doesNotContain("ValidatingAdmissionPolicy")
                .doesNotContainIgnoringCase("forbidden");
    }

    @Test
    @Order(2)
    void aModelServerWithAnImageFromElsewhereIsRejectedNamingTheFieldAndTheAllowedPrefixes(
            KubernetesClient client, TestNamespace namespace) {
        String message = rejectedModelServer(
                client, namespace, "elsewhere", s -> s.replace(PINNED_IMAGE, "docker.io/attacker/miner:latest"));

        assertThat(message)
                .contains("spec.image docker.io/attacker/miner:latest is not allowed")
                .contains("allowed image prefixes are " + ALLOWED_REGISTRY);
    }

    @Test
    @Order(2)
    void aModelServerHandingItsPodsAnotherSecretIsRejectedNamingTheSecret(
            KubernetesClient client, TestNamespace namespace) {
        String message = rejectedModelServer(
                client, namespace, "other-secret", s -> s.replace("name: " + ALLOWED_SECRET, "name: db-password"));

        assertThat(message)
                .contains("spec.env[].valueFrom.secretKeyRef.name db-password is not allowed")
                .contains("allowed Secrets are " + ALLOWED_SECRET);
    }

    @Test
    @Order(2)
    void aModelServerWithAnotherRuntimeClassIsRejectedNamingTheAllowedOnes(
            KubernetesClient client, TestNamespace namespace) {
        String message = rejectedModelServer(
                client,
                namespace,
                "other-runtime",
                s -> s.replace("runtimeClassName: nvidia", "runtimeClassName: kata"));

        assertThat(message)
                .contains("spec.scheduling.runtimeClassName kata is not allowed")
                .contains("allowed runtime classes are nvidia");
    }

    @Test
    @Order(2)
    void aModelServerCreatedBeforeThePolicyTakesMetadataChangesButNoSpecChangeUntilItComplies(
            KubernetesClient client, TestNamespace namespace) {
        var legacy = client.genericKubernetesResources("serving.llmops.dev/v1alpha1", "ModelServer")
                .inNamespace(namespace.name())
                .withName("legacy");

        assertThat(legacy.edit(server -> {
                            server.getMetadata().setLabels(Map.of("team", "a"));
                            return server;
                        })
                        .getMetadata()
                        .getLabels())
                .containsEntry("team", "a");
        assertThat(rejection(() -> legacy.edit(server -> {
                    server.setAdditionalProperty("spec", withReplicas(server, 2));
                    return server;
                })))
                .contains("spec.image " + LEGACY_IMAGE + " is not allowed");
    }

    @Test
    @Order(3)
    void theOperatorsTokenCannotCreatePrivilegedHostSharingOrOtherServiceAccountPods(
            KubernetesClient client, TestNamespace namespace) {
        Map<String, String> refused = Map.of(
                "privileged: true", "may not create privileged containers",
                "hostNetwork: true", "hostNetwork, hostPID and hostIPC must be unset or false",
                "hostPath: {path: /}", "may not create pods with hostPath volumes",
                "serviceAccountName: admin", "serviceAccountName must be unset or default");

        refused.forEach((setting, reason) -> assertThat(rejection(() -> asOperator(
                        client,
                        namespace,
                        c -> c.resource(deployment(namespace, "bad", setting))
                                .dryRun()
                                .create())))
                .as(setting)
                .contains(reason));
        assertThat(rejection(() -> asOperator(
                        client,
                        namespace,
                        c -> c.resource(deployment(namespace, "fine", ""))
                                .dryRun()
                                .create())))
                .as("a plain Deployment of the operator")
                .isNull();
        assertThat(rejection(() -> client.resource(deployment(namespace, "admins", "privileged: true"))
                        .dryRun()
                        .create()))
                .as("the same Deployment by someone else")
                .isNull();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("workloadRules")
    @Order(2)
    void eachWorkloadRuleRefusesItsFieldNamingTheAllowedValuesAndAdmitsTheNearMiss(
            Rule rule, KubernetesClient client, TestNamespace namespace) {
        assertThat(dryRunRejection(client, namespace, rule, rule.refused()))
                .as("refused")
                .contains(rule.field() + " " + rule.refused() + " is not allowed")
                .contains(rule.allowed());
        assertThat(dryRunRejection(client, namespace, rule, rule.admitted()))
                .as("near miss admitted")
                .isNull();
    }

    @Test
    @Order(2)
    void theLargestServingExperimentTheSchemaAllowsIsJudgedWithinTheApiServersCostBudget(
            KubernetesClient client, TestNamespace namespace) {
        assertThat(rejection(() -> client.resource(largestExperiment(namespace, PINNED_IMAGE))
                        .dryRun()
                        .create()))
                .as("admitted")
                .isNull();
        assertThat(rejection(() -> client.resource(largestExperiment(namespace, NEIGHBOURING_IMAGE))
                        .dryRun()
                        .create()))
                .as("its last variant's image refused")
                .contains("spec.variants[" + (ServingExperimentSpec.MAX_VARIANTS - 1) + "].image " + NEIGHBOURING_IMAGE
                        + " is not allowed");
    }

    /**
     * A ServingExperiment with as many variants and env entries as its schema allows, every one of them checked by the
     * policy (allowed Secrets and ConfigMaps), the last variant running {@code lastImage}.
     */
    private static GenericKubernetesResource largestExperiment(TestNamespace namespace, String lastImage) {
        List<Map<String, Object>> env = IntStream.range(0, MAX_ENV)
                .mapToObj(i -> Map.<String, Object>of(
                        "name",
                        "VALUE_" + i,
                        "valueFrom",
                        i % 2 == 0
                                ? Map.of("secretKeyRef", Map.of("name", ALLOWED_SECRET, "key", "token"))
                                : Map.of("configMapKeyRef", Map.of("name", ALLOWED_CONFIG_MAP, "key", "value"))))
                .toList();
        int last = ServingExperimentSpec.MAX_VARIANTS - 1;
        List<Map<String, Object>> variants = IntStream.rangeClosed(0, last)
                .mapToObj(i -> Map.<String, Object>of(
                        "name", "variant-" + i, "image", i == last ? lastImage : PINNED_IMAGE, "env", env))
                .toList();
        GenericKubernetesResource experiment = new GenericKubernetesResource();
        experiment.setApiVersion("serving.llmops.dev/v1alpha1");
        experiment.setKind("ServingExperiment");
        experiment.setMetadata(new ObjectMetaBuilder()
                .withName("largest")
                .withNamespace(namespace.name())
                .build());
        experiment.setAdditionalProperty(
                "spec",
                Map.of(
                        "server",
                        Map.of("model", Map.of("path", "Qwen/Qwen3-8B"), "image", PINNED_IMAGE, "env", env),
                        "variants",
                        variants));
        return experiment;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("operatorPodPlaces")
    @Order(3)
    void theOperatorsTokenIsRefusedWhatItNeverCreatesWhereverThePodIsAndAdmittedTheNearMiss(
            PodPlace place, KubernetesClient client, TestNamespace namespace) {
        assertThat(operatorDryRunRejection(client, namespace, place, place.refused()))
                .as("refused")
                .contains(place.reason());
        assertThat(operatorDryRunRejection(client, namespace, place, place.admitted()))
                .as("near miss admitted")
                .isNull();
    }

    @Test
    @Order(3)
    void theOperatorsTokenCannotAddAPrivilegedEphemeralContainerToAPod(
            KubernetesClient client, TestNamespace namespace) {
        client.resource(new KubernetesSerialization().unmarshal("""
                        apiVersion: v1
                        kind: Pod
                        metadata:
                          name: debuggee
                          namespace: %s
                        spec:
                          containers: [{name: main, image: registry.example.com/ml/tool:1}]
                        """.formatted(namespace.name()), Pod.class))
                .create();

        assertThat(rejection(() -> asOperator(client, namespace, true, c -> addEphemeralContainer(c, namespace, true))))
                .as("privileged ephemeral container")
                .contains("may not create privileged containers");
        assertThat(rejection(
                        () -> asOperator(client, namespace, true, c -> addEphemeralContainer(c, namespace, false))))
                .as("unprivileged ephemeral container")
                .isNull();
    }

    private static Pod addEphemeralContainer(KubernetesClient client, TestNamespace namespace, boolean privileged) {
        return client.pods()
                .inNamespace(namespace.name())
                .withName("debuggee")
                .ephemeralContainers()
                .edit(pod -> new PodBuilder(pod)
                        .editSpec()
                        .addNewEphemeralContainer()
                        .withName(privileged ? "privileged-debugger" : "debugger")
                        .withImage("registry.example.com/ml/tool:1")
                        .withNewSecurityContext()
                        .withPrivileged(privileged)
                        .endSecurityContext()
                        .endEphemeralContainer()
                        .endSpec()
                        .build());
    }

    /**
     * One rule of the workloads policy: the field it checks (as its message names it), the line that sets the field,
     * inserted below {@code anchor} of an otherwise allowed object of {@code kind}, a value it refuses, the near miss
     * it admits and how its message lists the allowed values.
     */
    record Rule(
            String kind, String field, String anchor, String line, String refused, String admitted, String allowed) {

        @Override
        public String toString() {
            return kind + " " + field;
        }

        String objectWith(String value, TestNamespace namespace) {
            String allowedObject = allowedYaml(kind, kind.toLowerCase() + "-dry-run", namespace);
            assertThat(allowedObject).as("anchor of " + this).containsOnlyOnce(anchor);
            String indent = " ".repeat(anchor.length() - anchor.stripLeading().length() + 2);
            return allowedObject.replace(anchor, anchor + indent + line.formatted(value) + "\n");
        }
    }

    private static final Rule BENCHMARK_RUN_RUNNER_IMAGE = new Rule(
            "BenchmarkRun",
            "spec.runner.image",
            "spec:\n",
            "runner: {image: %s}",
            NEIGHBOURING_IMAGE,
            PINNED_IMAGE,
            "allowed image prefixes are " + ALLOWED_REGISTRY);

    private static final Rule EXPERIMENT_SERVER_IMAGE = new Rule(
            "ServingExperiment",
            "spec.server.image",
            "  server:\n",
            "image: %s",
            NEIGHBOURING_IMAGE,
            PINNED_IMAGE,
            "allowed image prefixes are " + ALLOWED_REGISTRY);

    static Stream<Rule> workloadRules() {
        String secrets = "allowed Secrets are " + ALLOWED_SECRET;
        String configMaps = "allowed ConfigMaps are " + ALLOWED_CONFIG_MAP;
        String secretEnv = "- {name: EXTRA_TOKEN, valueFrom: {secretKeyRef: {name: %s, key: token}}}";
        String configMapEnv = "- {name: PROMPTS, valueFrom: {configMapKeyRef: {name: %s, key: prompts.json}}}";
        String shareGpt = "dataset: {type: ShareGPT, shareGpt: {configMap: {name: %s, key: sharegpt.json}}}";
        String trace = "dataset: {type: Trace, trace: {configMap: {name: %s, key: trace.jsonl}}}";
        String otherSecret = ALLOWED_SECRET + "-admin";
        String otherConfigMap = ALLOWED_CONFIG_MAP + "-private";
        String otherPriorityClass = ALLOWED_PRIORITY_CLASS + "-urgent";
        String priorityClasses = "allowed priority classes are " + ALLOWED_PRIORITY_CLASS;
        return Stream.of(
                new Rule(
                        "ModelServer",
                        "spec.huggingFaceTokenSecret.name",
                        "spec:\n",
                        "huggingFaceTokenSecret: {name: %s, key: token}",
                        otherSecret,
                        ALLOWED_SECRET,
                        secrets),
                new Rule(
                        "ModelServer",
                        "spec.apiKeySecret.name",
                        "spec:\n",
                        "apiKeySecret: {name: %s, key: api-key}",
                        otherSecret,
                        ALLOWED_SECRET,
                        secrets),
                new Rule(
                        "ModelServer",
                        "spec.scheduling.priorityClassName",
                        "  scheduling:\n",
                        "priorityClassName: %s",
                        otherPriorityClass,
                        ALLOWED_PRIORITY_CLASS,
                        priorityClasses),
                new Rule(
                        "ModelServer",
                        "spec.env[].valueFrom.configMapKeyRef.name",
                        "  env:\n",
                        configMapEnv,
                        otherConfigMap,
                        ALLOWED_CONFIG_MAP,
                        configMaps),
                BENCHMARK_RUN_RUNNER_IMAGE,
                new Rule(
                        "BenchmarkRun",
                        "spec.target.apiKeySecret.name",
                        "  target:\n",
                        "apiKeySecret: {name: %s, key: api-key}",
                        otherSecret,
                        ALLOWED_SECRET,
                        secrets),
                new Rule(
                        "BenchmarkRun",
                        "spec.dataset.shareGpt.configMap.name",
                        "spec:\n",
                        shareGpt,
                        otherConfigMap,
                        ALLOWED_CONFIG_MAP,
                        configMaps),
                new Rule(
                        "BenchmarkRun",
                        "spec.dataset.trace.configMap.name",
                        "spec:\n",
                        trace,
                        otherConfigMap,
                        ALLOWED_CONFIG_MAP,
                        configMaps),
                EXPERIMENT_SERVER_IMAGE,
                new Rule(
                        "ServingExperiment",
                        "spec.server.huggingFaceTokenSecret.name",
                        "  server:\n",
                        "huggingFaceTokenSecret: {name: %s, key: token}",
                        otherSecret,
                        ALLOWED_SECRET,
                        secrets),
                new Rule(
                        "ServingExperiment",
                        "spec.server.apiKeySecret.name",
                        "  server:\n",
                        "apiKeySecret: {name: %s, key: api-key}",
                        otherSecret,
                        ALLOWED_SECRET,
                        secrets),
                new Rule(
                        "ServingExperiment",
                        "spec.server.scheduling.runtimeClassName",
                        "    scheduling:\n",
                        "runtimeClassName: %s",
                        "nvidia-legacy",
                        "nvidia",
                        "allowed runtime classes are nvidia"),
                new Rule(
                        "ServingExperiment",
                        "spec.server.scheduling.priorityClassName",
                        "    scheduling:\n",
                        "priorityClassName: %s",
                        otherPriorityClass,
                        ALLOWED_PRIORITY_CLASS,
                        priorityClasses),
                new Rule(
                        "ServingExperiment",
                        "spec.server.env[].valueFrom.secretKeyRef.name",
                        "    env:\n",
                        secretEnv,
                        otherSecret,
                        ALLOWED_SECRET,
                        secrets),
                new Rule(
                        "ServingExperiment",
                        "spec.server.env[].valueFrom.configMapKeyRef.name",
                        "    env:\n",
                        configMapEnv,
                        otherConfigMap,
                        ALLOWED_CONFIG_MAP,
                        configMaps),
                new Rule(
                        "ServingExperiment",
                        "spec.variants[1].image",
                        "    - name: tuned\n",
                        "image: %s",
                        NEIGHBOURING_IMAGE,
                        PINNED_IMAGE,
                        "allowed image prefixes are " + ALLOWED_REGISTRY),
                new Rule(
                        "ServingExperiment",
                        "spec.variants[1].env[].valueFrom.secretKeyRef.name",
                        "    - name: tuned\n",
                        "env: [" + secretEnv.substring(2) + "]",
                        otherSecret,
                        ALLOWED_SECRET,
                        secrets),
                new Rule(
                        "ServingExperiment",
                        "spec.variants[1].env[].valueFrom.configMapKeyRef.name",
                        "    - name: tuned\n",
                        "env: [" + configMapEnv.substring(2) + "]",
                        otherConfigMap,
                        ALLOWED_CONFIG_MAP,
                        configMaps),
                new Rule(
                        "ServingExperiment",
                        "spec.benchmark.runner.image",
                        "  benchmark:\n",
                        "runner: {image: %s}",
                        NEIGHBOURING_IMAGE,
                        PINNED_IMAGE,
                        "allowed image prefixes are " + ALLOWED_REGISTRY),
                new Rule(
                        "ServingExperiment",
                        "spec.benchmark.dataset.shareGpt.configMap.name",
                        "  benchmark:\n",
                        shareGpt,
                        otherConfigMap,
                        ALLOWED_CONFIG_MAP,
                        configMaps),
                new Rule(
                        "ServingExperiment",
                        "spec.benchmark.dataset.trace.configMap.name",
                        "  benchmark:\n",
                        trace,
                        otherConfigMap,
                        ALLOWED_CONFIG_MAP,
                        configMaps));
    }

    /** An object of {@code kind} every rule of the workloads policy admits. */
    private static String allowedYaml(String kind, String name, TestNamespace namespace) {
        return switch (kind) {
            case "ModelServer" -> modelServerYaml(name, namespace);
            case "BenchmarkRun" -> """
                    apiVersion: serving.llmops.dev/v1alpha1
                    kind: BenchmarkRun
                    metadata:
                      name: %s
                      namespace: %s
                    spec:
                      target:
                        url: http://inference.example:8000
                        model: some-model
                      warmup:
                        requests: 0
                      sweep:
                        concurrency: []
                    """.formatted(name, namespace.name());
            case "ServingExperiment" -> """
                    apiVersion: serving.llmops.dev/v1alpha1
                    kind: ServingExperiment
                    metadata:
                      name: %s
                      namespace: %s
                    spec:
                      server:
                        model:
                          path: Qwen/Qwen3-8B
                        env:
                          - name: HF_TOKEN
                            valueFrom:
                              secretKeyRef:
                                name: %s
                                key: token
                        scheduling:
                          nodeSelector: {pool: gpu}
                      variants:
                        - name: baseline
                        - name: tuned
                          extraArgs: ["--attention-backend", "triton"]
                      benchmark:
                        warmup:
                          requests: 0
                    """.formatted(name, namespace.name(), ALLOWED_SECRET);
            default -> throw new IllegalArgumentException(kind);
        };
    }

    private static String dryRunRejection(KubernetesClient client, TestNamespace namespace, Rule rule, String value) {
        GenericKubernetesResource object = client.getKubernetesSerialization()
                .unmarshal(rule.objectWith(value, namespace), GenericKubernetesResource.class);
        return rejection(() -> client.resource(object).dryRun().create());
    }

    /**
     * Somewhere a pod the operator's token creates hides, written with a setting ({@code %s}) the operator policy
     * refuses and its near miss; {@code beyondRbac} when the operator's RBAC grants no create there, so only a
     * token with more rights would reach the policy.
     */
    record PodPlace(
            String description, String yaml, String refused, String admitted, String reason, boolean beyondRbac) {

        @Override
        public String toString() {
            return description;
        }
    }

    static Stream<PodPlace> operatorPodPlaces() {
        String privileged = "may not create privileged containers";
        String hostNamespaces = "hostNetwork, hostPID and hostIPC must be unset or false";
        return Stream.of(
                new PodPlace("a Pod's privileged container", """
                        apiVersion: v1
                        kind: Pod
                        metadata: {name: bad}
                        spec:
                          containers:
                            - {name: main, image: registry.example.com/ml/tool:1, securityContext: {privileged: %s}}
                        """, "true", "false", privileged, true),
                new PodPlace("a Pod sharing the node's PID namespace", """
                        apiVersion: v1
                        kind: Pod
                        metadata: {name: bad}
                        spec:
                          hostPID: %s
                          containers: [{name: main, image: registry.example.com/ml/tool:1}]
                        """, "true", "false", hostNamespaces, true),
                new PodPlace("a Deployment's privileged init container", """
                        apiVersion: apps/v1
                        kind: Deployment
                        metadata: {name: bad}
                        spec:
                          selector: {matchLabels: {app: bad}}
                          template:
                            metadata: {labels: {app: bad}}
                            spec:
                              initContainers:
                                - {name: init, image: registry.example.com/ml/tool:1, securityContext: {privileged: %s}}
                              containers: [{name: main, image: registry.example.com/ml/tool:1}]
                        """, "true", "false", privileged, false),
                new PodPlace(
                        "a Job's pod as another ServiceAccount",
                        """
                        apiVersion: batch/v1
                        kind: Job
                        metadata: {name: bad}
                        spec:
                          template:
                            spec:
                              restartPolicy: Never
                              serviceAccountName: %s
                              containers: [{name: main, image: registry.example.com/ml/tool:1}]
                        """,
                        "admin",
                        "default",
                        "serviceAccountName must be unset or default",
                        false),
                new PodPlace(
                        "a LeaderWorkerSet worker's privileged container", """
                        apiVersion: leaderworkerset.x-k8s.io/v1
                        kind: LeaderWorkerSet
                        metadata: {name: bad}
                        spec:
                          leaderWorkerTemplate:
                            size: 2
                            workerTemplate:
                              spec:
                                containers:
                                  - name: main
                                    image: registry.example.com/ml/tool:1
                                    securityContext: {privileged: %s}
                        """, "true", "false", privileged, false),
                new PodPlace(
                        "a LeaderWorkerSet leader sharing the node's IPC namespace",
                        """
                        apiVersion: leaderworkerset.x-k8s.io/v1
                        kind: LeaderWorkerSet
                        metadata: {name: bad}
                        spec:
                          leaderWorkerTemplate:
                            size: 2
                            leaderTemplate:
                              spec:
                                hostIPC: %s
                                containers: [{name: leader, image: registry.example.com/ml/tool:1}]
                            workerTemplate:
                              spec:
                                containers: [{name: worker, image: registry.example.com/ml/tool:1}]
                        """,
                        "true",
                        "false",
                        hostNamespaces,
                        false));
    }

    private static String operatorDryRunRejection(
            KubernetesClient client, TestNamespace namespace, PodPlace place, String setting) {
        HasMetadata object =
                new KubernetesSerialization().unmarshal(place.yaml().formatted(setting));
        object.getMetadata().setNamespace(namespace.name());
        return rejection(() -> asOperator(
                client,
                namespace,
                place.beyondRbac(),
                c -> c.resource(object).dryRun().create()));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> withReplicas(GenericKubernetesResource server, int replicas) {
        Map<String, Object> spec = new LinkedHashMap<>(
                (Map<String, Object>) server.getAdditionalProperties().get("spec"));
        spec.put("replicas", replicas);
        return spec;
    }

    private static String rejectedModelServer(
            KubernetesClient client, TestNamespace namespace, String name, UnaryOperator<String> edit) {
        String message = rejection(() ->
                client.resource(modelServer(client, namespace, name, edit)).create());
        assertThat(message).as("rejection of ModelServer " + name).isNotNull();
        assertThat(client.genericKubernetesResources("serving.llmops.dev/v1alpha1", "ModelServer")
                        .inNamespace(namespace.name())
                        .withName(name)
                        .get())
                .isNull();
        return message;
    }

    /** A ModelServer allowed by the policy, edited by {@code edit} before it is read. */
    private static GenericKubernetesResource modelServer(
            KubernetesClient client, TestNamespace namespace, String name, UnaryOperator<String> edit) {
        return client.getKubernetesSerialization()
                .unmarshal(edit.apply(modelServerYaml(name, namespace)), GenericKubernetesResource.class);
    }

    private static String modelServerYaml(String name, TestNamespace namespace) {
        return """
                apiVersion: serving.llmops.dev/v1alpha1
                kind: ModelServer
                metadata:
                  name: %s
                  namespace: %s
                spec:
                  model:
                    path: Qwen/Qwen3-8B
                  image: %s
                  env:
                    - name: HF_TOKEN
                      valueFrom:
                        secretKeyRef:
                          name: %s
                          key: token
                    - name: LOG_LEVEL
                      value: info
                  scheduling:
                    runtimeClassName: nvidia
                """.formatted(name, namespace.name(), PINNED_IMAGE, ALLOWED_SECRET);
    }

    /** A Deployment whose pod carries {@code setting} (a pod field, a container's securityContext or a volume). */
    private static Deployment deployment(TestNamespace namespace, String name, String setting) {
        String pod = setting.startsWith("privileged") ? "" : setting.startsWith("hostPath") ? "" : setting;
        String container = setting.startsWith("privileged") ? "securityContext: {" + setting + "}" : "";
        String volume = setting.startsWith("hostPath") ? "volumes: [{name: host, " + setting + "}]" : "";
        return new KubernetesSerialization()
                .unmarshal("""
                        apiVersion: apps/v1
                        kind: Deployment
                        metadata:
                          name: %s
                          namespace: %s
                        spec:
                          selector:
                            matchLabels: {app: %s}
                          template:
                            metadata:
                              labels: {app: %s}
                            spec:
                              %s
                              %s
                              containers:
                                - name: main
                                  image: registry.example.com/ml/tool:1
                                  %s
                        """.formatted(name, namespace.name(), name, name, pod, volume, container), Deployment.class);
    }

    /** Runs a request as the operator's ServiceAccount (impersonated, so with exactly the chart's RBAC). */
    private static Object asOperator(
            KubernetesClient admin, TestNamespace namespace, Function<KubernetesClient, ?> call) {
        return asOperator(admin, namespace, false, call);
    }

    /**
     * Runs a request under the operator's user name; {@code beyondRbac} adds the group system:masters, as a token
     * granted more than the chart's RBAC would have, so that a request the RBAC alone refuses reaches admission.
     */
    private static Object asOperator(
            KubernetesClient admin, TestNamespace namespace, boolean beyondRbac, Function<KubernetesClient, ?> call) {
        ConfigBuilder config = new ConfigBuilder(admin.getConfiguration())
                .withImpersonateUsername("system:serviceaccount:" + namespace.name() + ":" + namespace.name());
        if (beyondRbac) {
            config.withImpersonateGroups("system:masters");
        }
        try (KubernetesClient impersonating =
                new KubernetesClientBuilder().withConfig(config.build()).build()) {
            return call.apply(impersonating);
        }
    }

    /** The API server's message when it refuses the request, null when it accepts it. */
    private static String rejection(Runnable request) {
        try {
            request.run();
            return null;
        } catch (KubernetesClientException e) {
            if (e.getCode() != 403 && e.getCode() != 422) {
                throw e;
            }
            return e.getStatus() != null && e.getStatus().getMessage() != null
                    ? e.getStatus().getMessage()
                    : e.getMessage();
        }
    }
}
