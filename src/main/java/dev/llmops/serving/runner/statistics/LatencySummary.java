package dev.llmops.serving.runner.statistics;

/** Mean, percentiles and maximum of one latency metric over a stage, in milliseconds. */
public record LatencySummary(double mean, double median, double p90, double p99, double max) {}
