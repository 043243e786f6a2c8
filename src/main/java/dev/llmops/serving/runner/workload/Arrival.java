package dev.llmops.serving.runner.workload;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** How the requests of an open-loop stage are spaced in time. */
public enum Arrival {
    /** Exponential inter-arrival times (a Poisson process), seeded. */
    POISSON,
    /** Exactly 1/R apart on the absolute schedule. */
    CONSTANT;

    /** The name on the command line and in the report: poisson or constant. */
    @JsonValue
    public String flagValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
