package dev.llmops.serving.modelserver;

import dev.llmops.serving.api.v1alpha1.InferenceProbeResult;

/**
 * What the operator knows of one serving pod's ability to generate: whether a probe has finished yet (probed), whether
 * the latest real generation succeeded, the last success, and the last error.
 */
public record PodInference(
        String podUid,
        String podName,
        boolean probed,
        boolean generating,
        InferenceProbeResult lastSuccess,
        String lastError) {}
