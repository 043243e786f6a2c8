package dev.llmops.serving.api.v1alpha1.servingexperiment;

/** Where one variant of a ServingExperiment is: waiting, starting its server, benchmarked, or done. */
public enum VariantPhase {
    Pending,
    /** Its ModelServer exists and is not inference-ready yet. */
    Deploying,
    /** Its BenchmarkRun runs against its ready ModelServer. */
    Benchmarking,
    Succeeded,
    /** Its server did not start or its run failed; the experiment goes on with the next variant. */
    Failed,
    /** Not tried: the experiment ended before its turn (spec.maxDurationMinutes ran out, or the experiment failed). */
    Skipped
}
