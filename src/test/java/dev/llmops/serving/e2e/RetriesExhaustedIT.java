package dev.llmops.serving.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.e2e.support.E2eCluster;
import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.OperatorUnderTest;
import dev.llmops.serving.e2e.support.ServingResources;
import dev.llmops.serving.e2e.support.TestNamespace;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A cause outside the spec that outlasts the operator's retries — a cluster policy denying the operator's Deployments
 * and Jobs with 403, as a policy engine's webhook does — leaves the ModelServer and the BenchmarkRun {@code Stalled}
 * with the API server's message, and once the policy is gone both go on by themselves within the recheck interval,
 * with no change to either.
 */
@E2eTest
class RetriesExhaustedIT {

    private static final Duration RECHECK = Duration.ofSeconds(5);
    private static final String DENIAL = "workloads are frozen in this namespace by the platform team";
    private static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    /** The operator SDK's retries (5 attempts, 2 s growing by 1.5) end about 20 s after the first failure. */
    private static final Duration STALLED_WITHIN = Duration.ofSeconds(90);

    private static List<HasMetadata> policy = List.of();

    @RegisterExtension
    static final OperatorUnderTest operator = OperatorUnderTest.installed()
            .value("extraEnv[0].name", "LLMOPS_STALLED_RECHECK")
            .value("extraEnv[0].value", RECHECK.toSeconds() + "s")
            .beforeStart(RetriesExhaustedIT::freezeWorkloads);

