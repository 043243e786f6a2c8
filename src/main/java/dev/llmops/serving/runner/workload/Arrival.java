package dev.llmops.serving.runner.workload;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** How the requests of an open-loop stage are spaced in time. */
public enum Arrival {
    /** Exponential inter-arrival times (a Poisson process), seeded. */
    POISSON,
    /** Exactly 1/R apart on the absolute schedule. */
    CONSTANT,
    /** At a trace's timestamps, divided by the replay's speed: set by a trace dataset, not on its own. */
    TRACE;

    /** The name on the command line and in the report: poisson, constant or trace. */
    @JsonValue
    public String flagValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
