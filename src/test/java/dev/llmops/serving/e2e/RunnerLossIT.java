package dev.llmops.serving.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.OperatorUnderTest;
import dev.llmops.serving.e2e.support.ServingResources;
import dev.llmops.serving.e2e.support.TestNamespace;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The benchmark pod is deleted or evicted mid-run. The Job (backoffLimit 1, evictions ignored by its pod failure
 * policy) starts the benchmark again in a new pod; the run's results are that pod's alone, and its status says the
 * runner was lost. Lost twice, the Job gives up and the run fails with the Job's reason.
 */
@E2eTest
class RunnerLossIT {

    private static final String SERVER = "runner-loss-target";
    private static final int REQUESTS = 48;

    @RegisterExtension
    static final OperatorUnderTest operator =
            OperatorUnderTest.installed().onFakeGpuFleet().deletingServersBeforeStop(SERVER);

    @BeforeAll
    static void createServer(KubernetesClient client, TestNamespace namespace) {
        ServingResources.sm120Server(client, namespace, SERVER, 1, 1);
    }

    @Test
    void aDeletedRunnerPodIsRetriedOnceAndCountedOnce(KubernetesClient client, TestNamespace namespace) {
        String run = "runner-deleted";
        Pod first = startAndAwaitPod(client, namespace, run);
        long faultNanos = System.nanoTime();
        client.resource(first).delete();

        BenchmarkRun finished = awaitFinished(client, namespace, run, faultNanos, "deleted");
        assertSucceededOnce(finished);
        assertLossRecorded(finished, first, "deleted");
        Job job = job(client, namespace, finished);
        assertThat(job.getStatus().getFailed())
                .as("the deleted pod counts against backoffLimit")
                .isEqualTo(1);
        assertThat(job.getStatus().getSucceeded()).isEqualTo(1);
        operator.process().assertNothingForbidden();
    }

    @Test
    void anEvictedRunnerPodIsRetriedWithoutCountingAsAFailure(KubernetesClient client, TestNamespace namespace) {
        String run = "runner-evicted";
        Pod first = startAndAwaitPod(client, namespace, run);
        long faultNanos = System.nanoTime();
        assertThat(client.pods()
                        .inNamespace(namespace.name())
                        .withName(first.getMetadata().getName())
                        .evict())
                .as("evicted")
                .isTrue();

        BenchmarkRun finished = awaitFinished(client, namespace, run, faultNanos, "evicted");
        assertSucceededOnce(finished);
        assertLossRecorded(finished, first, "evicted or disrupted: EvictionByEvictionAPI");
        Job job = job(client, namespace, finished);
        assertThat(job.getStatus().getFailed())
                .as("an eviction is ignored by the pod failure policy")
                .isIn(null, 0);
        assertThat(job.getStatus().getSucceeded()).isEqualTo(1);
    }

    @Test
    void aRunnerLostTwiceFailsTheRunWithTheJobsReason(KubernetesClient client, TestNamespace namespace) {
        String run = "runner-lost-twice";
        Pod first = startAndAwaitPod(client, namespace, run);
        client.resource(first).delete();
        Pod second = awaitRunningPod(
                client,
                namespace,
                run,
                p -> assertThat(p.getMetadata().getUid())
                        .isNotEqualTo(first.getMetadata().getUid()));
        long faultNanos = System.nanoTime();
        client.resource(second).delete();

        BenchmarkRun finished = awaitFinished(client, namespace, run, faultNanos, "deleted twice");
        assertThat(finished.getStatus().phase)
                .as("status %s", finished.getStatus())
                .isEqualTo(BenchmarkRunPhase.Failed);
        Condition succeeded = succeededCondition(finished);
        assertThat(succeeded.getReason()).isEqualTo("BackoffLimitExceeded");
        assertThat(succeeded.getMessage())
                .contains(finished.getStatus().jobName)
                .contains("backoff limit");
    }

    private static Pod startAndAwaitPod(KubernetesClient client, TestNamespace namespace, String run) {
        ServingResources.awaitServer(
                client,
                namespace,
                SERVER,
                s -> s.getStatus() != null && s.getStatus().readyReplicas != null && s.getStatus().readyReplicas == 1,
                "ready");
        ServingResources.quickBenchmark(client, namespace, run, SERVER, 4, REQUESTS, 64);
        return awaitRunningPod(client, namespace, run, p -> {});
    }

    /** A benchmark pod of the run's Job that runs and is not being deleted, once it has printed progress. */
    private static Pod awaitRunningPod(
            KubernetesClient client, TestNamespace namespace, String run, Consumer<Pod> requirement) {
        String jobName = dev.llmops.serving.operator.benchmark.BenchmarkJobDependent.jobName(run);
        return await("a running benchmark pod of " + run)
                .atMost(ServingResources.RUN_TIMEOUT)
                .pollInterval(Duration.ofMillis(250))
                .ignoreExceptions()
                .until(
                        () -> client
                                .pods()
                                .inNamespace(namespace.name())
                                .withLabel(Labels.INSTANCE, jobName)
                                .list()
                                .getItems()
                                .stream()
                                .filter(p -> p.getMetadata().getDeletionTimestamp() == null
                                        && "Running".equals(p.getStatus().getPhase()))
                                .peek(requirement)
                                .findFirst()
                                .orElse(null),
                        pod -> pod != null);
    }

    private static BenchmarkRun awaitFinished(
            KubernetesClient client, TestNamespace namespace, String run, long faultNanos, String fault) {
        BenchmarkRun finished = ServingResources.awaitFinished(client, namespace, run);
        System.out.printf(
                Locale.ROOT,
                "RunnerLossIT: runner pod %s -> run %s after %.1f s: %s%n",
                fault,
                finished.getStatus().phase,
                (System.nanoTime() - faultNanos) / 1e9,
                succeededCondition(finished).getMessage());
        return finished;
    }

    /** Succeeded, with the figures of one pod's benchmark: every request of the level counted exactly once. */
    private static void assertSucceededOnce(BenchmarkRun run) {
        var status = run.getStatus();
        assertThat(status.phase).as("status %s", status).isEqualTo(BenchmarkRunPhase.Succeeded);
        StageResult level = status.stages.stream()
                .filter(stage -> Integer.valueOf(4).equals(stage.concurrency))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no c4 stage in " + status.stages));
        assertThat(level.completed + level.failed).as("requests of c4").isEqualTo(REQUESTS);
        assertThat(status.singleRequests).hasSize(1);
        assertThat(status.summary.failedRequests).isZero();
    }

    /** The run's status names the lost pod and how it was lost, and its headline says the benchmark ran again. */
    private static void assertLossRecorded(BenchmarkRun run, Pod lost, String how) {
        assertThat(run.getStatus().warnings)
                .anySatisfy(w -> assertThat(w)
                        .startsWith(
                                "Runner pod " + lost.getMetadata().getName() + " was lost before it finished: " + how));
        assertThat(succeededCondition(run).getMessage())
                .contains("The runner pod was lost once and the benchmark ran again from the start");
    }

    private static Job job(KubernetesClient client, TestNamespace namespace, BenchmarkRun run) {
        return client.batch()
                .v1()
                .jobs()
                .inNamespace(namespace.name())
                .withName(run.getStatus().jobName)
                .get();
    }

    private static Condition succeededCondition(BenchmarkRun run) {
        List<Condition> conditions = run.getStatus().conditions;
        return conditions.stream()
                .filter(c -> ConditionTypes.SUCCEEDED.equals(c.getType()))
                .findFirst()
                .orElseThrow();
    }
}
