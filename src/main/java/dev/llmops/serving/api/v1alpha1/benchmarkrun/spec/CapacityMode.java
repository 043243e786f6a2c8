package dev.llmops.serving.api.v1alpha1.benchmarkrun.spec;

/** What a capacity search raises: concurrent streams (closed loop) or the request rate (open loop). */
public enum CapacityMode {
    Concurrency,
    Rate
}
