package dev.llmops.serving.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerSpec;
import dev.llmops.serving.demo.apiserver.EmbeddedKubernetes;
import dev.llmops.serving.operator.modelserver.PodDiagnoser;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A simulated server that fails at start crash-loops as on a node: it exits with its log as termination message,
 * waits in CrashLoopBackOff, is started again with a higher restart count, and the operator's diagnoser reads the
 * failure from it.
 */
class KubeletStandInCrashLoopTest {

    private static final String NS = "default";
    private static final String POD = "qwen3-8b-cu128-image-5d9c7-x2k4q";

    private EmbeddedKubernetes kubernetes;
    private KubeletStandIn kubelet;

    @BeforeEach
    void start() {
        kubernetes = EmbeddedKubernetes.start(0);
        kubelet = new KubeletStandIn(
                        kubernetes.client(),
                        pod -> true,
                        pod -> SimulatedServerProfile.autoregressive()
                                .failingAtStart(DemoScenario.SM120_FLASHINFER_FAILURE),
                        (args, log) -> 0)
                .start();
        kubernetes.servePodLogs(kubelet.logs());
    }

    @AfterEach
    void stop() {
        kubelet.close();
        kubernetes.close();
    }

    @Test
    void theServerExitsAgainAfterEachBackOffAndTheDiagnoserNamesTheFailure() {
        KubernetesClient client = kubernetes.client();
        client.resource(serverPod()).create();

        await().ignoreExceptions()
                .atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(sglang(current()))
                        .satisfies(s -> assertThat(s.getRestartCount()).isGreaterThanOrEqualTo(1))
                        .satisfies(s -> assertThat(s.getState().getWaiting().getReason())
                                .isEqualTo("CrashLoopBackOff")));
        Pod pod = current();
        ContainerStatus sglang = sglang(pod);
        assertThat(pod.getStatus().getPhase()).isEqualTo("Running");
        assertThat(sglang.getStarted()).isFalse();
        assertThat(sglang.getLastState().getTerminated().getExitCode()).isEqualTo(1);
        assertThat(sglang.getLastState().getTerminated().getMessage())
                .endsWith("RuntimeError: No supported CUDA architectures found for major versions [12].\n");
        assertThat(client.pods().inNamespace(NS).withName(POD).getLog())
                .isEqualTo(DemoScenario.SM120_FLASHINFER_FAILURE);

        ModelServer server = new ModelServer();
        server.setSpec(new ModelServerSpec());
        assertThat(new PodDiagnoser(client).diagnose(server, pod))
                .hasValueSatisfying(
                        finding -> assertThat(finding.diagnosis().reason).isEqualTo(DemoScenario.FAILING_DIAGNOSIS));

        client.pods().inNamespace(NS).withName(POD).delete();
        await().atMost(Duration.ofSeconds(10)).until(() -> current() == null);
    }

    private Pod current() {
        return kubernetes.client().pods().inNamespace(NS).withName(POD).get();
    }

    private static ContainerStatus sglang(Pod pod) {
        return pod.getStatus().getContainerStatuses().get(0);
    }

    private static Pod serverPod() {
        return new PodBuilder()
                .withNewMetadata()
                .withName(POD)
                .withNamespace(NS)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("sglang")
                .withImage("lmsysorg/sglang:v0.5.18-cu128")
                .withCommand(List.of("python3", "-m", "sglang.launch_server"))
                .withArgs("--model-path", "Qwen/Qwen3-8B", "--port", "30000")
                .withTerminationMessagePolicy("FallbackToLogsOnError")
                .endContainer()
                .endSpec()
                .build();
    }
}
