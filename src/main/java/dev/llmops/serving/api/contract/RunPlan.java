package dev.llmops.serving.api.contract;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The stages a benchmark run measures, computed once from the values of the runner's flags: the runner executes them
 * and the operator bounds the benchmark Job's deadline by them, so both count the same requests per level.
 *
 * @param singleRequests prompts of the single-request phase, each sent alone; 0 for no such phase
 * @param concurrency closed-loop levels, run in this order
 * @param rates open-loop arrival rates in requests per second, run after the levels
 * @param requestsPerLevel requests per level; null means {@value #REQUESTS_PER_STREAM} × concurrency (closed loop) or
 *     {@value #RATE_SECONDS} s of arrivals, at least {@value #MIN_RATE_REQUESTS} (open loop)
 * @param durationPerLevel instead of a request count: send for this long, then await what is in flight; or null
 * @param traceSpeeds the speeds a trace is replayed at, one stage each, run after the rates; empty without a trace
 * @param traceSpan the length of the trace's window in trace time, or null when only the trace itself tells it
 */
public record RunPlan(
        int singleRequests,
        List<Integer> concurrency,
        List<Double> rates,
        Integer requestsPerLevel,
        Duration durationPerLevel,
        List<Double> traceSpeeds,
        Duration traceSpan) {

    /** Requests each stream of a closed-loop level sends when neither a count nor a duration is configured. */
    public static final int REQUESTS_PER_STREAM = 4;

    /** Seconds of arrivals an open-loop stage sends when neither a count nor a duration is configured. */
    public static final int RATE_SECONDS = 30;

    /** Fewest requests of an open-loop stage without a configured count or duration. */
    public static final int MIN_RATE_REQUESTS = 8;

    /** Fewest requests of a capacity probe without a configured count or duration: its percentiles need them. */
    public static final int MIN_PROBE_REQUESTS = 100;

    /** Most requests of a capacity probe without a configured count or duration, however strict the attainment. */
    public static final int MAX_PROBE_REQUESTS = 2000;

    /** The name of the single-request stage. */
    public static final String SINGLE_STAGE = "single";

    /** Begins the name of every stage of a capacity search. */
    public static final String PROBE_PREFIX = "probe";

    /** How a stage sends its requests. */
    public enum Mode {
        /** Each prompt alone, one after the other. */
        SINGLE,
        /** N workers, each sending its next request when the previous one finishes. */
        CLOSED_LOOP,
        /** Arrivals on a fixed schedule, whatever the server's answers; a trace's replay is one. */
        OPEN_LOOP
    }

    /**
     * One stage of the plan.
     *
     * @param name {@code single}, {@code c<N>}, {@code r<R>}, {@code t<S>x}, {@code probe<K>-c<N>} or
     *     {@code probe<K>-r<R>}
     * @param concurrency workers of a closed-loop level; 1 for the single phase; 0 for a rate or a trace
     * @param rate arrivals per second of an open-loop stage; 0 for a trace's replay, whose rate is the trace's
     * @param requests requests to send, or 0 when the stage runs for {@code duration} or replays a trace's window
     * @param duration how long to keep sending, or null when the stage sends {@code requests}; for a replay, the
     *     window's span at its speed, null when only the trace tells it
     * @param traceSpeed the speed of a trace's replay, else null
     */
    public record Stage(
            String name, Mode mode, int concurrency, double rate, int requests, Duration duration, Double traceSpeed) {}

    public RunPlan {
        concurrency = List.copyOf(concurrency);
        rates = List.copyOf(rates);
        traceSpeeds = List.copyOf(traceSpeeds);
    }

    /** The name of the stage replaying a trace at {@code speed}: {@code t1x}, {@code t2.5x}. */
    public static String traceStageName(double speed) {
        return "t" + PlainNumber.text(speed) + "x";
    }

    /**
     * The closed-loop levels a sweep runs: the given ones; when neither levels nor rates are given, the default levels
     * {@link BenchmarkDefaults#CONCURRENCY}, so that a rate sweep does not get closed-loop levels too.
     */
    public static List<Integer> concurrencyLevels(List<Integer> given, List<Double> rates) {
        if (given != null) {
            return given;
        }
        return rates == null ? BenchmarkDefaults.CONCURRENCY : List.of();
    }

    /** Whether a stage of this name is a probe of a capacity search. */
    public static boolean isProbe(String stageName) {
        return stageName.startsWith(PROBE_PREFIX);
    }

    /** The stages before any capacity search, in the order they run. */
    public List<Stage> stages() {
        List<Stage> stages = new ArrayList<>();
        if (singleRequests > 0) {
            stages.add(new Stage(SINGLE_STAGE, Mode.SINGLE, 1, 0, singleRequests, null, null));
        }
        for (int level : concurrency) {
            stages.add(closedLoop("c" + level, level, REQUESTS_PER_STREAM * level));
        }
        for (double rate : rates) {
            stages.add(openLoop("r" + PlainNumber.text(rate), rate, (int)
                    Math.max(MIN_RATE_REQUESTS, Math.round(rate * RATE_SECONDS))));
        }
        for (double speed : traceSpeeds) {
            Duration atSpeed = traceSpan == null ? null : Duration.ofNanos(Math.round(traceSpan.toNanos() / speed));
            stages.add(new Stage(traceStageName(speed), Mode.OPEN_LOOP, 0, 0, 0, atSpeed, speed));
        }
        return stages;
    }

    /**
     * Probe {@code k} (from 1) of a capacity search at {@code load} streams or requests/s. Without a configured count
     * or duration it sends max({@value #MIN_PROBE_REQUESTS}, 10 / (1 − attainment),
     * {@value #REQUESTS_PER_STREAM} × streams) requests, at most {@value #MAX_PROBE_REQUESTS}: at attainment A,
     * 10 / (1 − A) requests hold ten allowed misses, so one late request more or less does not decide the verdict.
     */
    public Stage probe(CapacityMode mode, double attainment, int k, double load) {
        double allowedMisses = 1 - attainment;
        int forAttainment = allowedMisses > 0 ? (int) Math.ceil(10 / allowedMisses) : MAX_PROBE_REQUESTS;
        int requests = Math.min(MAX_PROBE_REQUESTS, Math.max(MIN_PROBE_REQUESTS, forAttainment));
        if (mode == CapacityMode.Concurrency) {
            int streams = (int) load;
            return closedLoop(
                    PROBE_PREFIX + k + "-c" + streams, streams, Math.max(requests, REQUESTS_PER_STREAM * streams));
        }
        return openLoop(PROBE_PREFIX + k + "-r" + PlainNumber.text(load), load, requests);
    }

    private Stage closedLoop(String name, int level, int defaultRequests) {
        return new Stage(name, Mode.CLOSED_LOOP, level, 0, requests(defaultRequests), durationPerLevel, null);
    }

    private Stage openLoop(String name, double rate, int defaultRequests) {
        return new Stage(name, Mode.OPEN_LOOP, 0, rate, requests(defaultRequests), durationPerLevel, null);
    }

    private int requests(int defaultRequests) {
        if (durationPerLevel != null) {
            return 0;
        }
        return requestsPerLevel != null ? requestsPerLevel : defaultRequests;
    }
}
