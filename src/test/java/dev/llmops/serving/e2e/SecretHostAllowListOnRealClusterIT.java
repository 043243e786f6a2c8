package dev.llmops.serving.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.ConditionReasons;
import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.e2e.support.E2eCluster;
import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.OperatorUnderTest;
import dev.llmops.serving.e2e.support.ServingResources;
import dev.llmops.serving.e2e.support.TestNamespace;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A BenchmarkRun cannot carry a Secret of its namespace to a host the operator's installation has not allow-listed:
 * with the chart's {@code benchmark.apiKeyHosts}, through the packaged operator and its RBAC on a real API server, a
 * run naming another host is Stalled before any Job exists, and a run naming an allowed host gets its Job.
 */
@E2eTest
class SecretHostAllowListOnRealClusterIT {

    private static final String ALLOWED_HOST = "allowed.example";

    @RegisterExtension
    static final OperatorUnderTest operator = OperatorUnderTest.installed()
            .value("benchmark.apiKeyHosts[0]", ALLOWED_HOST)
            .beforeStart(SecretHostAllowListOnRealClusterIT::createApiKeySecret);

    /** The key the runs name, there before the operator starts. */
    private static void createApiKeySecret(E2eCluster cluster, TestNamespace namespace) {
        cluster.client()
                .resource(new SecretBuilder()
                        .withNewMetadata()
                        .withName("api-key")
                        .withNamespace(namespace.name())
                        .endMetadata()
                        .withStringData(Map.of("key", "sk-not-for-strangers"))
                        .build())
                .create();
    }

    @Test
    void aRunSendingTheKeyToAnotherHostIsStalledWithoutAJob(KubernetesClient client, TestNamespace namespace) {
        ServingResources.createRun(client, namespace, run("exfiltrate", "http://collector.example:8000"));

        BenchmarkRun run = ServingResources.awaitRun(
                client,
                namespace,
                "exfiltrate",
                r -> r.getStatus() != null && condition(r, ConditionTypes.STALLED) != null,
                "Stalled");

        Condition stalled = condition(run, ConditionTypes.STALLED);
        assertThat(stalled.getStatus()).isEqualTo("True");
        assertThat(stalled.getReason()).isEqualTo(ConditionReasons.SECRET_HOST_NOT_ALLOWED);
        assertThat(stalled.getMessage()).contains("spec.target.apiKeySecret", "spec.target.url", "collector.example");
        assertThat(jobsOf(client, namespace, "exfiltrate")).isZero();
        operator.process().assertNothingForbidden();
    }

    @Test
    void aRunSendingTheKeyToAnAllowedHostGetsItsJob(KubernetesClient client, TestNamespace namespace) {
        ServingResources.createRun(client, namespace, run("allowed", "http://" + ALLOWED_HOST + ":8000"));

        ServingResources.awaitRun(
                client,
                namespace,
                "allowed",
                r -> r.getStatus() != null && r.getStatus().jobName != null,
                "its Job created");

        assertThat(jobsOf(client, namespace, "allowed")).isOne();
    }

    private static String run(String name, String url) {
        return """
                apiVersion: serving.llmops.dev/v1alpha1
                kind: BenchmarkRun
                metadata:
                  name: %s
                spec:
                  target:
                    url: %s
                    model: some-model
                    apiKeySecret:
                      name: api-key
                      key: key
                  warmup:
                    requests: 0
                  sweep:
                    concurrency: []
                """.formatted(name, url);
    }

    private static Condition condition(BenchmarkRun run, String type) {
        return run.getStatus().conditions.stream()
                .filter(c -> type.equals(c.getType()))
                .findFirst()
                .orElse(null);
    }

    /** Jobs the run owns. */
    private static long jobsOf(KubernetesClient client, TestNamespace namespace, String run) {
        return client.batch().v1().jobs().inNamespace(namespace.name()).list().getItems().stream()
                .filter(job -> job.getMetadata().getOwnerReferences().stream()
                        .anyMatch(owner -> "BenchmarkRun".equals(owner.getKind()) && run.equals(owner.getName())))
                .count();
    }
}
