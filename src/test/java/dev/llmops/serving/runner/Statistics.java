package dev.llmops.serving.runner;

import java.util.Arrays;

/** Goodness-of-fit helpers for tests of arrival times. */
public final class Statistics {

    private Statistics() {}

    /** Kolmogorov–Smirnov distance between the samples' empirical CDF and the exponential CDF of {@code rate}. */
    public static double ksDistanceFromExponential(double[] samples, double rate) {
        double[] sorted = samples.clone();
        Arrays.sort(sorted);
        double distance = 0;
        for (int i = 0; i < sorted.length; i++) {
            double cdf = 1 - Math.exp(-rate * sorted[i]);
            distance = Math.max(distance, Math.max((i + 1.0) / sorted.length - cdf, cdf - (double) i / sorted.length));
        }
        return distance;
    }

    /** The KS critical value at a significance level of 1 %. */
    public static double ksCriticalValue(int samples) {
        return 1.628 / Math.sqrt(samples);
    }
}
