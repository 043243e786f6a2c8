package dev.llmops.serving.api.v1alpha1.benchmarkrun.spec;

/** Kinds of benchmark dataset. */
public enum DatasetType {
    Prompts,
    Random,
    ShareGPT,
    SharedPrefix,
    Trace,
    Sessions
}
