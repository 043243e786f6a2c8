package dev.llmops.serving.operator.modelserver;

import dev.llmops.serving.api.v1alpha1.modelserver.InferenceProbeResult;
import dev.llmops.serving.operator.toolkit.StatusText;

/**
 * What the operator knows of one serving pod's ability to generate: whether a probe has finished yet (probed), whether
 * the latest real generation succeeded, the last success, and the last error (the server's words, bounded to
 * {@link StatusText#MAX_CHARS} since it goes into the status and the pod's readiness condition).
 */
public record PodInference(
        String podUid,
        String podName,
        boolean probed,
        boolean generating,
        InferenceProbeResult lastSuccess,
        String lastError) {

    public PodInference {
        lastError = StatusText.bounded(lastError);
    }
}
