package dev.llmops.serving.api.v1alpha1.benchmarkrun.spec;

/** How an open-loop stage spaces its requests in time. */
public enum ArrivalProcess {
    Poisson,
    Constant
}
