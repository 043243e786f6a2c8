package dev.llmops.serving.api.v1alpha1.benchmarkrun;

/** What a stage's throughput interval says about this run against the other one. */
public enum SpeedVerdict {
    Faster,
    Slower,
    NoSignificantDifference
}
