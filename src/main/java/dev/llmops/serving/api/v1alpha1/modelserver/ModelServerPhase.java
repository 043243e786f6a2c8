package dev.llmops.serving.api.v1alpha1.modelserver;

/** Coarse life-cycle stage of a ModelServer, shown in kubectl get. */
public enum ModelServerPhase {
    Pending,
    Scheduling,
    Loading,
    Ready,
    Degraded,
    Failed
}
