package dev.llmops.serving.operator.modelserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.operator.toolkit.StatusText;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each known failure is recognised from a realistic line, and no earlier row of the table shadows it; a pattern is
 * matched within one line, and a failure told on two lines is recognised from both.
 */
class FailureSignaturesTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=13.0, please update your "
                        + "driver | CudaDriverTooOld",
                "/usr/local/lib/python3.12/dist-packages/flashinfer/data/include/flashinfer/sampling.cuh:22:10: "
                        + "fatal error: curand.h: No such file or directory | CudaHeadersMissing",
                "RuntimeError: No supported CUDA architectures found for major versions [12]. | FlashInferNvccTooOld",
                "OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root. | "
                        + "CudaToolkitMissing",
                "RuntimeError: CUDA compiler and toolkit headers are incompatible | CudaToolkitMismatch",
                "ptxas fatal   : Value 'sm_120a' is not defined for option 'gpu-name' | PtxasTooOld",
                "torch.AcceleratorError: CUDA error: no kernel image is available for execution on the device | "
                        + "NoKernelImage",
                "File deep_gemm/jit/compiler.py, line 80: AssertionError: Unsupported architecture | "
                        + "DeepGemmUnsupportedOnSm120",
                "NCCL WARN Error while creating shared memory segment /dev/shm/nccl-x3Ya (size 9637888) | "
                        + "SharedMemoryTooSmall",
                "RuntimeError: CUDA error: peer access is not supported between these two devices | "
                        + "PeerAccessUnsupported",
                "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static. | KvCacheDoesNotFit",
                "Exception: Capture cuda graph failed: CUDA out of memory. | CudaGraphCaptureOutOfMemory",
                "torch.distributed.DistNetworkError: The client socket has timed out after 600000ms while trying to"
                        + " connect to (kimi-0.kimi.llm, 20000). | ProcessGroupUnreachable",
                "kimi-0-1:42:42 [0] misc/socket.cc:538 NCCL WARN socketStartConnect: Connect to 10.0.0.5<45123>"
                        + " failed : Software caused connection abort | ProcessGroupUnreachable",
                "[2026-01-01 00:00:00] Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False) | "
                        + "SchedulerWatchdogTimeout",
                "[2026-01-01 00:00:00] Received sigquit from a child process. It usually means the child failed. | "
                        + "ChildProcessCrashed",
                "0/12 nodes are available: 4 Insufficient nvidia.com/gpu, 8 node(s) didn't match Pod's node "
                        + "affinity/selector. | InsufficientGPUs",
                "0/3 nodes are available: 3 node(s) had untolerated taint {nvidia.com/gpu: present}. | "
                        + "UntoleratedTaint",
                "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. | NodeAffinityMismatch",
                "0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. | ModelCacheClaimUnbound"
            })
    void recognises(String line, String reason) {
        var table = reason.equals("InsufficientGPUs")
                        || reason.equals("UntoleratedTaint")
                        || reason.equals("NodeAffinityMismatch")
                        || reason.equals("ModelCacheClaimUnbound")
                ? FailureSignatures.SCHEDULING
                : FailureSignatures.STARTUP;
        String log = "Loading safetensors checkpoint shards: 100%\n" + line + "\nTraceback follows";

        assertThat(FailureSignatures.find(table, log)).hasValueSatisfying(match -> {
            assertThat(match.signature().reason()).isEqualTo(reason);
            assertThat(match.evidence()).isEqualTo(line);
        });
    }

    @Test
    void theEvidenceOfAHugeLogLineIsCut() {
        String line = "RuntimeError: CUDA error: no kernel image is available for execution on the device "
                + "x".repeat(1 << 20);

        assertThat(FailureSignatures.find(FailureSignatures.STARTUP, "loading\n" + line + "\ndone"))
                .hasValueSatisfying(match -> assertThat(match.evidence())
                        .hasSize(StatusText.MAX_CHARS)
                        .startsWith("RuntimeError: CUDA error: no kernel image"));
    }

    @Test
    void aFailureToldOnTwoLinesOfATracebackIsRecognisedWithItsErrorLineAsEvidence() {
        String traceback = """
                Traceback (most recent call last):
                  File "/sgl-workspace/DeepGEMM/deep_gemm/jit/compiler.py", line 80, in build
                    assert arch in SUPPORTED_ARCHS
                AssertionError: Unsupported architecture
                """;

        assertThat(FailureSignatures.find(FailureSignatures.STARTUP, traceback)).hasValueSatisfying(match -> {
            assertThat(match.signature().reason()).isEqualTo("DeepGemmUnsupportedOnSm120");
            assertThat(match.evidence()).isEqualTo("AssertionError: Unsupported architecture");
        });
    }

    @Test
    void aPatternDoesNotReachAcrossALineBreak() {
        String log = "NCCL INFO Using /dev/shm for intra-node transport\nOSError: No space left on device";

        assertThat(FailureSignatures.find(FailureSignatures.STARTUP, log)).isEmpty();
    }

    @Test
    void aLongLineIsMatchedOnItsFirstCharactersOnly() {
        String error = "RuntimeError: CUDA error: no kernel image is available for execution on the device";
        String within = "x".repeat(FailureSignatures.MAX_LINE_CHARS - error.length()) + error;

        assertThat(FailureSignatures.find(FailureSignatures.STARTUP, within)).isPresent();
        assertThat(FailureSignatures.find(FailureSignatures.STARTUP, "x" + within))
                .isEmpty();
    }

    @Test
    void aCarriageReturnEndsALineAsAProgressBarWritesThem() {
        String progress = "Capturing batches:  50%|#####     |\rCapturing batches: 100%|##########|\r"
                + "Exception: Capture cuda graph failed: CUDA out of memory.\r\nTraceback follows";

        assertThat(FailureSignatures.find(FailureSignatures.STARTUP, progress))
                .hasValueSatisfying(match -> assertThat(match.evidence())
                        .isEqualTo("Exception: Capture cuda graph failed: CUDA out of memory."));
    }
}
