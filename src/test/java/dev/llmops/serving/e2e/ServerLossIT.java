package dev.llmops.serving.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import dev.llmops.serving.demo.SimulatedServerProfile;
import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.OperatorUnderTest;
import dev.llmops.serving.e2e.support.ServingResources;
import dev.llmops.serving.e2e.support.TestNamespace;
import dev.llmops.serving.simulator.Fault;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The serving pod is deleted while a benchmark runs at concurrency: its simulated server stops as the pod's containers
 * would, the Deployment's replacement stays out of the Service (not Ready) until the operator's probe sees it generate,
 * and the run ends within its request timeout with the lost requests counted by failure class.
 */
@E2eTest
class ServerLossIT {

    private static final String SERVER = "loss-target";
    private static final String RUN = "loses-server";
    private static final int REQUEST_TIMEOUT_SECONDS = 10;
    /** Room for the runner's JVM to finish, the Job controller and the operator's reconcile on a loaded machine. */
    private static final Duration MARGIN = Duration.ofSeconds(90);
    /** Loading long enough that the replacement is seen not Ready; the gate opens only after it. */
    private static final SimulatedServerProfile SLOW_LOADING = new SimulatedServerProfile(
            Duration.ofMillis(30), Duration.ofMillis(10), null, 32, 0.2, Duration.ofSeconds(4), Fault.NONE);

    @RegisterExtension
    static final OperatorUnderTest operator = OperatorUnderTest.installed()
            .onFakeGpuFleet()
            .beforeStart((cluster, namespace) -> cluster.simulate(namespace, SERVER, SLOW_LOADING))
            .value("extraEnv[0].name", "LLMOPS_BENCHMARK_PROGRESS_POLL")
            .value("extraEnv[0].value", "500ms")
            .deletingServersBeforeStop(SERVER);

    @Test
    void theRunEndsWithinItsRequestTimeoutAndTheReplacementWaitsForItsGate(
            KubernetesClient client, TestNamespace namespace) {
        ServingResources.sm120Server(client, namespace, SERVER, 1, 1);
        ServingResources.createRun(
                client,
                namespace,
                ServingResources.quickRunManifest(
                        RUN, SERVER, "4", 96, 64, "  requestTimeoutSeconds: " + REQUEST_TIMEOUT_SECONDS + "\n"));
        ServingResources.awaitRun(
                client,
                namespace,
                RUN,
                r -> r.getStatus() != null
                        && r.getStatus().progress != null
                        && r.getStatus().progress.endsWith(" c4"),
                "running at concurrency 4");
        Pod lost = ServingResources.serverPods(client, namespace, SERVER).get(0);
        String lostUid = lost.getMetadata().getUid();

        long faultNanos = System.nanoTime();
        client.resource(lost).delete();

        Duration bound = Duration.ofSeconds(REQUEST_TIMEOUT_SECONDS).plus(MARGIN);
        List<String> replacementStates = new ArrayList<>();
        BenchmarkRun finished = null;
        Duration toFinalPhase = null;
        Duration toReplacementReady = null;
        Duration deadline = bound.plus(ServingResources.SERVER_READY_TIMEOUT);
        while (Duration.ofNanos(System.nanoTime() - faultNanos).compareTo(deadline) < 0
                && (finished == null || toReplacementReady == null)) {
            Duration since = Duration.ofNanos(System.nanoTime() - faultNanos);
            if (finished == null) {
                BenchmarkRun run = client.resources(BenchmarkRun.class)
                        .inNamespace(namespace.name())
                        .withName(RUN)
                        .get();
                if (isFinished(run)) {
                    finished = run;
                    toFinalPhase = since;
                }
            }
            for (Pod pod : ServingResources.serverPods(client, namespace, SERVER)) {
                if (lostUid.equals(pod.getMetadata().getUid())
                        || pod.getMetadata().getDeletionTimestamp() != null) {
                    continue;
                }
                boolean ready = conditionTrue(pod, "Ready");
                boolean gate = conditionTrue(pod, ConditionTypes.POD_INFERENCE_READY);
                replacementStates.add(String.format(
                        Locale.ROOT,
                        "%.1fs ready=%s gate=%s containersReady=%s",
                        since.toMillis() / 1000.0,
                        ready,
                        gate,
                        conditionTrue(pod, "ContainersReady")));
                if (ready && toReplacementReady == null) {
                    toReplacementReady = since;
                }
            }
            sleep(Duration.ofMillis(250));
        }
        System.out.printf(
                Locale.ROOT,
                "ServerLossIT: pod deleted -> run %s after %.1f s (bound %d s); replacement Ready after %s%n",
                finished == null ? "not finished" : finished.getStatus().phase,
                toFinalPhase == null ? Double.NaN : toFinalPhase.toMillis() / 1000.0,
                bound.toSeconds(),
                toReplacementReady == null ? "never" : toReplacementReady.toMillis() / 1000.0 + " s");

        assertThat(finished)
                .as("the run finished within %s of the fault", deadline)
                .isNotNull();
        System.out.println("ServerLossIT: warnings " + finished.getStatus().warnings + "; "
                + finished.getStatus().conditions.stream()
                        .filter(c -> ConditionTypes.SUCCEEDED.equals(c.getType()))
                        .map(c -> c.getReason() + ": " + c.getMessage())
                        .toList());
        assertThat(toFinalPhase)
                .as("time from the fault to the final phase; status %s", finished.getStatus())
                .isLessThanOrEqualTo(bound);
        assertThat(replacementStates)
                .as("the replacement pod's readiness over time")
                .anyMatch(state -> state.contains("ready=false"))
                .anyMatch(state -> state.contains("ready=true gate=true"))
                .noneMatch(state -> state.contains("ready=true gate=false"));
        assertLossRecorded(finished);
        operator.process().assertNothingForbidden();
    }

    /** Succeeded with the lost requests counted by class, or Failed with a message that names the lost server. */
    private static void assertLossRecorded(BenchmarkRun run) {
        var status = run.getStatus();
        if (status.phase == BenchmarkRunPhase.Succeeded) {
            StageResult atConcurrency = status.stages.stream()
                    .filter(stage -> Integer.valueOf(4).equals(stage.concurrency))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no c4 stage in " + status.stages));
            assertThat(atConcurrency.failed).as("failed requests at c4").isPositive();
            assertThat(status.summary.failedRequests).isEqualTo(atConcurrency.failed);
            assertThat(status.warnings)
                    .as("failure classes")
                    .anyMatch(w -> w.startsWith("Failed requests by class: ")
                            && (w.contains("connect=") || w.contains("disconnect=") || w.contains("timeout=")));
        } else {
            assertThat(status.phase).isEqualTo(BenchmarkRunPhase.Failed);
            assertThat(status.conditions)
                    .filteredOn(c -> ConditionTypes.SUCCEEDED.equals(c.getType()))
                    .singleElement()
                    .satisfies(c -> assertThat(c.getMessage()).contains(SERVER));
        }
    }

    private static boolean isFinished(BenchmarkRun run) {
        return run != null
                && run.getStatus() != null
                && (run.getStatus().phase == BenchmarkRunPhase.Succeeded
                        || run.getStatus().phase == BenchmarkRunPhase.Failed);
    }

    private static boolean conditionTrue(Pod pod, String type) {
        List<PodCondition> conditions =
                pod.getStatus() == null ? null : pod.getStatus().getConditions();
        return conditions != null
                && conditions.stream().anyMatch(c -> type.equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
