package dev.llmops.serving.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.contract.SampleBombs;
import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.OperatorUnderTest;
import dev.llmops.serving.e2e.support.RunnerProcess;
import dev.llmops.serving.e2e.support.ServingResources;
import dev.llmops.serving.e2e.support.TestNamespace;
import dev.llmops.serving.operator.benchmark.comparison.PlantedSamples;
import dev.llmops.serving.operator.benchmark.comparison.SampleStore;
import dev.llmops.serving.operator.toolkit.Conditions;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A tenant's samples bomb, about 11 KB on the wire and millions of values once decoded, against the packaged operator
 * in the chart's memory limit: printed by a hostile runner image as its pod's last log line, and planted as the run's
 * samples ConfigMap with an owner reference to the run. Either way the run fails with a message saying why, and the
 * operator never exits.
 */
@E2eTest
class TenantIsolationIT {

    private static final String SERVER = "tenant-isolation-target";

    @RegisterExtension
    static final OperatorUnderTest operator =
            OperatorUnderTest.installed().onFakeGpuFleet().deletingServersBeforeStop(SERVER);

    @BeforeAll
    static void createServer(KubernetesClient client, TestNamespace namespace) {
        ServingResources.sm120Server(client, namespace, SERVER, 1, 1);
    }

    @Test
    void aSamplesBombInTheRunnersLogFailsTheRunAndTheOperatorLives(KubernetesClient client, TestNamespace namespace) {
        ServingResources.createRun(
                client,
                namespace,
                ServingResources.quickRunManifest(
                        "bomb-in-log",
                        SERVER,
                        "2",
                        8,
                        16,
                        "  runner:\n    image: " + RunnerProcess.SAMPLES_BOMB_IMAGE + "\n"));

        BenchmarkRun failed = ServingResources.awaitFinished(client, namespace, "bomb-in-log");

        assertThat(failed.getStatus().phase).as("status %s", failed.getStatus()).isEqualTo(BenchmarkRunPhase.Failed);
        Condition ready = ready(failed);
        assertThat(ready.getReason()).isEqualTo("ResultsInvalid");
        assertThat(ready.getMessage())
                .startsWith("Job " + failed.getStatus().jobName + " finished but its per-request samples cannot be"
                        + " used: sample line is unreadable: a token holds VALUE_NUMBER_INT where text belongs");
        assertThat(failed.getStatus().stages)
                .as("the summary's figures are kept")
                .isNotEmpty();
        assertOperatorLived();
    }

    @Test
    void aPlantedSamplesConfigMapIsNeverAdoptedOrRead(KubernetesClient client, TestNamespace namespace) {
        BenchmarkRun run = ServingResources.createRun(
                client, namespace, ServingResources.quickRunManifest("planted", SERVER, "2", 8, 16, ""));
        client.resource(PlantedSamples.configMap(SampleStore.name("planted"), run, SampleBombs.numbersAsTokens()))
                .create();

        BenchmarkRun failed = ServingResources.awaitFinished(client, namespace, "planted");

        assertThat(failed.getStatus().phase).as("status %s", failed.getStatus()).isEqualTo(BenchmarkRunPhase.Failed);
        assertThat(ready(failed).getReason()).isEqualTo("SamplesConflict");
        assertThat(ready(failed).getMessage())
                .isEqualTo("ConfigMap planted-samples already exists and was not written by the operator for this"
                        + " run's samples; delete it (or name the run differently) and create the run again");
        assertOperatorLived();
    }

    private static void assertOperatorLived() {
        assertThat(operator.process().running()).as("the operator runs").isTrue();
        assertThat(operator.process().exits())
                .as(() ->
                        "the operator's exits; its log:\n" + operator.process().log())
                .isEmpty();
    }

    private static Condition ready(BenchmarkRun run) {
        return Conditions.find(run.getStatus().conditions, ConditionTypes.READY)
                .orElseThrow(() -> new AssertionError("no Ready condition in " + run.getStatus()));
    }
}