    /** The namespace frozen before the operator starts: it meets the policy from its first reconciliation. */
    private static void freezeWorkloads(E2eCluster cluster, TestNamespace namespace) {
        KubernetesClient client = cluster.client();
        policy = freeze(client, namespace);
        await("the policy enforced")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> denied(client, namespace));
    }

    @AfterAll
    static void liftPolicy(KubernetesClient client) {
        policy.forEach(p -> client.resource(p).delete());
    }

    @Test
    void aDenyingPolicyStallsServerAndRunWithItsMessageAndTheyRecoverWhenItIsLifted(
            KubernetesClient client, TestNamespace namespace) {
        ServingResources.sm120Server(client, namespace, "frozen", 1, 1);
        ServingResources.createRun(client, namespace, """
                apiVersion: serving.llmops.dev/v1alpha1
                kind: BenchmarkRun
                metadata:
                  name: frozen-run
                spec:
                  target:
                    url: http://127.0.0.1:9
                    model: Qwen/Qwen3-8B
                  warmup:
                    requests: 1
                  sweep:
                    concurrency: [1]
                    requestsPerLevel: 1
                """);

        Instant start = Instant.now();
        Condition serverStalled = awaitStalled(client, namespace, ModelServer.class, "frozen");
        Condition runStalled = awaitStalled(client, namespace, BenchmarkRun.class, "frozen-run");
        System.out.printf(
                "[retries-exhausted] both Stalled %.1f s after creation%n",
                Duration.between(start, Instant.now()).toMillis() / 1000.0);
        for (Condition stalled : List.of(serverStalled, runStalled)) {
            assertThat(stalled.getReason()).isEqualTo("ReconcileError");
            assertThat(stalled.getMessage())
                    .startsWith("Reconciliation failed and the retries are used up; tried again every 5 s and on any"
                            + " change: ")
                    .contains(DENIAL)
                    .contains("(HTTP 403)")
                    .doesNotContain("https://");
        }
        assertThat(client.resources(ModelServer.class)
                        .inNamespace(namespace.name())
                        .withName("frozen")
                        .get()
                        .getStatus()
                        .phase)
                .hasToString("Failed");
        assertThat(client.apps()
                        .deployments()
                        .inNamespace(namespace.name())
                        .list()
                        .getItems())
                .isEmpty();
        assertThat(client.batch()
                        .v1()
                        .jobs()
                        .inNamespace(namespace.name())
                        .list()
                        .getItems())
                .isEmpty();

        policy.forEach(p -> client.resource(p).delete());
        Instant lifted = Instant.now();
        await("the server's Deployment and the run's Job once the policy is lifted")
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> !client.apps()
                                .deployments()
                                .inNamespace(namespace.name())
                                .list()
                                .getItems()
                                .isEmpty()
                        && !client.batch()
                                .v1()
                                .jobs()
                                .inNamespace(namespace.name())
                                .list()
                                .getItems()
                                .isEmpty());
        System.out.printf(
                "[retries-exhausted] Deployment and Job %.1f s after the policy was lifted%n",
                Duration.between(lifted, Instant.now()).toMillis() / 1000.0);
        await("the server no longer stalled")
                .atMost(Duration.ofSeconds(30))
                .until(() -> condition(client, namespace, ModelServer.class, "frozen", "Stalled")
                        .map(c -> "False".equals(c.getStatus()))
                        .orElse(false));
        await("the run no longer stalled by the reconcile error (its Job exists; the status write follows it)")
                .atMost(Duration.ofSeconds(30))
                .until(() -> condition(client, namespace, BenchmarkRun.class, "frozen-run", "Stalled")
                        .map(c -> !"ReconcileError".equals(c.getReason()))
                        .orElse(false));
    }

    /** A policy refusing, with 403, every Deployment and Job the operator labels as its own in the namespace. */
    private static List<HasMetadata> freeze(KubernetesClient client, TestNamespace namespace) {
        String name = "freeze-" + namespace.name();
        HasMetadata policy =
                client.resource("""
                        apiVersion: admissionregistration.k8s.io/v1
                        kind: ValidatingAdmissionPolicy
                        metadata:
                          name: %s
                        spec:
                          failurePolicy: Fail
                          matchConstraints:
                            resourceRules:
                              - apiGroups: ["apps", "batch"]
                                apiVersions: ["v1"]
                                operations: ["CREATE", "UPDATE"]
                                resources: ["deployments", "jobs"]
                          validations:
                            - expression: >-
                                !has(object.metadata.labels) || !('%s' in object.metadata.labels)
                              message: "%s"
                              reason: Forbidden
                        """.formatted(name, MANAGED_BY, DENIAL)).serverSideApply();
        HasMetadata binding =
                client.resource("""
                        apiVersion: admissionregistration.k8s.io/v1
                        kind: ValidatingAdmissionPolicyBinding
                        metadata:
                          name: %s
                        spec:
                          policyName: %s
                          validationActions: [Deny]
                          matchResources:
                            namespaceSelector:
                              matchLabels:
                                kubernetes.io/metadata.name: %s
                        """.formatted(name, name, namespace.name())).serverSideApply();
        return List.of(binding, policy);
    }

    /** Whether a Deployment labelled as the operator's is refused (a server-side dry run, nothing is created). */
    private static boolean denied(KubernetesClient client, TestNamespace namespace) {
        Deployment probe = new DeploymentBuilder()
                .withNewMetadata()
                .withName("policy-probe")
                .withNamespace(namespace.name())
                .addToLabels(MANAGED_BY, "llm-serving-operator")
                .addToLabels("app", "policy-probe")
                .endMetadata()
                .withNewSpec()
                .withNewSelector()
                .addToMatchLabels("app", "policy-probe")
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .addToLabels("app", "policy-probe")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("c")
                .withImage("busybox")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
        try {
            client.resource(probe).dryRun().create();
            return false;
        } catch (KubernetesClientException e) {
            return e.getCode() == 403 && e.getMessage().contains(DENIAL);
        }
    }

    private static <T extends HasMetadata> Condition awaitStalled(
            KubernetesClient client, TestNamespace namespace, Class<T> kind, String name) {
        await(kind.getSimpleName() + " " + name + " Stalled")
                .atMost(STALLED_WITHIN)
                .pollInterval(Duration.ofMillis(500))
                .until(() -> condition(client, namespace, kind, name, "Stalled")
                        .map(c -> "True".equals(c.getStatus()))
                        .orElse(false));
        return condition(client, namespace, kind, name, "Stalled").orElseThrow();
    }

    private static <T extends HasMetadata> Optional<Condition> condition(
            KubernetesClient client, TestNamespace namespace, Class<T> kind, String name, String type) {
        T resource = client.resources(kind)
                .inNamespace(namespace.name())
                .withName(name)
                .get();
        List<Condition> conditions = resource instanceof ModelServer server && server.getStatus() != null
                ? server.getStatus().conditions
                : resource instanceof BenchmarkRun run && run.getStatus() != null ? run.getStatus().conditions : null;
        return conditions == null
                ? Optional.empty()
                : conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
    }
}
