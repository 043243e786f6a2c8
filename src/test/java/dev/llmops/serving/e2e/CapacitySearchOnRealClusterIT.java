package dev.llmops.serving.e2e;

import static dev.llmops.serving.e2e.support.ServingResources.awaitFinished;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.e2e.support.E2eCluster;
import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.KubectlTable;
import dev.llmops.serving.e2e.support.LocalControlPlane;
import dev.llmops.serving.e2e.support.OperatorUnderTest;
import dev.llmops.serving.e2e.support.ServingResources;
import dev.llmops.serving.e2e.support.TestNamespace;
import dev.llmops.serving.simulator.SimulatedCapacity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A capacity search through the real Job controller: the runner probes the simulated server, whose decode step slows
 * with the batch, for the highest concurrency meeting a TPOT limit; the capacity lands in the status and in kubectl's
 * CAPACITY column.
 */
@E2eTest
class CapacitySearchOnRealClusterIT {

    private static final String SERVER = "capacity-target";
    private static final String RUN = "capacity";
    private static final int TPOT_LIMIT_MILLIS = 19;
    private static final int OUTPUT_TOKENS = 16;

    @RegisterExtension
    static final OperatorUnderTest operator =
            OperatorUnderTest.installed().onFakeGpuFleet().deletingServersBeforeStop(SERVER);

    private static BenchmarkRun finished;

    @BeforeAll
    static void searchCapacity(KubernetesClient client, TestNamespace namespace) {
        ServingResources.sm120Server(client, namespace, SERVER, 1, 1);
        ServingResources.concurrencyCapacitySearch(client, namespace, RUN, SERVER, TPOT_LIMIT_MILLIS, OUTPUT_TOKENS);
        finished = awaitFinished(client, namespace, RUN);
    }

    @Test
    void theSearchFindsTheConcurrencyTheServerCarriesWithinTheLimit() {
        var profile = LocalControlPlane.SIMULATED_SERVER;
        int truth = new SimulatedCapacity(
                        profile.ttft(), profile.stepDelay(), profile.batchSlowdown(), profile.maxRunning())
                .maxConcurrency((double) TPOT_LIMIT_MILLIS, null);

        assertThat(finished.getStatus().phase)
                .as("status %s", finished.getStatus())
                .isEqualTo(BenchmarkRunPhase.Succeeded);
        assertThat(finished.getStatus().capacity.outcome).hasToString("Found");
        // Timers run late on a loaded machine, which can only make TPOT longer: one stream below the truth is allowed.
        assertThat(finished.getStatus().capacity.concurrency).isBetween(truth - 1, truth);
        assertThat(finished.getStatus().stages)
                .allSatisfy(stage -> assertThat(stage.name).startsWith("probe"));
    }

    @Test
    void kubectlPrintsTheCapacity(E2eCluster cluster, TestNamespace namespace) {
        Map<String, String> row = KubectlTable.parse(
                        cluster.kubectl("get", "benchmarkruns", "--namespace", namespace.name()))
                .get(0);

        assertThat(row)
                .containsEntry("NAME", RUN)
                .containsEntry("PHASE", "Succeeded")
                .containsEntry("CAPACITY", finished.getStatus().capacity.load);
        assertThat(row.get("CAPACITY")).isEqualTo(finished.getStatus().capacity.concurrency + " streams");
    }

    @Test
    void theChartGrantsEveryCallTheOperatorMade() {
        operator.process().assertNothingForbidden();
    }
}
