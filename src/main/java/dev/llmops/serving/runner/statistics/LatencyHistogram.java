package dev.llmops.serving.runner.statistics;

import org.HdrHistogram.Histogram;

/**
 * Collects one latency metric of a stage: percentiles from an HdrHistogram at microsecond resolution and three
 * significant digits (0.1 % error), mean and maximum exact. Not thread-safe; its stage recorder serialises access.
 */
public final class LatencyHistogram {

    private final Histogram histogram = new Histogram(3);
    private double sumNanos;
    private long count;
    private long maxNanos = Long.MIN_VALUE;

    public void record(long nanos) {
        record(nanos, 1);
    }

    /** Records the same value {@code times} times, as a chunk of k tokens gives k inter-token latencies. */
    public void record(long nanos, int times) {
        long value = Math.max(0, nanos);
        histogram.recordValueWithCount(Math.max(0, Math.round(value / 1000.0)), times);
        sumNanos += (double) value * times;
        count += times;
        maxNanos = Math.max(maxNanos, value);
    }

    public long count() {
        return count;
    }

    /** Null when nothing was recorded. */
    public LatencySummary summary() {
        if (count == 0) {
            return null;
        }
        double max = maxNanos / 1e6;
        return new LatencySummary(
                sumNanos / count / 1e6, percentile(50, max), percentile(90, max), percentile(99, max), max);
    }

    private double percentile(double percentile, double max) {
        return Math.min(max, histogram.getValueAtPercentile(percentile) / 1000.0);
    }
}
