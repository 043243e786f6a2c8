package dev.llmops.serving.runner.plan;

import dev.llmops.serving.runner.workload.Arrival;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One measured stage of the plan: the single-request phase, a closed-loop concurrency level, an open-loop rate or a
 * probe of the capacity search.
 *
 * @param name {@code single}, {@code c<N>}, {@code r<R>}, {@code probe<K>-c<N>} or {@code probe<K>-r<R>}
 * @param concurrency workers of a closed-loop level; 1 for the single phase; 0 for a rate
 * @param rate arrivals per second of an open-loop stage, else 0
 * @param requests requests to send, or 0 when the stage runs for {@code duration}
 * @param duration how long to keep sending, or null when the stage sends {@code requests}
 * @param arrival how an open-loop stage spaces its requests, else null
 * @param maxInFlight at most this many requests of an open-loop stage in flight, or 0 for no cap
 */
public record StagePlan(
        String name,
        Mode mode,
        int concurrency,
        double rate,
        int requests,
        Duration duration,
        Arrival arrival,
        int maxInFlight) {

    /** How a stage sends its requests. */
    public enum Mode {
        /** Each prompt alone, one after the other. */
        SINGLE,
        /** N workers, each sending its next request when the previous one finishes. */
        CLOSED_LOOP,
        /** Arrivals on a fixed schedule, whatever the server's answers. */
        OPEN_LOOP
    }

    /** Seconds of arrivals an open-loop stage sends when neither a request count nor a duration is configured. */
    static final int DEFAULT_RATE_SECONDS = 30;

    /** Fewest requests of a capacity probe without a configured count or duration: its percentiles need them. */
    static final int MIN_PROBE_REQUESTS = 100;

    /** Most requests of a capacity probe without a configured count or duration, however strict the attainment. */
    static final int MAX_PROBE_REQUESTS = 2000;

    /** The stages of a configuration before any capacity search, in the order they run. */
    public static List<StagePlan> of(BenchmarkConfig config) {
        List<StagePlan> stages = new ArrayList<>();
        if (config.singleRequests()) {
            stages.add(
                    new StagePlan("single", Mode.SINGLE, 1, 0, config.prompts().size(), null, null, 0));
        }
        for (int level : config.concurrency()) {
            stages.add(closedLoop("c" + level, level, config, 4 * level));
        }
        for (double rate : config.rates()) {
            stages.add(openLoop(
                    "r" + number(rate), rate, config, (int) Math.max(8, Math.round(rate * DEFAULT_RATE_SECONDS))));
        }
        return stages;
    }

    /**
     * Probe {@code k} (from 1) of a capacity search at {@code load} streams or requests/s. Without a configured count
     * or duration it sends max({@value #MIN_PROBE_REQUESTS}, 10 / (1 − attainment), 4 × streams) requests, at most
     * {@value #MAX_PROBE_REQUESTS}: at attainment A, 10 / (1 − A) requests hold ten allowed misses, so one late
     * request more or less does not decide the verdict.
     */
    public static StagePlan probe(BenchmarkConfig config, int k, double load) {
        double allowedMisses = 1 - config.slo().attainment();
        int forAttainment = allowedMisses > 0 ? (int) Math.ceil(10 / allowedMisses) : MAX_PROBE_REQUESTS;
        int requests = Math.min(MAX_PROBE_REQUESTS, Math.max(MIN_PROBE_REQUESTS, forAttainment));
        if (config.findCapacity() == CapacityMode.CONCURRENCY) {
            int streams = (int) load;
            return closedLoop("probe" + k + "-c" + streams, streams, config, Math.max(requests, 4 * streams));
        }
        return openLoop("probe" + k + "-r" + number(load), load, config, requests);
    }

    /** A rate as stage names show it: 7.5, 12, 0.25. */
    public static String number(double rate) {
        return BigDecimal.valueOf(rate).stripTrailingZeros().toPlainString();
    }

    private static StagePlan closedLoop(String name, int level, BenchmarkConfig config, int defaultRequests) {
        return new StagePlan(
                name,
                Mode.CLOSED_LOOP,
                level,
                0,
                requests(config, defaultRequests),
                config.durationPerLevel(),
                null,
                0);
    }

    private static StagePlan openLoop(String name, double rate, BenchmarkConfig config, int defaultRequests) {
        return new StagePlan(
                name,
                Mode.OPEN_LOOP,
                0,
                rate,
                requests(config, defaultRequests),
                config.durationPerLevel(),
                config.arrival(),
                config.maxConcurrency() == null ? 0 : config.maxConcurrency());
    }

    private static int requests(BenchmarkConfig config, int defaultRequests) {
        if (config.durationPerLevel() != null) {
            return 0;
        }
        return config.requestsPerLevel() != null ? config.requestsPerLevel() : defaultRequests;
    }
}
