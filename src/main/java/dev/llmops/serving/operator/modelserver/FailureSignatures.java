package dev.llmops.serving.operator.modelserver;

import dev.llmops.serving.operator.toolkit.PodLogs;
import dev.llmops.serving.operator.toolkit.StatusText;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Known ways an SGLang pod fails to get scheduled or to start, as data: what to look for in a scheduler event or in
 * the container's last log lines, and what to tell the user. Order matters: the first match wins, so root causes
 * come before the symptoms they produce. Add a row to teach the operator a new failure.
 *
 * <p>The text comes from the pod: a log tail of up to {@link PodLogs#MAX_TAIL_BYTES}, or a
 * kubelet message. Matching it takes time linear in its length, whatever it holds. The text is cut into lines at
 * every CR and LF, and a pattern is matched within one line, on at most its first {@link #MAX_LINE_CHARS} characters:
 * no pattern spans lines. No pattern has an unbounded quantifier; a gap between two words of a line is bounded (as in
 * {@code .{0,200}}), so an attempt that fails at one position backtracks over at most that many characters. A search
 * thus costs at most the text's length, times the number of patterns, times the longest stretch one pattern can
 * cover. A failure told by two facts that may stand on different lines (a traceback's file and its error) is a
 * signature of two patterns, each found on some line.
 */
public final class FailureSignatures {

    /**
     * The characters of a line that are matched; a longer line is matched on its first ones. The kubelet cuts a
     * termination message to 4096 bytes, and the error lines the signatures look for are a few hundred characters.
     */
    static final int MAX_LINE_CHARS = 4096;

    /** Patterns, all of which must be found in the text, each within a line, and the diagnosis they stand for. */
    public record Signature(String reason, List<Pattern> linePatterns, String message, String hint) {
        /** A failure that one line tells. */
        static Signature of(String reason, String lineRegex, String message, String hint) {
            return allOf(reason, List.of(lineRegex), message, hint);
        }

        /** A failure told by several facts, each found on some line, in any order. */
        static Signature allOf(String reason, List<String> lineRegexes, String message, String hint) {
            List<Pattern> patterns = lineRegexes.stream()
                    .map(regex -> Pattern.compile(regex, Pattern.CASE_INSENSITIVE))
                    .toList();
            return new Signature(reason, patterns, message, hint);
        }
    }

    /** A signature found in a text, with the line that completed it as evidence. */
    public record Match(Signature signature, String evidence) {}

    /** Matched against the scheduler's FailedScheduling event and the pod's PodScheduled condition message. */
    public static final List<Signature> SCHEDULING = List.of(
            Signature.of(
                    "InsufficientGPUs",
                    "Insufficient nvidia\\.com/gpu",
                    "No node that matches the accelerator has enough free GPUs for the pod.",
                    "Free GPUs on matching nodes, add nodes, or lower spec.accelerator.gpusPerReplica (and tp) if "
                            + "the model fits."),
            Signature.of(
                    "ModelCacheClaimUnbound",
                    "unbound immediate PersistentVolumeClaims|persistentvolumeclaim \"[^\"]{1,253}\" not found",
                    "The model cache PersistentVolumeClaim is not bound (or does not exist), so the pod cannot be "
                            + "placed.",
                    "Check the claim's storage class and capacity (kubectl describe pvc), or set "
                            + "spec.modelCache.claimName to a claim that exists."),
            Signature.of(
                    "UntoleratedTaint",
                    "untolerated taint",
                    "The GPU nodes carry a taint the pod does not tolerate.",
                    "Add a toleration for that taint in spec.scheduling.tolerations."),
            Signature.of(
                    "NodeAffinityMismatch",
                    "didn't match Pod's node affinity/selector|node\\(s\\) didn't match node selector",
                    "No node carries the GPU labels the pod requires (GPU family, compute major, product, driver "
                            + "version).",
                    "Check the node labels from GPU Feature Discovery (kubectl get nodes -L "
                            + "nvidia.com/gpu.family,nvidia.com/gpu.product,"
                            + "nvidia.com/cuda.driver-version.major) against spec.accelerator and spec.scheduling."));

    /** Matched against container state messages, pod events and the container's last log lines. */
    public static final List<Signature> STARTUP = List.of(
            Signature.of(
                    "CudaDriverTooOld",
                    "unsatisfied condition: cuda\\s{0,8}>=\\s{0,8}13",
                    "The node's NVIDIA driver is older than this CUDA 13 image needs (driver 580 or newer).",
                    "Keep spec.accelerator.minDriverMajor at 580 or more so such nodes are avoided, upgrade the "
                            + "driver, or use a CUDA 12 image."),
            Signature.of(
                    "CudaHeadersMissing",
                    "curand(_kernel)?\\.h: No such file or directory",
                    "The CUDA development headers are missing from the image, so FlashInfer cannot compile its "
                            + "kernels at start-up.",
                    "Use the full CUDA 13 SGLang image (e.g. lmsysorg/sglang:v0.5.18-cu130), not a *-runtime tag."),
            Signature.of(
                    "FlashInferNvccTooOld",
                    "No supported CUDA architectures found for major versions \\[12\\]|FlashInfer requires GPUs "
                            + "with sm75",
                    "FlashInfer's JIT cannot build for SM120 GPUs with this CUDA toolkit (it needs nvcc 12.9 or "
                            + "newer).",
                    "Use the CUDA 13 SGLang image, with CUDA_HOME pointing at its toolkit."),
            Signature.of(
                    "CudaToolkitMissing",
                    "CUDA_HOME environment variable is not set|Ninja build failed",
                    "Kernel compilation at start-up found no CUDA toolkit.",
                    "Use the full CUDA 13 image, or add --attention-backend triton --sampling-backend pytorch to "
                            + "spec.extraArgs."),
            Signature.of(
                    "CudaToolkitMismatch",
                    "CUDA compiler and toolkit headers are incompatible",
                    "nvcc and the CUDA headers in the image come from different CUDA versions.",
                    "Point CUDA_HOME and PATH at the same toolkit (spec.env), or use the stock SGLang image."),
            Signature.of(
                    "PtxasTooOld",
                    "Value 'sm_1[0-9]{2}a?' is not defined for option 'gpu-name'",
                    "Triton's bundled ptxas is too old for this Blackwell GPU.",
                    "Set TRITON_PTXAS_PATH=/usr/local/cuda/bin/ptxas in spec.env."),
            Signature.of(
                    "NoKernelImage",
                    "no kernel image is available for execution on the device",
                    "The image's GPU kernels were not built for this GPU architecture.",
                    "Use a CUDA 13 SGLang image built for Blackwell (the operator's default image)."),
            Signature.allOf(
                    "DeepGemmUnsupportedOnSm120",
                    List.of("deep_?gemm", "Unsupported architecture"),
                    "DeepGEMM has no kernels for SM120 GPUs (RTX PRO 6000, RTX 50xx), which this model's path needs.",
                    "Run this model on SM100 nodes (spec.accelerator.computeMajor: 10), or disable DeepGEMM for it."),
            Signature.of(
                    "SharedMemoryTooSmall",
                    "Error while creating shared memory segment|/dev/shm.{0,200}No space left on device",
                    "NCCL ran out of shared memory in /dev/shm.",
                    "Raise spec.sharedMemorySize (16Gi to 32Gi for 8 GPUs)."),
            Signature.of(
                    "PeerAccessUnsupported",
                    "peer access is not supported between these two devices",
                    "The GPUs cannot reach each other over PCIe peer-to-peer, which custom all-reduce needs.",
                    "Add --disable-custom-all-reduce to spec.extraArgs, or set NCCL_P2P_DISABLE=1 in spec.env."),
            Signature.of(
                    "KvCacheDoesNotFit",
                    "Not enough memory\\. Please try to increase --mem-fraction-static",
                    "After loading the weights there is no GPU memory left for the KV cache.",
                    "Raise --mem-fraction-static in spec.extraArgs, spread the model over more GPUs (tp), or "
                            + "shorten --context-length."),
            Signature.of(
                    "CudaGraphCaptureOutOfMemory",
                    "Capture cuda graph failed",
                    "The GPU ran out of memory while capturing CUDA graphs.",
                    "Lower --mem-fraction-static or --cuda-graph-max-bs in spec.extraArgs."),
            Signature.of(
                    "ProcessGroupUnreachable",
                    "DistNetworkError|DistStoreError|socketStartConnect: Connect to .{0,200} failed",
                    "A pod of a multi-node group cannot reach its group's rendezvous (the leader's --dist-init-addr on "
                            + "port 20000) or a peer's NCCL socket.",
                    "Check that the pods of a group can reach each other on every port: a NetworkPolicy (with "
                            + "networkPolicy.enabled the operator adds one that admits them), the CNI, and that the "
                            + "leader's address resolves (the LeaderWorkerSet's headless Service)."),
            Signature.of(
                    "SchedulerWatchdogTimeout",
                    "Scheduler watchdog timeout",
                    "A forward batch hung until SGLang's watchdog killed the server (often NCCL, JIT compilation or "
                            + "GPU peer-to-peer).",
                    "Raise --watchdog-timeout in spec.extraArgs; if it hangs after NCCL init, try "
                            + "--disable-custom-all-reduce."),
            Signature.of(
                    "ChildProcessCrashed",
                    "Received sigquit from a child process",
                    "An SGLang worker process crashed and took the server down.",
                    "Look for the first 'Scheduler hit an exception' traceback in the pod log (kubectl logs "
                            + "--previous)."));

    private FailureSignatures() {}

    /** The first signature of the table found in the text, with the line that completed it. */
    public static Optional<Match> find(List<Signature> table, String text) {
        if (text == null || text.isEmpty()) {
            return Optional.empty();
        }
        List<String> lines = lines(text);
        for (Signature signature : table) {
            Optional<String> evidence = evidence(signature, lines);
            if (evidence.isPresent()) {
                return Optional.of(new Match(signature, evidence.get()));
            }
        }
        return Optional.empty();
    }

    /**
     * The line on which the last of the signature's patterns turned up, bounded for a status, when each of them is
     * found on some line.
     */
    private static Optional<String> evidence(Signature signature, List<String> lines) {
        int completing = -1;
        for (Pattern pattern : signature.linePatterns()) {
            int found = firstLineMatching(pattern, lines);
            if (found < 0) {
                return Optional.empty();
            }
            completing = Math.max(completing, found);
        }
        return Optional.of(StatusText.bounded(lines.get(completing).strip()));
    }

    private static int firstLineMatching(Pattern pattern, List<String> lines) {
        Matcher matcher = pattern.matcher("");
        for (int i = 0; i < lines.size(); i++) {
            if (matcher.reset(lines.get(i)).find()) {
                return i;
            }
        }
        return -1;
    }

    /** The text's non-empty lines, split at every CR and LF, each cut to its first {@link #MAX_LINE_CHARS}. */
    private static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        int start = 0;
        while (start < text.length()) {
            int end = start;
            while (end < text.length() && text.charAt(end) != '\n' && text.charAt(end) != '\r') {
                end++;
            }
            if (end > start) {
                lines.add(text.substring(start, Math.min(end, start + MAX_LINE_CHARS)));
            }
            start = end + 1;
        }
        return lines;
    }
}
