package dev.llmops.serving.e2e.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.operator.toolkit.Conditions;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.List;

/** What the fault tests check after a fault: one Job, one runner pod, the results in the status, recorded once. */
public final class FaultChecks {

    static final String JOB_NAME_LABEL = "batch.kubernetes.io/job-name";

    private FaultChecks() {}

    /**
     * Waits until the runner works: its pod runs and the pod's log (through the API server and the fleet's kubelet
     * log endpoint) shows the runner's first progress line, so a fault hits the benchmark mid-run, not the pod's start.
     */
    public static void awaitRunnerWorking(KubernetesClient client, TestNamespace namespace) {
        await("the runner working")
                .atMost(ServingResources.RUN_TIMEOUT)
                .pollInterval(Duration.ofMillis(250))
                .until(() -> benchmarkPods(client, namespace).stream()
                        .filter(p -> "Running".equals(p.getStatus().getPhase()))
                        .anyMatch(p -> log(client, p).contains("PROGRESS ")));
    }

    private static String log(KubernetesClient client, Pod pod) {
        try {
            return client.pods()
                    .inNamespace(pod.getMetadata().getNamespace())
                    .withName(pod.getMetadata().getName())
                    .getLog();
        } catch (KubernetesClientException e) {
            return "";
        }
    }

    public static List<Pod> benchmarkPods(KubernetesClient client, TestNamespace namespace) {
        return client.pods()
                .inNamespace(namespace.name())
                .withLabel(JOB_NAME_LABEL)
                .list()
                .getItems();
    }

    /**
     * The run succeeded with its results in the status, through exactly one Job whose one pod ran the benchmark, and
     * its completion was recorded once (one event of its final phase), not once per operator that saw it.
     */
    public static void assertResultsLandedOnce(KubernetesClient client, TestNamespace namespace, BenchmarkRun run) {
        assertThat(run.getStatus().phase).as("status %s", run.getStatus()).isEqualTo(BenchmarkRunPhase.Succeeded);
        assertThat(run.getStatus().summary.peakTokensPerSecond).isPositive();
        assertThat(run.getStatus().stages).isNotEmpty();
        assertThat(client.batch()
                        .v1()
                        .jobs()
                        .inNamespace(namespace.name())
                        .list()
                        .getItems())
                .as("Jobs of the run")
                .singleElement()
                .satisfies(job -> assertThat(job.getMetadata().getName()).isEqualTo(run.getStatus().jobName));
        assertThat(benchmarkPods(client, namespace)).as("benchmark pods").hasSize(1);
        String finalReason = Conditions.find(run.getStatus().conditions, ConditionTypes.READY)
                .orElseThrow()
                .getReason();
        List<Event> completions = client.v1().events().inNamespace(namespace.name()).list().getItems().stream()
                .filter(e ->
                        run.getMetadata().getName().equals(e.getInvolvedObject().getName())
                                && finalReason.equals(e.getReason()))
                .toList();
        assertThat(completions)
                .as("events of the run's completion (%s)", finalReason)
                .hasSize(1);
    }
}
