package dev.llmops.serving.report;

import java.util.Locale;

/** How figures read in tables: one decimal for token rates and latencies, two for request rates, two for speedups, a dash when not measured. */
final class Format {

    static final String MISSING = "—";

    private Format() {
    }

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
}
