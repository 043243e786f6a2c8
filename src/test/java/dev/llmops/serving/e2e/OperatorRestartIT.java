package dev.llmops.serving.e2e;

import static dev.llmops.serving.e2e.ServingResources.awaitFinished;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The operator is SIGKILLed while its benchmark pod runs; restarted, it adopts the Job instead of starting another. */
@E2eTest
class OperatorRestartIT {

    private static final String SERVER = "restart-target";
    private static final String RUN = "survives-restart";

    private static OperatorProcess operator;

    @BeforeAll
    static void startOperator(E2eCluster cluster, KubernetesClient client, TestNamespace namespace) {
        assumeTrue(
                cluster.hasFakeGpuFleet(), "needs the fake GPU fleet and kubelet stand-in of the local control plane");
        ProjectCrds.install(client);
        operator = OperatorProcess.in(cluster, namespace).start().awaitReady();
    }

    @AfterAll
    static void stopOperator(KubernetesClient client, TestNamespace namespace) {
        if (operator != null) {
            ServingResources.deleteServer(client, namespace, SERVER);
            operator.close();
        }
    }

    @Test
    void aKilledOperatorAdoptsTheRunningJobAndReportsItsResults(KubernetesClient client, TestNamespace namespace) {
        ServingResources.sm120Server(client, namespace, SERVER, 1, 1);
        // About ten seconds of sweep: long enough to kill and restart the operator while the runner works.
        ServingResources.quickBenchmark(client, namespace, RUN, SERVER, 4, 48, 64);
        await("benchmark pod running")
                .atMost(ServingResources.RUN_TIMEOUT)
                .pollInterval(Duration.ofMillis(250))
                .until(() -> client.pods().inNamespace(namespace.name()).list().getItems().stream()
                        .anyMatch(p -> p.getMetadata().getLabels().containsKey("batch.kubernetes.io/job-name")
                                && "Running".equals(p.getStatus().getPhase())));

        operator.kill();
        assertThat(client.batch()
                        .v1()
                        .jobs()
                        .inNamespace(namespace.name())
                        .list()
                        .getItems())
                .singleElement()
                .as("the Job still runs when the operator dies")
                .satisfies(
                        job -> assertThat(job.getStatus().getCompletionTime()).isNull());
        operator.restart().awaitReady();

        BenchmarkRun run = awaitFinished(client, namespace, RUN);
        assertThat(run.getStatus().phase).as("status %s", run.getStatus()).isEqualTo(BenchmarkRunPhase.Succeeded);
        assertThat(run.getStatus().summary.peakTokensPerSecond).isPositive();
        assertThat(client.batch()
                        .v1()
                        .jobs()
                        .inNamespace(namespace.name())
                        .list()
                        .getItems())
                .singleElement()
                .satisfies(job -> assertThat(job.getMetadata().getName()).isEqualTo(run.getStatus().jobName));
        operator.assertNothingForbidden();
    }
}
