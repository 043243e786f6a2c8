package dev.llmops.serving.api.v1alpha1.servingexperiment;

/** What "best" means when a ServingExperiment names its winner. */
public enum ObjectiveType {
    /** The most load that meets spec.benchmark.slo. */
    Capacity,
    /** The most output tokens per second at a stage. */
    Throughput,
    /** The lowest time per output token at a stage. */
    TPOT
}
