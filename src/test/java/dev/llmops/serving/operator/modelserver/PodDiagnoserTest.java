package dev.llmops.serving.operator.modelserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.modelserver.InferenceProbeResult;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.operator.toolkit.StatusText;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Diagnoses read straight from container states, which need neither events nor logs. */
class PodDiagnoserTest {

    private final KubernetesClient unused = new KubernetesClientBuilder().build();
    private final PodDiagnoser diagnoser = new PodDiagnoser(unused);
    private final ModelServer kimi = TestModelServers.example("kimi-k2-rtx-pro-6000-eagle3.yaml", "llm");

    @AfterEach
    void close() {
        unused.close();
    }

    @Test
    void anImageThatCannotBePulledNamesTheImage() {
        PodDiagnoser.Finding finding = diagnose(new ContainerStatusBuilder()
                        .withName("sglang")
                        .withImage("lmsysorg/sglang:v9.9.9-cu130")
                        .withNewState()
                        .withNewWaiting()
                        .withReason("ImagePullBackOff")
                        .withMessage("Back-off pulling image")
                        .endWaiting()
                        .endState()
                        .build())
                .orElseThrow();

        assertThat(finding.severity()).isEqualTo(PodDiagnoser.Severity.STALLED);
        assertThat(finding.diagnosis().reason).isEqualTo("ImagePullFailed");
        assertThat(finding.diagnosis().message).contains("lmsysorg/sglang:v9.9.9-cu130");
        assertThat(finding.diagnosis().hint).contains("spec.image");
    }

    @Test
    void anOomKilledContainerAsksForMoreHostMemory() {
        PodDiagnoser.Finding finding = diagnose(new ContainerStatusBuilder()
                        .withName("sglang")
                        .withRestartCount(2)
                        .withNewState()
                        .withNewWaiting()
                        .withReason("CrashLoopBackOff")
                        .endWaiting()
                        .endState()
                        .withNewLastState()
                        .withNewTerminated()
                        .withReason("OOMKilled")
                        .withExitCode(137)
                        .endTerminated()
                        .endLastState()
                        .build())
                .orElseThrow();

        assertThat(finding.diagnosis().reason).isEqualTo("HostMemoryTooLow");
        assertThat(finding.diagnosis().message).contains("512Gi");
        assertThat(finding.diagnosis().hint).contains("spec.resources.memory");
    }

    @Test
    void aContainerRunningAndStartedAgainAfterAnOomKillHasRecovered() {
        ContainerStatus recovered = new ContainerStatusBuilder()
                .withName("sglang")
                .withRestartCount(1)
                .withStarted(true)
                .withReady(true)
                .withNewState()
                .withNewRunning()
                .endRunning()
                .endState()
                .withNewLastState()
                .withNewTerminated()
                .withReason("OOMKilled")
                .withExitCode(137)
                .endTerminated()
                .endLastState()
                .build();

        assertThat(diagnose(recovered)).isEmpty();
    }

    @Test
    void aDriverTooOldForCuda13IsReadFromTheRuntimeError() {
        PodDiagnoser.Finding finding = diagnose(new ContainerStatusBuilder()
                        .withName("sglang")
                        .withNewState()
                        .withNewWaiting()
                        .withReason("RunContainerError")
                        .withMessage("failed to create containerd task: OCI runtime create failed:"
                                + " nvidia-container-cli: requirement error: unsatisfied condition: "
                                + "cuda>=13.0, please update your driver")
                        .endWaiting()
                        .endState()
                        .build())
                .orElseThrow();

        assertThat(finding.diagnosis().reason).isEqualTo("CudaDriverTooOld");
        assertThat(finding.diagnosis().message).contains("unsatisfied condition: cuda>=13.0");
        assertThat(finding.diagnosis().hint).contains("minDriverMajor");
    }

    @Test
    void aRunningServerIsDiagnosedOnlyWhenItsStartedServerFailsToGenerate() {
        Pod started = startedPod();
        PodInference failing = new PodInference("uid-1", "kimi-0", true, false, null, "http_500: CUDA error");
        PodInference generating = new PodInference("uid-1", "kimi-0", true, true, new InferenceProbeResult(), null);

        assertThat(diagnoser.diagnose(kimi, started)).isEmpty();
        assertThat(PodDiagnoser.notGenerating(started, failing)).hasValueSatisfying(f -> {
            assertThat(f.diagnosis().reason).isEqualTo("GenerationFailing");
            assertThat(f.diagnosis().message).contains("http_500: CUDA error");
            assertThat(f.diagnosis().hint).contains("kubectl logs -n llm kimi-0 -c sglang");
            assertThat(f.severity()).isEqualTo(PodDiagnoser.Severity.NOT_GENERATING);
        });
        assertThat(PodDiagnoser.notGenerating(started, generating)).isEmpty();
        Pod loading = pod(new ContainerStatusBuilder()
                .withName("sglang")
                .withStarted(false)
                .withNewState()
                .withNewRunning()
                .endRunning()
                .endState()
                .build());
        assertThat(PodDiagnoser.notGenerating(loading, failing))
                .as("a loading server refusing requests is not a failure yet")
                .isEmpty();
    }

    @Test
    void aHugeRuntimeMessageIsCutInTheDiagnosis() {
        String huge =
                "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=13.0 " + "x".repeat(100_000);
        PodDiagnoser.Finding finding = diagnose(new ContainerStatusBuilder()
                        .withName("sglang")
                        .withNewState()
                        .withNewWaiting()
                        .withReason("RunContainerError")
                        .withMessage(huge)
                        .endWaiting()
                        .endState()
                        .build())
                .orElseThrow();
        PodInference failing =
                new PodInference("uid-1", "kimi-0", true, false, null, "http_500: " + "y".repeat(100_000));

        assertThat(finding.diagnosis().message)
                .contains("unsatisfied condition: cuda>=13.0")
                .hasSize(StatusText.MAX_CHARS)
                .endsWith("…");
        assertThat(failing.lastError()).hasSize(StatusText.MAX_CHARS).startsWith("http_500: yyy");
    }

