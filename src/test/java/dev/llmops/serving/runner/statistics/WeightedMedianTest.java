package dev.llmops.serving.runner.statistics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The nearest-rank median under a resample's multiplicities, with undefined entries left out. */
class WeightedMedianTest {

    @Test
    void theMedianOfTheDefinedEntriesOnly() {
        WeightedMedian median = new WeightedMedian(4);
        median.set(0, 0, false);
        median.set(1, 5, true);
        median.set(2, 6, true);
        median.set(3, 7, true);
        median.sort();

        assertThat(median.defined()).isEqualTo(3);
        assertThat(median.median(new int[] {1, 1, 1, 1})).isEqualTo(6);
    }

    @Test
    void anEntryDrawnSeveralTimesWeighsAsOften() {
        WeightedMedian median = new WeightedMedian(3);
        median.set(0, 1, true);
        median.set(1, 2, true);
        median.set(2, 3, true);
        median.sort();

        assertThat(median.median(new int[] {0, 0, 5})).isEqualTo(3);
        assertThat(median.median(new int[] {3, 1, 1})).isEqualTo(1);
    }

    @Test
    void aValueThatIsNotFiniteIsUndefined() {
        WeightedMedian median = new WeightedMedian(2);
        median.set(0, Double.NaN, true);
        median.set(1, 2, true);
        median.sort();

        assertThat(median.defined()).isEqualTo(1);
        assertThat(median.median(new int[] {5, 1})).isEqualTo(2);
    }

    @Test
    void noWeightNoMedian() {
        WeightedMedian median = new WeightedMedian(2);
        median.set(0, 1, true);
        median.set(1, 2, false);
        median.sort();

        assertThat(median.median(new int[] {0, 7})).isNaN();
    }
}
