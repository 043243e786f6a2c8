package dev.llmops.serving.api.v1alpha1.benchmarkrun.spec;

/** Which runs count together for spec.retention.keepLast. */
public enum RetentionGroup {
    /** Runs of the same target: the same ModelServer, or the same URL. */
    Target,
    /** Runs that name the same spec.reference. */
    Reference
}