    private Optional<PodDiagnoser.Finding> diagnose(ContainerStatus status) {
        return diagnoser.diagnose(kimi, pod(status));
    }

    @Test
    void aGenerationFailureThatWaitingCannotCureFailsTheServerAtOnce() {
        Pod started = startedPod();
        PodInference wrongArchitecture = new PodInference(
                "uid-1",
                "kimi-0",
                true,
                false,
                null,
                "http_500: CUDA error: no kernel image is available for execution on the device");

        assertThat(PodDiagnoser.notGenerating(started, wrongArchitecture)).hasValueSatisfying(f -> {
            assertThat(f.diagnosis().reason).isEqualTo("NoKernelImage");
            assertThat(f.diagnosis().message)
                    .contains("not built for this GPU architecture", "http_500: CUDA error: no kernel image");
            assertThat(f.severity()).isEqualTo(PodDiagnoser.Severity.STALLED);
        });
    }

    @Test
    void aServerWarmingUpWaitsForItsFirstGenerationUntilItHasGeneratedOnce() {
        Pod started = startedPod();
        for (String warmingUp : List.of(
                "http_503: The server is still loading the model",
                "http_502",
                "timeout: no response before the timeout",
                "connect: connection refused: nothing is listening on that port",
                "disconnect")) {
            PodInference neverGenerated = new PodInference("uid-1", "kimi-0", true, false, null, warmingUp);
            assertThat(PodDiagnoser.notGenerating(started, neverGenerated))
                    .as(warmingUp)
                    .hasValueSatisfying(f -> {
                        assertThat(f.diagnosis().reason).isEqualTo("WaitingForFirstGeneration");
                        assertThat(f.diagnosis().message).contains(warmingUp);
                        assertThat(f.severity()).isEqualTo(PodDiagnoser.Severity.NOT_GENERATING);
                    });
        }
        PodInference generatedBefore =
                new PodInference("uid-1", "kimi-0", true, false, new InferenceProbeResult(), "http_503: overloaded");
        assertThat(PodDiagnoser.notGenerating(started, generatedBefore))
                .as("a server that generated once and now fails is not warming up")
                .hasValueSatisfying(f -> assertThat(f.diagnosis().reason).isEqualTo("GenerationFailing"));
        PodInference timeoutsLookAlike =
                new PodInference("uid-1", "kimi-0", true, false, null, "timeouts_exceeded: 500");
        assertThat(PodDiagnoser.notGenerating(started, timeoutsLookAlike))
                .as("only a failure class itself counts, not a word that begins with one")
                .hasValueSatisfying(f -> assertThat(f.diagnosis().reason).isEqualTo("GenerationFailing"));
    }

    @Test
    void aFailingPodOfAGroupIsNamedByItsGroupAndWorkerIndex() {
        ContainerStatus unreachable = new ContainerStatusBuilder()
                .withName("sglang")
                .withRestartCount(1)
                .withNewState()
                .withNewWaiting()
                .withReason("CrashLoopBackOff")
                .withMessage("torch.distributed.DistNetworkError: The client socket has timed out while trying to"
                        + " connect to (kimi-0.kimi.llm, 20000).")
                .endWaiting()
                .endState()
                .build();
        Pod worker = new PodBuilder(pod(unreachable))
                .editMetadata()
                .withName("kimi-0-1")
                .addToLabels(LeaderWorkerSet.GROUP_INDEX_LABEL, "0")
                .addToLabels(LeaderWorkerSet.WORKER_INDEX_LABEL, "1")
                .endMetadata()
                .build();

        assertThat(diagnoser.diagnose(kimi, worker)).hasValueSatisfying(finding -> {
            assertThat(finding.diagnosis().reason).isEqualTo("ProcessGroupUnreachable");
            assertThat(finding.diagnosis().message).startsWith("Group 0's worker 1 (pod kimi-0-1): ");
            assertThat(finding.diagnosis().pod).isEqualTo("kimi-0-1");
        });
        Pod leader = new PodBuilder(worker)
                .editMetadata()
                .withName("kimi-0")
                .addToLabels(LeaderWorkerSet.WORKER_INDEX_LABEL, "0")
                .endMetadata()
                .build();
        assertThat(PodDiagnoser.groupMember(leader)).contains("Group 0's leader (pod kimi-0)");
        Pod hostile = new PodBuilder(worker)
                .editMetadata()
                .addToLabels(LeaderWorkerSet.WORKER_INDEX_LABEL, "1; delete everything")
                .endMetadata()
                .build();
        assertThat(PodDiagnoser.groupMember(hostile))
                .as("labels that are not indexes name nothing")
                .isEmpty();
    }

    private static Pod startedPod() {
        return pod(new ContainerStatusBuilder()
                .withName("sglang")
                .withStarted(true)
                .withReady(true)
                .withNewState()
                .withNewRunning()
                .endRunning()
                .endState()
                .build());
    }

    private static Pod pod(ContainerStatus status) {
        return new PodBuilder()
                .withNewMetadata()
                .withName("kimi-0")
                .withNamespace("llm")
                .withUid("uid-1")
                .endMetadata()
                .withNewStatus()
                .withPhase("Running")
                .addNewCondition()
                .withType("PodScheduled")
                .withStatus("True")
                .endCondition()
                .withContainerStatuses(status)
                .endStatus()
                .build();
    }
}
