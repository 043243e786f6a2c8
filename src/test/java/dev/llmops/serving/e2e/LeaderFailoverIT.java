package dev.llmops.serving.e2e;

import static dev.llmops.serving.e2e.support.ServingResources.awaitFinished;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.FaultChecks;
import dev.llmops.serving.e2e.support.OperatorProcess;
import dev.llmops.serving.e2e.support.OperatorUnderTest;
import dev.llmops.serving.e2e.support.ServingResources;
import dev.llmops.serving.e2e.support.TestNamespace;
import dev.llmops.serving.operator.toolkit.Conditions;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two operator replicas with the chart's leader election; the leader is SIGKILLed while a benchmark runs. The standby
 * takes the Lease once it expires, adopts the running Job (still exactly one), reports the results, and the serving
 * pod's readiness gate stays open throughout. Prints the measured takeover time.
 */
@E2eTest
class LeaderFailoverIT {

    private static final String SERVER = "failover-target";
    private static final String RUN = "survives-failover";
    /** Beyond the Lease's duration, what a loaded machine may add: the poll, the standby's retry period, a GC. */
    private static final Duration TAKEOVER_SLACK = Duration.ofSeconds(15);

    /** operator-0 leads when operator-1 starts. */
    @RegisterExtension
    static final OperatorUnderTest operators = OperatorUnderTest.installed()
            .onFakeGpuFleet()
            .replicas("operator-0", "operator-1")
            .deletingServersBeforeStop(SERVER);

    @Test
    void theStandbyTakesOverTheRunningBenchmarkWithinTheLease(KubernetesClient client, TestNamespace namespace) {
        ServingResources.sm120Server(client, namespace, SERVER, 1, 1);
        ServingResources.awaitServer(
                client,
                namespace,
                SERVER,
                s -> s.getStatus() != null && Conditions.isTrue(s.getStatus().conditions, ConditionTypes.READY),
                "Ready");
        GateRecorder gates = GateRecorder.watch(client, namespace, SERVER);
        // About 25 s of sweep at concurrency 4: the leader dies early in it, the standby takes over before it ends.
        ServingResources.quickBenchmark(client, namespace, RUN, SERVER, 4, 96, 64);
        FaultChecks.awaitRunnerWorking(client, namespace);

        OperatorProcess first = operators.replica("operator-0");
        OperatorProcess second = operators.replica("operator-1");
        OperatorProcess leader = first.leads() ? first : second;
        OperatorProcess standby = leader == first ? second : first;
        assertThat(holder(client, namespace)).as("Lease holder").isEqualTo(leader.identity());
        assertThat(standby.successfulReconciliations())
                .as("reconciliations of the standby")
                .isZero();
        Duration leaseDuration =
                Duration.ofSeconds(lease(client, namespace).getSpec().getLeaseDurationSeconds());

        leader.kill();
        Instant killed = Instant.now();
        Instant[] takeover = new Instant[2];
        await("the standby leading and reconciling")
                .atMost(leaseDuration.plus(Duration.ofMinutes(1)))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    if (takeover[0] == null && standby.identity().equals(holder(client, namespace))) {
                        takeover[0] = Instant.now();
                    }
                    if (takeover[1] == null && standby.successfulReconciliations() > 0) {
                        takeover[1] = Instant.now();
                    }
                    return takeover[0] != null && takeover[1] != null;
                });
        Duration leaseTaken = Duration.between(killed, takeover[0]);
        Duration firstReconcile = Duration.between(killed, takeover[1]);
        System.out.printf(
                "leader failover: Lease taken %.1f s and first reconcile %.1f s after the SIGKILL"
                        + " (lease duration %d s)%n",
                leaseTaken.toMillis() / 1000.0, firstReconcile.toMillis() / 1000.0, leaseDuration.toSeconds());
        assertThat(leaseTaken).isLessThanOrEqualTo(leaseDuration.plus(TAKEOVER_SLACK));
        assertThat(firstReconcile).isLessThanOrEqualTo(leaseDuration.plus(TAKEOVER_SLACK));

        BenchmarkRun run = awaitFinished(client, namespace, RUN);
        FaultChecks.assertResultsLandedOnce(client, namespace, run);
        gates.close();
        assertThat(gates.pods()).as("serving pods (none replaced)").hasSize(1);
        assertThat(gates.closed())
                .as("times the readiness gate or Ready of a serving pod was not True")
                .isEmpty();
        standby.assertNothingForbidden();
        leader.assertNothingForbidden();
    }

    private static Lease lease(KubernetesClient client, TestNamespace namespace) {
        // The chart names the Lease after the release; the suite's releases are named after their namespace.
        return client.leases()
                .inNamespace(namespace.name())
                .withName(namespace.name())
                .get();
    }

    private static String holder(KubernetesClient client, TestNamespace namespace) {
        Lease lease = lease(client, namespace);
        return lease == null ? null : lease.getSpec().getHolderIdentity();
    }

    /** Every state of the serving pods' readiness gate and Ready condition the API server showed while watched. */
    private static final class GateRecorder implements AutoCloseable {

        private final SharedIndexInformer<Pod> informer;
        private final Set<String> pods = ConcurrentHashMap.newKeySet();
        private final List<String> closed = new CopyOnWriteArrayList<>();

        private GateRecorder(KubernetesClient client, TestNamespace namespace, String server) {
            informer = client.pods()
                    .inNamespace(namespace.name())
                    .withLabel(Labels.MODEL_SERVER, server)
                    .inform(new ResourceEventHandler<>() {
                        @Override
                        public void onAdd(Pod pod) {
                            record(pod);
                        }

                        @Override
                        public void onUpdate(Pod old, Pod pod) {
                            record(pod);
                        }

                        @Override
                        public void onDelete(Pod pod, boolean finalStateUnknown) {
                            closed.add(pod.getMetadata().getName() + " deleted");
                        }
                    });
        }

        static GateRecorder watch(KubernetesClient client, TestNamespace namespace, String server) {
            return new GateRecorder(client, namespace, server);
        }

        private void record(Pod pod) {
            pods.add(pod.getMetadata().getUid());
            for (String type : List.of(ConditionTypes.POD_INFERENCE_READY, "Ready")) {
                String status = pod.getStatus().getConditions().stream()
                        .filter(c -> type.equals(c.getType()))
                        .map(PodCondition::getStatus)
                        .findFirst()
                        .orElse("absent");
                if (!"True".equals(status)) {
                    closed.add(Instant.now() + " " + pod.getMetadata().getName() + " " + type + "=" + status);
                }
            }
        }

        Set<String> pods() {
            return pods;
        }

        List<String> closed() {
            return closed;
        }

        @Override
        public void close() {
            informer.close();
        }
    }
}
