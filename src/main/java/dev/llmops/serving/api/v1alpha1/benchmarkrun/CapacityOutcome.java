package dev.llmops.serving.api.v1alpha1.benchmarkrun;

/** How a capacity search ended. */
public enum CapacityOutcome {
    Found,
    BudgetExhausted,
    NeverMet
}
