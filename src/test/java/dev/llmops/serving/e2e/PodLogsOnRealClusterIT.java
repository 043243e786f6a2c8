package dev.llmops.serving.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.e2e.support.E2eCluster;
import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.OperatorUnderTest;
import dev.llmops.serving.e2e.support.ServingResources;
import dev.llmops.serving.e2e.support.TestNamespace;
import dev.llmops.serving.operator.benchmark.BenchmarkJobDependent;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.ContainerResource;
import io.fabric8.kubernetes.client.dsl.PodResource;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Pod logs through the API server, as on a cluster with kubelets: kube-apiserver fetches them from the fleet's kubelet
 * log endpoint, so the fabric8 client, {@code kubectl logs} and the operator (the run's progress while it runs) read
 * the benchmark pod's output, with tailLines and limitBytes honoured.
 */
@E2eTest
class PodLogsOnRealClusterIT {

    private static final String SERVER = "logs-target";
    private static final String RUN = "logged";
    private static final String STAGES = "3";
    private static final int TAIL_LINES = 3;
    private static final int LIMIT_BYTES = 100;

    @RegisterExtension
    static final OperatorUnderTest operator = OperatorUnderTest.installed()
            .onFakeGpuFleet()
            .value("extraEnv[0].name", "LLMOPS_BENCHMARK_PROGRESS_POLL")
            .value("extraEnv[0].value", "500ms")
            .deletingServersBeforeStop(SERVER);

    private static BenchmarkRun finished;
    private static final Set<String> progressWhileRunning = ConcurrentHashMap.newKeySet();

    @BeforeAll
    static void runBenchmark(KubernetesClient client, TestNamespace namespace) {
        ServingResources.sm120Server(client, namespace, SERVER, 1, 1);
        // Three stages of a few seconds in all, so the operator's polls see the run between stages.
        ServingResources.createRun(
                client, namespace, ServingResources.quickRunManifest(RUN, SERVER, "1, 2", 6, 48, ""));
        finished = await("BenchmarkRun " + RUN + " finished")
                .atMost(ServingResources.RUN_TIMEOUT)
                .pollInterval(Duration.ofMillis(200))
                .until(
                        () -> {
                            BenchmarkRun run = client.resources(BenchmarkRun.class)
                                    .inNamespace(namespace.name())
                                    .withName(RUN)
                                    .get();
                            if (run != null
                                    && run.getStatus() != null
                                    && run.getStatus().phase == BenchmarkRunPhase.Running
                                    && run.getStatus().progress != null) {
                                progressWhileRunning.add(run.getStatus().progress);
                            }
                            return run;
                        },
                        run -> run != null
                                && run.getStatus() != null
                                && (run.getStatus().phase == BenchmarkRunPhase.Succeeded
                                        || run.getStatus().phase == BenchmarkRunPhase.Failed));
    }

    @Test
    void theClientReadsTheBenchmarkPodsLogWithTailLinesAndLimitBytes(KubernetesClient client, TestNamespace namespace) {
        ContainerResource pod = benchmarkPod(client, namespace);

        String log = pod.getLog();
        String tail = pod.tailingLines(TAIL_LINES).getLog();
        String limited = pod.limitBytes(LIMIT_BYTES).getLog();

        assertThat(finished.getStatus().phase).isEqualTo(BenchmarkRunPhase.Succeeded);
        assertThat(log).contains("PROGRESS 1/" + STAGES + " c1", "PROGRESS " + STAGES + "/" + STAGES);
        assertThat(log.getBytes(StandardCharsets.UTF_8)).hasSizeGreaterThan(LIMIT_BYTES);
        assertThat(tail).isEqualTo(lastLines(log, TAIL_LINES)).isNotEqualTo(log);
        assertThat(limited.getBytes(StandardCharsets.UTF_8))
                .isEqualTo(Arrays.copyOf(log.getBytes(StandardCharsets.UTF_8), LIMIT_BYTES));
    }

    @Test
    void kubectlLogsReadsTheSameLog(E2eCluster cluster, KubernetesClient client, TestNamespace namespace) {
        String name = benchmarkPodName(client, namespace);
        String log = benchmarkPod(client, namespace).getLog();

        assertThat(cluster.kubectl("logs", name, "--namespace", namespace.name()))
                .isEqualTo(log);
        assertThat(cluster.kubectl("logs", name, "--namespace", namespace.name(), "--tail=" + TAIL_LINES))
                .isEqualTo(lastLines(log, TAIL_LINES));
        assertThat(cluster.kubectl("logs", name, "--namespace", namespace.name(), "--limit-bytes=" + LIMIT_BYTES))
                .isEqualTo(new String(
                        Arrays.copyOf(log.getBytes(StandardCharsets.UTF_8), LIMIT_BYTES), StandardCharsets.UTF_8));
    }

    @Test
    void aContainerWithoutRecordedLogIsNotFoundAndThereIsNoPreviousContainer(
            KubernetesClient client, TestNamespace namespace) {
        Pod server = ServingResources.serverPods(client, namespace, SERVER).get(0);
        PodResource serverPod = client.pods()
                .inNamespace(namespace.name())
                .withName(server.getMetadata().getName());

        // The stand-in records the logs of benchmark pods only: the kubelet endpoint answers 404 for the server's.
        assertThatThrownBy(serverPod::getLog)
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getCode()).isEqualTo(404));
        assertThatThrownBy(() -> benchmarkPod(client, namespace).terminated().getLog())
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getMessage()).contains("previous terminated container"));
    }

    @Test
    void theOperatorReadsTheProgressFromTheLogWhileTheRunRuns() {
        // Before the endpoint existed no log was readable, and a running run showed no progress at all.
        assertThat(progressWhileRunning)
                .as("status.progress seen while Running")
                .anyMatch(progress -> progress.matches("[0-2]/" + STAGES + " (single|quality|c1|c2)"))
                .allMatch(progress -> progress.matches("[0-3]/" + STAGES + "( (single|quality|c1|c2))?"));
    }

    @Test
    void theChartGrantsEveryCallTheOperatorMade() {
        operator.process().assertNothingForbidden();
    }

    private static ContainerResource benchmarkPod(KubernetesClient client, TestNamespace namespace) {
        return client.pods()
                .inNamespace(namespace.name())
                .withName(benchmarkPodName(client, namespace))
                .inContainer(BenchmarkJobDependent.CONTAINER);
    }

    private static String benchmarkPodName(KubernetesClient client, TestNamespace namespace) {
        List<Pod> pods = client.pods()
                .inNamespace(namespace.name())
                .withLabel("job-name", finished.getStatus().jobName)
                .list()
                .getItems();
        assertThat(pods).hasSize(1);
        return pods.get(0).getMetadata().getName();
    }

    /** The last lines of a log that ends with a newline. */
    private static String lastLines(String log, int lines) {
        List<String> all = log.lines().toList();
        return String.join("\n", all.subList(all.size() - lines, all.size())) + "\n";
    }
}
