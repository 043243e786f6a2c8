package dev.llmops.serving.operator.benchmark;

/** The runner's summary is missing, cut off or malformed; the message says which, in words for the run's status. */
public class InvalidSummaryException extends Exception {
    public InvalidSummaryException(String message) {
        super(message);
    }
}
