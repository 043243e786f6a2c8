package dev.llmops.serving.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.e2e.support.E2eCluster;
import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.OperatorUnderTest;
import dev.llmops.serving.e2e.support.ServingResources;
import dev.llmops.serving.e2e.support.TestNamespace;
import dev.llmops.serving.helm.RenderedChart;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The chart's opt-in admission policies, enforced by a real API server: a ModelServer naming an image, runtime class
 * or Secret the installation does not allow is rejected with a message naming the field and the allowed values, an
 * allowed one (its image pinned by digest) is accepted, and the operator, its own ServiceAccount bound to the
 * self-policy, still creates its Deployments and Jobs, while the same token asking for a privileged, host-sharing or
 * other-ServiceAccount pod is refused.
 */
@E2eTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AdmissionPolicyOnRealClusterIT {

    private static final String ALLOWED_REGISTRY = "registry.example.com/ml/";
    private static final String PINNED_IMAGE = ALLOWED_REGISTRY + "sglang:v0.5.18-cu130@sha256:" + "ab12".repeat(16);
    private static final String ALLOWED_SECRET = "hf-token";
    private static final String LEGACY_IMAGE = "docker.io/legacy/sglang:v0.5.18-cu130";
    private static final Duration ENFORCED_WITHIN = Duration.ofSeconds(60);

    private static final Map<String, Object> POLICY_VALUES = policyValues();

    private static final List<HasMetadata> policies = new ArrayList<>();

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
        values.put("admissionPolicy.workloads.allowedSecrets[0]", ALLOWED_SECRET);
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
        assertThat(policies).hasSize(6);
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
        String yaml = edit.apply("""
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
                """.formatted(name, namespace.name(), PINNED_IMAGE, ALLOWED_SECRET));
        return client.getKubernetesSerialization().unmarshal(yaml, GenericKubernetesResource.class);
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
        try (KubernetesClient impersonating = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder(admin.getConfiguration())
                        .withImpersonateUsername("system:serviceaccount:" + namespace.name() + ":" + namespace.name())
                        .build())
                .build()) {
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
