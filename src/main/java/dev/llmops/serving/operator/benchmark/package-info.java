/** The BenchmarkRun controller: the benchmark Job, its results, SLO, metrics and Events. */
package dev.llmops.serving.operator.benchmark;
