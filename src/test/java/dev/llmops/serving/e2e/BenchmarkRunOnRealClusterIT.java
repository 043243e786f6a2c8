package dev.llmops.serving.e2e;

import static dev.llmops.serving.e2e.support.ServingResources.awaitFinished;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import java.time.Duration;
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
    private static final String SESSIONS_RUN = "sessions";
    private static final String EXPIRING_RUN = "expiring";

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
        List<Job> jobs = client.batch().v1().jobs().inNamespace(namespace.name()).list().getItems().stream()
                .filter(job -> job.getMetadata().getOwnerReferences().stream()
                        .anyMatch(owner -> owner.getName().equals(RUN)))
                .toList();
        assertThat(jobs).as("the run's Jobs").singleElement().satisfies(job -> {
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
    void aSessionsRunReportsEachTurnAndTheCacheServesTheHistory(KubernetesClient client, TestNamespace namespace) {
        ServingResources.createRun(
                client, namespace, ServingResources.quickRunManifest(SESSIONS_RUN, SERVER, "2", 12, 8, """
                          dataset:
                            type: Sessions
                            sessions: {turns: 3, firstTurnTokens: 300, turnTokens: 40, thinkTimeSeconds: 0.05}
                        """));
        BenchmarkRun sessions = awaitFinished(client, namespace, SESSIONS_RUN);

        assertThat(sessions.getStatus().phase)
                .as("status %s", sessions.getStatus())
                .isEqualTo(BenchmarkRunPhase.Succeeded);
        assertThat(sessions.getStatus().workload.digest).isNotBlank();
        assertThat(sessions.getStatus().stages)
                .filteredOn(stage -> stage.name.equals("c2"))
                .singleElement()
                .satisfies(stage -> {
                    assertThat(stage.turns).extracting(turn -> turn.turn).containsExactly(1, 2, 3);
                    assertThat(stage.turns.get(0).cachedPromptShare)
                            .as("the server reports cached tokens (--enable-cache-report), none on a first turn")
                            .isZero();
                    assertThat(stage.turns.get(2).cachedPromptShare)
                            .as("turn 3 repeats turns 1 and 2")
                            .isGreaterThan(0.5);
                });
    }

    /**
     * A run past its time to live is deleted by the operator (as the chart's ServiceAccount), and the real garbage
     * collector takes its Job, pod and samples ConfigMap after it.
     */
    @Test
    void aRunPastItsRetentionGoesWithItsJobPodAndSamples(KubernetesClient client, TestNamespace namespace) {
        ServingResources.createRun(
                client, namespace, ServingResources.quickRunManifest(EXPIRING_RUN, SERVER, "1", 2, 8, """
                          retention:
                            ttlSecondsAfterFinished: 10
                        """));
        BenchmarkRun succeeded = await("the run to succeed with an expiry")
                .atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofMillis(250))
                .until(
                        () -> client.resources(BenchmarkRun.class)
                                .inNamespace(namespace.name())
                                .withName(EXPIRING_RUN)
                                .get(),
                        run -> run != null && run.getStatus() != null && run.getStatus().retention != null);
        assertThat(succeeded.getStatus().phase).isEqualTo(BenchmarkRunPhase.Succeeded);
        assertThat(succeeded.getStatus().samples).isNotNull();
        String job = succeeded.getStatus().jobName;

        await("the run, its Job, its pod and its samples to be gone")
                .atMost(Duration.ofMinutes(1))
                .untilAsserted(() -> {
                    assertThat(client.resources(BenchmarkRun.class)
                                    .inNamespace(namespace.name())
                                    .withName(EXPIRING_RUN)
                                    .get())
                            .isNull();
                    assertThat(client.batch()
                                    .v1()
                                    .jobs()
                                    .inNamespace(namespace.name())
                                    .withName(job)
                                    .get())
                            .isNull();
                    assertThat(client.pods()
                                    .inNamespace(namespace.name())
                                    .withLabel("job-name", job)
                                    .list()
                                    .getItems())
                            .isEmpty();
                    assertThat(client.configMaps()
                                    .inNamespace(namespace.name())
                                    .withName(succeeded.getStatus().samples)
                                    .get())
                            .isNull();
                });
        assertThat(client.v1().events().inNamespace(namespace.name()).list().getItems())
                .anySatisfy(event -> {
                    assertThat(event.getInvolvedObject().getName()).isEqualTo(EXPIRING_RUN);
                    assertThat(event.getReason()).isEqualTo("Expired");
                    assertThat(event.getMessage()).contains("ttlSecondsAfterFinished");
                });
    }

    @Test
    void kubectlPrintsTheResultColumns(E2eCluster cluster, TestNamespace namespace) {
        Map<String, String> row = KubectlTable.parse(
                        cluster.kubectl("get", "benchmarkruns", RUN, "--namespace", namespace.name()))
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
