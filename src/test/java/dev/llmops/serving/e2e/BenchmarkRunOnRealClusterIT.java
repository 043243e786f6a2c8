package dev.llmops.serving.e2e;

import static dev.llmops.serving.e2e.support.ServingResources.awaitFinished;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.e2e.support.E2eCluster;
import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.KubectlTable;
import dev.llmops.serving.e2e.support.OperatorUnderTest;
import dev.llmops.serving.e2e.support.ServingResources;
import dev.llmops.serving.e2e.support.TestNamespace;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A BenchmarkRun through the real Job controller: its Job's pod runs the packaged runner against the simulated server,
 * the Job completes, the results land in the run's status, and the real kubectl prints them in the printer columns.
 */
@E2eTest
class BenchmarkRunOnRealClusterIT {

    private static final String SERVER = "bench-target";
    private static final String RUN = "quick";

    @RegisterExtension
    static final OperatorUnderTest operator =
            OperatorUnderTest.installed().onFakeGpuFleet().deletingServersBeforeStop(SERVER);

    private static BenchmarkRun finished;

    @BeforeAll
    static void runBenchmark(KubernetesClient client, TestNamespace namespace) {
        ServingResources.sm120Server(client, namespace, SERVER, 1, 1);
        ServingResources.quickBenchmark(client, namespace, RUN, SERVER, 2, 4, 32);
        finished = awaitFinished(client, namespace, RUN);
    }

    @Test
    void theRunSucceedsThroughTheJobControllerWithResultsInStatus(KubernetesClient client, TestNamespace namespace) {
        assertThat(finished.getStatus().phase)
                .as("status %s", finished.getStatus())
                .isEqualTo(BenchmarkRunPhase.Succeeded);
        List<Job> jobs =
                client.batch().v1().jobs().inNamespace(namespace.name()).list().getItems();
        assertThat(jobs).singleElement().satisfies(job -> {
            assertThat(job.getMetadata().getName()).isEqualTo(finished.getStatus().jobName);
            assertThat(job.getStatus().getSucceeded()).isEqualTo(1);
            assertThat(job.getStatus().getConditions())
                    .anyMatch(c -> "Complete".equals(c.getType()) && "True".equals(c.getStatus()));
        });
        assertThat(finished.getStatus().summary.peakTokensPerSecond).isPositive();
        assertThat(finished.getStatus().summary.singleStreamTokensPerSecond).isPositive();
        assertThat(finished.getStatus().summary.peakConcurrency).isEqualTo(2);
        assertThat(finished.getStatus().stages).isNotEmpty();
        assertThat(finished.getStatus().singleRequests).hasSize(1);
    }

    @Test
    void kubectlPrintsTheResultColumns(E2eCluster cluster, TestNamespace namespace) {
        Map<String, String> row = KubectlTable.parse(
                        cluster.kubectl("get", "benchmarkruns", "--namespace", namespace.name()))
                .get(0);

        // two stages, single and c2: the finished run counts them all done
        assertThat(row)
                .containsEntry("NAME", RUN)
                .containsEntry("TARGET", SERVER)
                .containsEntry("PHASE", "Succeeded")
                .containsEntry("PROGRESS", "2/2")
                .containsEntry("AT CONC", "2");
        assertThat(Double.parseDouble(row.get("SINGLE TOK/S"))).isPositive();
        assertThat(Double.parseDouble(row.get("PEAK TOK/S"))).isPositive();
    }

    @Test
    void theChartGrantsEveryCallTheOperatorMade() {
        operator.process().assertNothingForbidden();
    }
}
