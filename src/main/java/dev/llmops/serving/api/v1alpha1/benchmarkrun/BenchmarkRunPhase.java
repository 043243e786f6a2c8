package dev.llmops.serving.api.v1alpha1.benchmarkrun;

/** Life-cycle stage of a BenchmarkRun, shown in kubectl get. */
public enum BenchmarkRunPhase {
    Pending,
    WaitingForServer,
    Running,
    Succeeded,
    Failed
}
