package dev.llmops.serving.runner.plan;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** What a capacity search varies: closed-loop streams or an open-loop request rate. */
public enum CapacityMode {
    CONCURRENCY,
    RATE;

    /** The name on the command line and in the report: concurrency or rate. */
    @JsonValue
    public String flagValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
