package dev.llmops.serving.report;

import dev.llmops.serving.api.contract.PeakRule;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.ConfidenceInterval;
import java.util.Locale;

/**
 * How figures and outside text read in reports: one decimal for token rates and latencies, two for request rates, two
 * for speedups, a dash when not measured, and text cut short when it is too long to read.
 */
final class Format {

    static final String MISSING = "—";

    /** Longest outside text (a condition message, a warning, a prompt) shown whole; a log excerpt can be far longer. */
    static final int MAX_TEXT = 1000;

    private Format() {}

    static String number(Double value) {
        return value == null ? MISSING : String.format(Locale.ROOT, "%.1f", value);
    }

    static String hundredths(Double value) {
        return value == null ? MISSING : String.format(Locale.ROOT, "%.2f", value);
    }

    static String integer(Integer value) {
        return value == null ? MISSING : value.toString();
    }

    static String speedup(Double value) {
        return value == null ? MISSING : String.format(Locale.ROOT, "%.2f×", value);
    }

    /** A share as a percentage with one decimal. */
    static String share(Double value) {
        return value == null ? MISSING : String.format(Locale.ROOT, "%.1f %%", value * 100);
    }

    /** A speedup's interval as "low–high", two decimals each. */
    static String interval(ConfidenceInterval interval) {
        if (interval == null || interval.low == null || interval.high == null) {
            return MISSING;
        }
        return String.format(Locale.ROOT, "%.2f–%.2f", interval.low, interval.high);
    }

    /** The text, a dash when there is none. */
    static String orMissing(String text) {
        return text == null || text.isBlank() ? MISSING : text;
    }

    /** The text up to {@link #MAX_TEXT} characters, then how much was left out; never splits a surrogate pair. */
    static String bounded(String text) {
        if (text == null || text.length() <= MAX_TEXT) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(MAX_TEXT - 1)) ? MAX_TEXT - 1 : MAX_TEXT;
        return text.substring(0, end) + "… (" + (text.length() - end) + " more characters)";
    }

    /** " (within the SLO)", " (saturation knee)", " (highest throughput)": which rule chose the peak; "" if unknown. */
    static String peakRule(PeakRule rule) {
        if (rule == null) {
            return "";
        }
        return switch (rule) {
            case WithinSlo -> " (within the SLO)";
            case Knee -> " (saturation knee)";
            case HighestThroughput -> " (highest throughput)";
        };
    }
}
