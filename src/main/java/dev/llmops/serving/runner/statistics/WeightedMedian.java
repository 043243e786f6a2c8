package dev.llmops.serving.runner.statistics;

import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * The nearest-rank median of a column under per-entry multiplicities, as a bootstrap resample gives them: the column
 * is sorted once, and each median is one walk over that order, without copying or sorting per resample.
 */
final class WeightedMedian {

    private final double[] values;
    private final boolean[] defined;
    private int[] order = new int[0];

    WeightedMedian(int size) {
        values = new double[size];
        defined = new boolean[size];
    }

    /** Entry j's value; an undefined entry (a TPOT of a one-token output) never counts. */
    void set(int j, double value, boolean isDefined) {
        values[j] = value;
        defined[j] = isDefined && Double.isFinite(value);
    }

    /** Fixes the order of the defined entries; call after the last {@link #set}. */
    void sort() {
        order = IntStream.range(0, values.length)
                .filter(j -> defined[j])
                .boxed()
                .sorted(Comparator.comparingDouble(j -> values[j]))
                .mapToInt(Integer::intValue)
                .toArray();
    }

    int defined() {
        return order.length;
    }

    /** The smallest value whose cumulative weight reaches half the total weight; NaN when no weight is defined. */
    double median(int[] weights) {
        long total = 0;
        for (int j : order) {
            total += weights[j];
        }
        if (total == 0) {
            return Double.NaN;
        }
        long rank = (total + 1) / 2;
        long cumulative = 0;
        for (int j : order) {
            cumulative += weights[j];
            if (cumulative >= rank) {
                return values[j];
            }
        }
        return values[order[order.length - 1]];
    }
}
