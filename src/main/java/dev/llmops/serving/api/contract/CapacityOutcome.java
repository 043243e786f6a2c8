package dev.llmops.serving.api.contract;

import java.util.Arrays;
import java.util.Optional;

/**
 * How a capacity search ended. The constants are the BenchmarkRun status's words; {@link #text()} is the runner's, in
 * its summary and its report.
 */
public enum CapacityOutcome {
    Found("found"),
    BudgetExhausted("budget-exhausted"),
    NeverMet("never-met");

    private final String text;

    CapacityOutcome(String text) {
        this.text = text;
    }

    public String text() {
        return text;
    }

    /** The outcome a runner's {@link #text()} names, or empty. */
    public static Optional<CapacityOutcome> fromText(String text) {
        return Arrays.stream(values())
                .filter(outcome -> outcome.text.equals(text))
                .findFirst();
    }
}
