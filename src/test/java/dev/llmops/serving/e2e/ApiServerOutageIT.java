package dev.llmops.serving.e2e;

import static dev.llmops.serving.e2e.support.ServingResources.awaitFinished;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.demo.SimulatedServerProfile;
import dev.llmops.serving.e2e.support.E2eCluster;
import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.FaultChecks;
import dev.llmops.serving.e2e.support.OperatorUnderTest;
import dev.llmops.serving.e2e.support.ServingResources;
import dev.llmops.serving.e2e.support.TestNamespace;
import dev.llmops.serving.operator.toolkit.Conditions;
import dev.llmops.serving.simulator.Fault;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * First kube-apiserver is frozen for 5 s, shorter than the Lease's renew deadline: the operator rides it out. Then it
 * is stopped for 30 s (etcd keeps running) while a benchmark runs and a ModelServer starts. The operator,
 * installed as the chart ships it (one replica, leader election on), cannot renew its Lease and exits, as it is built
 * to; restarted as the Deployment's kubelet would restart it, it picks everything up: the benchmark's results land
 * once, the starting ModelServer turns Ready. Prints how long after the API's return the first reconcile succeeded.
 */
@E2eTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ApiServerOutageIT {

    private static final String SERVING = "outage-serving";
    private static final String STARTING = "outage-starting";
    private static final String RUN = "survives-outage";
    private static final Duration OUTAGE = Duration.ofSeconds(30);
    /** Below the renew deadline (10 s after the last renewal, at most 2 s before the freeze). */
    private static final Duration SHORT_OUTAGE = Duration.ofSeconds(5);
    /** Loads for 30 s: still loading when the API server stops. */
    private static final SimulatedServerProfile SLOW_LOADING = new SimulatedServerProfile(
            Duration.ofMillis(30), Duration.ofMillis(10), null, 32, 0.2, Duration.ofSeconds(30), Fault.NONE);
    /** The kubelet's second restart comes 10 s after the first; the operator then starts in a few seconds. */
    private static final Duration RECOVERY_BOUND = Duration.ofSeconds(60);

    /** On the local control plane, whose API server the test stops, with its fake GPU fleet and kubelet. */
    @RegisterExtension
    static final OperatorUnderTest operator = OperatorUnderTest.installed()
            .onFakeGpuFleet()
            .beforeStart((cluster, namespace) -> cluster.simulate(namespace, STARTING, SLOW_LOADING))
            .restartedWhenExited()
            .deletingServersBeforeStop(SERVING, STARTING);

    @Test
    @Order(1)
    void aFiveSecondFreezeIsRiddenOutWithoutExiting(
            E2eCluster cluster, KubernetesClient client, TestNamespace namespace) {
        String holder = lease(client, namespace).getSpec().getHolderIdentity();
        Instant resumed = Instant.now().plus(SHORT_OUTAGE);
        cluster.pauseApiServer(SHORT_OUTAGE);
        await("the Lease renewed after the freeze")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> lease(client, namespace)
                        .getSpec()
                        .getRenewTime()
                        .toInstant()
                        .isAfter(resumed));
        assertThat(lease(client, namespace).getSpec().getHolderIdentity()).isEqualTo(holder);
        assertThat(operator.process().exits()).as("exits of the operator").isEmpty();
        assertThat(operator.process().running()).isTrue();
    }

    @Test
    @Order(2)
    void nothingIsLostWhenTheApiServerIsDownForThirtySeconds(
            E2eCluster cluster, KubernetesClient client, TestNamespace namespace) {
        ServingResources.sm120Server(client, namespace, SERVING, 1, 1);
        ServingResources.awaitServer(client, namespace, SERVING, ApiServerOutageIT::ready, "Ready");
        ServingResources.sm120Server(client, namespace, STARTING, 1, 1);
        await("a pod of " + STARTING + " running, its server loading")
                .atMost(ServingResources.SERVER_READY_TIMEOUT)
                .pollInterval(Duration.ofMillis(250))
                .until(() -> ServingResources.serverPods(client, namespace, STARTING).stream()
                        .anyMatch(p -> p.getStatus().getPodIP() != null));
        // A few seconds of sweep: it ends early in the outage, so the runner pod's end waits for the API's return.
        ServingResources.quickBenchmark(client, namespace, RUN, SERVING, 4, 24, 64);
        FaultChecks.awaitRunnerWorking(client, namespace);

        Instant stopped = Instant.now();
        cluster.stopApiServer();
        await("the outage").pollDelay(OUTAGE).atMost(OUTAGE.plusSeconds(5)).until(() -> true);
        Instant back = cluster.startApiServer();

        await("the operator exited on its lost Lease")
                .atMost(Duration.ofMinutes(1))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> !operator.process().exits().isEmpty());
        assertThat(operator.process().log()).contains("Lost the leader-election lease");
        Instant[] recovered = new Instant[1];
        await("a restarted operator reconciling")
                .atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> {
                    if (operator.process().successfulReconciliations() > 0) {
                        recovered[0] = Instant.now();
                    }
                    return recovered[0] != null;
                });
        Duration firstReconcile = Duration.between(back, recovered[0]);

        ServingResources.awaitServer(client, namespace, STARTING, ApiServerOutageIT::ready, "Ready");
        BenchmarkRun run = awaitFinished(client, namespace, RUN);
        System.out.printf(
                "API-server outage: API down %.1f s (stopped %d s, then its start); the benchmark pod ended %d s into"
                        + " it; the operator exited %.1f s into it and was restarted %d times; first successful"
                        + " reconcile %.1f s after the API's return%n",
                Duration.between(stopped, back).toMillis() / 1000.0,
                OUTAGE.toSeconds(),
                Duration.between(stopped, benchmarkFinishedAt(client, namespace))
                        .toSeconds(),
                Duration.between(stopped, operator.process().exits().get(0)).toMillis() / 1000.0,
                operator.process().exits().size(),
                firstReconcile.toMillis() / 1000.0);
        assertThat(firstReconcile).isLessThanOrEqualTo(RECOVERY_BOUND);
        FaultChecks.assertResultsLandedOnce(client, namespace, run);
        assertThat(ready(client.resources(ModelServer.class)
                        .inNamespace(namespace.name())
                        .withName(SERVING)
                        .get()))
                .as("the serving ModelServer is Ready again")
                .isTrue();
        operator.process().assertNothingForbidden();
    }

    private static Instant benchmarkFinishedAt(KubernetesClient client, TestNamespace namespace) {
        return Instant.parse(FaultChecks.benchmarkPods(client, namespace)
                .get(0)
                .getStatus()
                .getContainerStatuses()
                .get(0)
                .getState()
                .getTerminated()
                .getFinishedAt());
    }

    private static Lease lease(KubernetesClient client, TestNamespace namespace) {
        // The chart names the Lease after the release; the suite's releases are named after their namespace.
        return client.leases()
                .inNamespace(namespace.name())
                .withName(namespace.name())
                .get();
    }

    private static boolean ready(ModelServer server) {
        return server.getStatus() != null && Conditions.isTrue(server.getStatus().conditions, ConditionTypes.READY);
    }
}
