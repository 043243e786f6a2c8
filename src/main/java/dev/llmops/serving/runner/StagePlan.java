package dev.llmops.serving.runner;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One measured stage of the plan: the single-request phase, a closed-loop concurrency level or an open-loop rate.
 *
 * @param name {@code single}, {@code c<N>} or {@code r<R>}
 * @param concurrency workers of a closed-loop level; 1 for the single phase; 0 for a rate
 * @param rate Poisson arrivals per second of an open-loop stage, else 0
 * @param requests requests to send, or 0 when the stage runs for {@code duration}
 * @param duration how long to keep sending, or null when the stage sends {@code requests}
 */
public record StagePlan(String name, Mode mode, int concurrency, double rate, int requests, Duration duration) {

    /** How a stage sends its requests. */
    public enum Mode {
        /** Each prompt alone, one after the other. */
        SINGLE,
        /** N workers, each sending its next request when the previous one finishes. */
        CLOSED_LOOP,
        /** Poisson arrivals on a fixed schedule, whatever the server's answers. */
        OPEN_LOOP
    }

    /** Seconds of arrivals an open-loop stage sends when neither a request count nor a duration is configured. */
    static final int DEFAULT_RATE_SECONDS = 30;

    /** The stages of a configuration, in the order they run. */
    public static List<StagePlan> of(BenchmarkConfig config) {
        List<StagePlan> stages = new ArrayList<>();
        if (config.singleRequests()) {
            stages.add(
                    new StagePlan("single", Mode.SINGLE, 1, 0, config.prompts().size(), null));
        }
        for (int level : config.concurrency()) {
            int requests = config.durationPerLevel() != null
                    ? 0
                    : config.requestsPerLevel() != null ? config.requestsPerLevel() : 4 * level;
            stages.add(new StagePlan("c" + level, Mode.CLOSED_LOOP, level, 0, requests, config.durationPerLevel()));
        }
        for (double rate : config.rates()) {
            int requests = config.durationPerLevel() != null
                    ? 0
                    : config.requestsPerLevel() != null
                            ? config.requestsPerLevel()
                            : (int) Math.max(8, Math.round(rate * DEFAULT_RATE_SECONDS));
            stages.add(new StagePlan(
                    "r" + BigDecimal.valueOf(rate).stripTrailingZeros().toPlainString(),
                    Mode.OPEN_LOOP,
                    0,
                    rate,
                    requests,
                    config.durationPerLevel()));
        }
        return stages;
    }
}
