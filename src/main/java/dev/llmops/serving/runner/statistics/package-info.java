/** Latency histograms and the paired comparison of two runs' samples. */
package dev.llmops.serving.runner.statistics;
