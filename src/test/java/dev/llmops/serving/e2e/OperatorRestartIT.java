package dev.llmops.serving.e2e;

import static dev.llmops.serving.e2e.support.ServingResources.awaitFinished;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.OperatorUnderTest;
import dev.llmops.serving.e2e.support.ServingResources;
import dev.llmops.serving.e2e.support.TestNamespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The operator is SIGKILLed while its benchmark pod runs; restarted, it adopts the Job instead of starting another. */
@E2eTest
class OperatorRestartIT {

    private static final String SERVER = "restart-target";
    private static final String RUN = "survives-restart";

    @RegisterExtension
    static final OperatorUnderTest operator =
            OperatorUnderTest.installed().onFakeGpuFleet().deletingServersBeforeStop(SERVER);

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

        operator.process().kill();
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
        operator.process().restart().awaitReady();

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
        operator.process().assertNothingForbidden();
    }
}
