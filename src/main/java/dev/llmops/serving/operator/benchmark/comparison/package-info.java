/** Comparisons between BenchmarkRuns: baselines, references, paired speedups from stored samples. */
package dev.llmops.serving.operator.benchmark.comparison;
