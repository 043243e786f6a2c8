package dev.llmops.serving.runner.statistics;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.HistogramIterationValue;
import org.HdrHistogram.PackedHistogram;

/**
 * Collects one latency metric of a stage: percentiles from an HdrHistogram at microsecond resolution and three
 * significant digits (0.1 % error), mean and maximum exact. Histograms of several shards {@link #add add up} exactly,
 * as if one had recorded every value. Its counts are packed, so it holds memory for the buckets it uses only: a merge
 * of shards' histograms from other processes costs what they recorded, not what their largest value would span. Not
 * thread-safe; its stage recorder serialises access.
 */
public final class LatencyHistogram {

    /** Bound of a {@link Recorded} form's buckets: a three-digit histogram up to a day in microseconds has fewer. */
    public static final int MAX_BUCKETS = 100_000;

    private static final long MAX_MICROS = 86_400_000_000L;

    private final PackedHistogram histogram = new PackedHistogram(3);
    private double sumNanos;
    private long count;
    private long maxNanos = Long.MIN_VALUE;

    /**
     * A histogram as data: each non-empty bucket's value (microseconds) and count, with the exact sum, count and
     * maximum.
     */
    public record Recorded(
            @JsonProperty("micros") long[] micros,
            @JsonProperty("counts") long[] counts,
            @JsonProperty("sum_ns") double sumNanos,
            @JsonProperty("count") long count,
            @JsonProperty("max_ns") long maxNanos) {}

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

    /** Adds every value of {@code other}, as if this histogram had recorded them. */
    public void add(LatencyHistogram other) {
        histogram.add(other.histogram);
        sumNanos += other.sumNanos;
        count += other.count;
        maxNanos = Math.max(maxNanos, other.maxNanos);
    }

    public Recorded recorded() {
        List<long[]> buckets = new ArrayList<>();
        for (HistogramIterationValue bucket : histogram.recordedValues()) {
            buckets.add(new long[] {bucket.getValueIteratedTo(), bucket.getCountAtValueIteratedTo()});
        }
        long[] micros = new long[buckets.size()];
        long[] counts = new long[buckets.size()];
        for (int i = 0; i < buckets.size(); i++) {
            micros[i] = buckets.get(i)[0];
            counts[i] = buckets.get(i)[1];
        }
        return new Recorded(micros, counts, sumNanos, count, maxNanos);
    }

    /**
     * The histogram {@code recorded} describes, which may come from another process and is checked: at most
     * {@link #MAX_BUCKETS} buckets, values from 0 to a day, positive counts adding up to the count.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static LatencyHistogram of(Recorded recorded) {
        LatencyHistogram result = new LatencyHistogram();
        if (recorded == null) {
            return result;
        }
        long[] micros = recorded.micros() == null ? new long[0] : recorded.micros();
        long[] counts = recorded.counts() == null ? new long[0] : recorded.counts();
        if (micros.length != counts.length || micros.length > MAX_BUCKETS) {
            throw new IllegalArgumentException("a histogram needs as many counts as values, at most " + MAX_BUCKETS);
        }
        long total = 0;
        for (int i = 0; i < micros.length; i++) {
            if (micros[i] < 0 || micros[i] > MAX_MICROS || counts[i] <= 0 || counts[i] > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("a histogram bucket holds " + counts[i] + " values of " + micros[i]
                        + " µs: values go from 0 to a day, counts from 1");
            }
            result.histogram.recordValueWithCount(micros[i], counts[i]);
            total += counts[i];
        }
        if (total != recorded.count() || !Double.isFinite(recorded.sumNanos()) || recorded.sumNanos() < 0) {
            throw new IllegalArgumentException("a histogram's buckets hold " + total + " values and it claims "
                    + recorded.count() + " (sum " + recorded.sumNanos() + " ns)");
        }
        if (total > 0 && (recorded.maxNanos() < 0 || recorded.maxNanos() / 1000 > MAX_MICROS)) {
            throw new IllegalArgumentException("a histogram's maximum " + recorded.maxNanos() + " ns is out of range");
        }
        result.sumNanos = recorded.sumNanos();
        result.count = total;
        result.maxNanos = total == 0 ? Long.MIN_VALUE : recorded.maxNanos();
        return result;
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
