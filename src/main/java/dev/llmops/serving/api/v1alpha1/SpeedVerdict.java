package dev.llmops.serving.api.v1alpha1;

/** What a stage's throughput interval says about a run against the one it is compared with. */
public enum SpeedVerdict {
    Faster,
    Slower,
    NoSignificantDifference
}
