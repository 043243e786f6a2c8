package dev.llmops.serving.runner.statistics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Percentiles within the histogram's 0.1 % of the true ones; mean and maximum exact, in milliseconds. */
class LatencyHistogramTest {

    private static final long MILLISECOND = 1_000_000;

    @Test
    void oneToAHundredMillisecondsGiveTheirPercentilesMeanAndMaximum() {
        LatencyHistogram histogram = new LatencyHistogram();
        for (int ms = 1; ms <= 100; ms++) {
            histogram.record(ms * MILLISECOND);
        }

        LatencySummary summary = histogram.summary();

        assertThat(histogram.count()).isEqualTo(100);
        assertThat(summary.mean()).isEqualTo(50.5);
        assertThat(summary.median()).isCloseTo(50, within(0.05));
        assertThat(summary.p90()).isCloseTo(90, within(0.09));
        assertThat(summary.p99()).isCloseTo(99, within(0.1));
        assertThat(summary.max()).isEqualTo(100);
    }

    @Test
    void aValueRecordedSeveralTimesWeighsAsOftenInTheMeanAndThePercentiles() {
        LatencyHistogram histogram = new LatencyHistogram();
        histogram.record(10 * MILLISECOND, 3);
        histogram.record(40 * MILLISECOND);

        LatencySummary summary = histogram.summary();

        assertThat(histogram.count()).isEqualTo(4);
        assertThat(summary.mean()).isEqualTo(17.5);
        assertThat(summary.median()).isCloseTo(10, within(0.01));
        assertThat(summary.max()).isEqualTo(40);
    }

    @Test
    void aPercentileNeverExceedsTheExactMaximum() {
        LatencyHistogram histogram = new LatencyHistogram();
        histogram.record(1_234_567);

        LatencySummary summary = histogram.summary();

        assertThat(summary.max()).isEqualTo(1.234567);
        assertThat(summary.p99()).isLessThanOrEqualTo(1.234567).isCloseTo(1.234567, within(0.002));
        assertThat(summary.mean()).isEqualTo(1.234567);
    }

    @Test
    void aNegativeDurationCountsAsZero() {
        LatencyHistogram histogram = new LatencyHistogram();
        histogram.record(-5 * MILLISECOND);
        histogram.record(4 * MILLISECOND);

        assertThat(histogram.summary().mean()).isEqualTo(2);
        assertThat(histogram.summary().max()).isEqualTo(4);
    }

    @Test
    void nothingRecordedHasNoSummary() {
        assertThat(new LatencyHistogram().summary()).isNull();
    }
}
