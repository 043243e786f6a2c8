package dev.llmops.serving.api.contract;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * What a capacity search raises: concurrent streams (closed loop) or the request rate (open loop). The constants are
 * the BenchmarkRun's words; {@link #text()} is the runner's, on its command line, in its summary and its report.
 */
public enum CapacityMode {
    Concurrency,
    Rate;

    /** {@code concurrency} or {@code rate}. */
    public String text() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The mode a runner's {@link #text()} names, or empty. */
    public static Optional<CapacityMode> fromText(String text) {
        return Arrays.stream(values()).filter(mode -> mode.text().equals(text)).findFirst();
    }
}
