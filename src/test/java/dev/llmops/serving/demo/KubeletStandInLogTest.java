package dev.llmops.serving.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.demo.apiserver.EmbeddedKubernetes;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The kubelet stand-in keeps what a benchmark pod's runner writes, readable while it runs and after, as kubectl logs
 * would show.
 */
class KubeletStandInLogTest {

    private static final String NS = "default";
    private static final String CONTAINER = "bench";

    private EmbeddedKubernetes kubernetes;
    private KubeletStandIn kubelet;
    private final CountDownLatch finish = new CountDownLatch(1);

    @BeforeEach
    void start() {
        kubernetes = EmbeddedKubernetes.start(0);
        kubelet = new KubeletStandIn(
                        kubernetes.client(),
                        pod -> true,
                        pod -> SimulatedServerProfile.autoregressive(),
                        (args, log) -> {
                            log.println("PROGRESS 1/5 single");
                            log.println("PROGRESS 2/5 c8");
                            try {
                                finish.await(30, TimeUnit.SECONDS);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                                return 1;
                            }
                            log.print("x".repeat(RecordedLogs.LIMIT + 1024) + "\n");
                            log.println("PROGRESS 5/5 c64");
                            return 0;
                        })
                .start();
    }

    @AfterEach
    void stop() {
        finish.countDown();
        kubelet.close();
        kubernetes.close();
    }

    @Test
    void aBenchmarkPodsLogIsRecordedWhileItRunsAndBoundedAfter() {
        KubernetesClient client = kubernetes.client();
        client.resource(benchmarkPod("bench-run-1")).create();

        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(kubelet.logs().log(NS, "bench-run-1", CONTAINER))
                        .hasValueSatisfying(log -> assertThat(log).endsWith("PROGRESS 1/5 single\nPROGRESS 2/5 c8\n")));
        assertThat(client.pods()
                        .inNamespace(NS)
                        .withName("bench-run-1")
                        .get()
                        .getStatus()
                        .getPhase())
                .isEqualTo("Running");
        assertThat(kubelet.logs().log(NS, "bench-run-1", "other")).isEmpty();

        finish.countDown();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> "Succeeded"
                        .equals(client.pods()
                                .inNamespace(NS)
                                .withName("bench-run-1")
                                .get()
                                .getStatus()
                                .getPhase()));
        String log = kubelet.logs().log(NS, "bench-run-1", CONTAINER).orElseThrow();
        assertThat(log)
                .hasSizeLessThanOrEqualTo(RecordedLogs.LIMIT)
                .endsWith("PROGRESS 5/5 c64\n")
                .doesNotContain("PROGRESS 1/5");
    }

    private static Pod benchmarkPod(String name) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(NS)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName(CONTAINER)
                .withImage("runner")
                .withArgs("bench", "--url", "http://127.0.0.1:1/v1", "--summary-file", "/dev/termination-log")
                .endContainer()
                .endSpec()
                .build();
    }
}
