package dev.llmops.serving.api.v1alpha1.servingexperiment;

/** Life-cycle stage of a ServingExperiment, shown in kubectl get. */
public enum ServingExperimentPhase {
    Pending,
    Running,
    /** Every variant was tried; the winner, if any, is in status.winner. */
    Succeeded,
    /** spec.maxDurationMinutes ran out before every variant was tried; the status holds what was measured. */
    Incomplete,
    Failed
}
