/**
 * The comparison of two runs' results as a BenchmarkRun's status records it: ratios of their figures and, from their
 * per-request samples, paired speedups with intervals, verdicts and output agreement. Shared by the operator, which
 * compares runs in a cluster, and {@code report compare}, which compares two {@code bench} results on a laptop.
 */
package dev.llmops.serving.comparison;
