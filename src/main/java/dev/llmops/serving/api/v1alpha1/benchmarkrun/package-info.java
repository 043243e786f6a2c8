/** The BenchmarkRun kind and its status: results, comparisons, capacity, provenance. */
package dev.llmops.serving.api.v1alpha1.benchmarkrun;
