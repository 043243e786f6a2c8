/** What a BenchmarkRun asks for: target, workload, sampling, sweep, SLO, capacity search, comparisons. */
package dev.llmops.serving.api.v1alpha1.benchmarkrun.spec;
