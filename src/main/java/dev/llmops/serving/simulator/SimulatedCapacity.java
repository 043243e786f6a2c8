package dev.llmops.serving.simulator;

import java.time.Duration;

/**
 * The true capacity of a simulator under a latency SLO, computed from its speed settings alone, so a capacity search
 * run against it can be checked against the answer.
 *
 * <p>The model is the simulator's: a request starts when a batch slot is free (at most {@code maxRunning} at once, FIFO
 * queue, 0 = no limit), its first token comes TTFT after the start (a prompt the prefix cache does not serve, such as
 * a random one), and each further token takes {@code tokenDelay ×
 * (1 + batchSlowdown × (b − 1))} with b the requests running (prefill or decode) when the token is scheduled. TPOT is
 * the runner's: (E2E − TTFT) / (output tokens − 1), which for one request is the mean of its per-token delays; TTFT
 * and E2E count from the request's arrival, so they include any wait for a slot. A limit of {@code null} does not
 * constrain; a limit is met when the value is at most the limit.
 *
 * <p><b>Closed loop of C streams</b> (each stream sends its next request as its previous one ends): all C requests are
 * in the server, so b = min(C, M) for every token and TPOT(C) = tokenDelay × (1 + s × (min(C, M) − 1)). Up to M
 * streams nobody waits: TTFT = ttft. Above M the slots stay in step: a slot that frees hands itself at once to the
 * head of the queue, so the M running requests end together every S = ttft + (n − 1) × TPOT(M) (one request's
 * service time, n output tokens) and requests move through the queue in waves of M. A request that ends rejoins the
 * queue behind the C − M waiting, so at position p in (C − M, C] it starts ⌈p / M⌉ − 1 waves later: the longest wait is
 * (⌈C / M⌉ − 1) × S, and TTFT(C) = ttft + (⌈C / M⌉ − 1) × S for the requests at the back (with C a multiple of M,
 * every request; otherwise a request waits ⌊C / M⌋ − 1 or ⌈C / M⌉ − 1 waves, mean (C − M) / M × S by
 * Little's law). So the highest C meeting a TTFT limit L ≥ ttft is M × (⌊(L − ttft) / S⌋ + 1).
 *
 * <p><b>Constant arrivals at rate λ</b>: in steady state every request spends the same E2E in the server and the
 * running batch is the number of arrivals in the last E2E; it never exceeds M (nobody queues, TTFT = ttft) as long as
 * λ × E2E ≤ M. Above that the queue grows without bound: no steady state, no rate there meets the SLO (whatever the
 * limits: the server no longer serves the rate). E2E solves the fixed point E2E = ttft + (n − 1) × tokenDelay × (1 +
 * s × (b̄ − 1)), where b̄ is the mean running batch over the request's own decode phase (itself included, the others
 * arriving every 1/λ and staying E2E): about λ × E2E, exactly λ × E2E + r(1 − r)/(λ × E2E) over the whole request
 * with r the fractional part of λ × E2E, and never below 1. When the fixed point does not exist (from about λ × (n − 1)
 * × tokenDelay × s ≥ 1 on, the slowdown outgrows the arrivals) there is no steady state either.
 */
public final class SimulatedCapacity {

    /** {@link #maxConcurrency} when no concurrency breaks the limits. */
    public static final int UNBOUNDED_CONCURRENCY = Integer.MAX_VALUE;

    private static final double TOLERANCE = 1e-9;
    private static final int BISECTION_STEPS = 200;
    private static final int RATE_DOUBLINGS = 64;
    /** A running batch beyond any server's: the latency has run away, there is no steady state. */
    private static final double RUNAWAY_BATCH = 1e6;

    private final double ttftMillis;
    private final double tokenDelayMillis;
    private final double batchSlowdown;
    private final int maxRunning;

    /** The simulator's settings: TTFT, token delay, batch slowdown and batch limit (0 = none). */
    public SimulatedCapacity(Duration ttft, Duration tokenDelay, double batchSlowdown, int maxRunning) {
        if (ttft.isNegative() || tokenDelay.isNegative()) {
            throw new IllegalArgumentException("ttft and tokenDelay must not be negative");
        }
        if (!(batchSlowdown >= 0 && Double.isFinite(batchSlowdown))) {
            throw new IllegalArgumentException(
                    "batchSlowdown must be a finite number of at least 0, was " + batchSlowdown);
        }
        if (maxRunning < 0) {
            throw new IllegalArgumentException("maxRunning must be at least 0, was " + maxRunning);
        }
        this.ttftMillis = ttft.toNanos() / 1e6;
        this.tokenDelayMillis = tokenDelay.toNanos() / 1e6;
        this.batchSlowdown = batchSlowdown;
        this.maxRunning = maxRunning;
    }

    /** Per-token delay with {@code batch} requests running: tokenDelay × (1 + s × (batch − 1)). */
    public double tpotMillis(int batch) {
        return tokenDelayMillis * (1 + batchSlowdown * (Math.max(1, batch) - 1));
    }

    /** TPOT every request of a closed loop of {@code concurrency} streams sees: that of batch min(C, maxRunning). */
    public double closedLoopTpotMillis(int concurrency) {
        return tpotMillis(runningBatch(concurrency));
    }

    /** The longest TTFT in a closed loop of {@code concurrency} streams: ttft + (⌈C / M⌉ − 1) × service time. */
    public double closedLoopTtftMillis(int concurrency, int outputTokens) {
        requireOutputTokens(outputTokens);
        if (maxRunning == 0 || concurrency <= maxRunning) {
            return ttftMillis;
        }
        long waves = (concurrency + (long) maxRunning - 1) / maxRunning - 1;
        return ttftMillis + waves * serviceMillis(outputTokens);
    }

    /**
     * The highest closed-loop concurrency whose every request meets the limits, {@link #UNBOUNDED_CONCURRENCY} when
     * none breaks them, 0 when a single stream already does. Above the batch limit a queued request's TTFT depends on
     * the output length: when the TTFT limit leaves that open this throws; use the form with output tokens.
     */
    public int maxConcurrency(Double tpotLimitMs, Double ttftLimitMs) {
        if (ttftLimitMs != null && ttftMillis > ttftLimitMs + TOLERANCE) {
            return 0;
        }
        int byTpot = maxConcurrencyByTpot(tpotLimitMs);
        if (ttftLimitMs == null || maxRunning == 0 || byTpot <= maxRunning) {
            return byTpot;
        }
        if (ttftLimitMs >= 2 * ttftMillis) {
            throw new IllegalArgumentException(
                    "with a TTFT limit of " + ttftLimitMs + " ms the capacity above the batch"
                            + " limit depends on the output length; use maxConcurrency(tpot, ttft, outputTokens)");
        }
        return maxRunning;
    }

    /** As {@link #maxConcurrency(Double, Double)}, for requests of {@code outputTokens} tokens. */
    public int maxConcurrency(Double tpotLimitMs, Double ttftLimitMs, int outputTokens) {
        requireOutputTokens(outputTokens);
        int byTpot = maxConcurrencyByTpot(tpotLimitMs);
        if (ttftLimitMs == null) {
            return byTpot;
        }
        if (ttftMillis > ttftLimitMs + TOLERANCE) {
            return 0;
        }
        double service = serviceMillis(outputTokens);
        if (maxRunning == 0 || service == 0) {
            return byTpot;
        }
        double waves = Math.floor((ttftLimitMs - ttftMillis) / service + TOLERANCE);
        double byTtft = (waves + 1) * maxRunning;
        return byTtft >= UNBOUNDED_CONCURRENCY ? byTpot : Math.min(byTpot, (int) byTtft);
    }

    /**
     * TPOT of every request in the steady state of constant arrivals at {@code ratePerSecond}, or +∞ when there is
     * none (the batch limit is exceeded, or the slowdown outgrows the arrivals).
     */
    public double constantRateTpotMillis(double ratePerSecond, int outputTokens) {
        if (outputTokens < 2) {
            throw new IllegalArgumentException("TPOT needs at least 2 output tokens, was " + outputTokens);
        }
        double e2e = steadyStateE2eMillis(ratePerSecond / 1000, outputTokens);
        return Double.isInfinite(e2e) ? e2e : (e2e - ttftMillis) / (outputTokens - 1);
    }

    /**
     * The highest constant arrival rate (requests per second) whose steady state meets the limits, +∞ when no rate
     * breaks them, 0 when even a trickle does. TTFT is ttft below the batch limit; a TPOT limit applies to requests of
     * two or more tokens.
     */
    public double maxConstantRate(Double tpotLimitMs, Double ttftLimitMs, int outputTokens) {
        requireOutputTokens(outputTokens);
        Double tpotLimit = outputTokens > 1 ? tpotLimitMs : null;
        if (ttftLimitMs != null && ttftMillis > ttftLimitMs + TOLERANCE) {
            return 0;
        }
        if (tpotLimit != null && tokenDelayMillis > tpotLimit + TOLERANCE) {
            return 0;
        }
        double lowest = ttftMillis + (outputTokens - 1) * tokenDelayMillis;
        if (lowest == 0) {
            return Double.POSITIVE_INFINITY;
        }
        double high;
        if (maxRunning > 0) {
            high = maxRunning / lowest * 1000;
        } else if (batchSlowdown == 0 || outputTokens == 1 || tokenDelayMillis == 0) {
            return Double.POSITIVE_INFINITY;
        } else {
            high = 1000 / lowest;
            for (int i = 0; meetsAtRate(high, tpotLimit, outputTokens); i++) {
                if (i == RATE_DOUBLINGS) {
                    return Double.POSITIVE_INFINITY;
                }
                high *= 2;
            }
        }
        double low = 0;
        for (int i = 0; i < BISECTION_STEPS && high - low > TOLERANCE * high; i++) {
            double middle = (low + high) / 2;
            if (meetsAtRate(middle, tpotLimit, outputTokens)) {
                low = middle;
            } else {
                high = middle;
            }
        }
        return low;
    }

    private boolean meetsAtRate(double ratePerSecond, Double tpotLimitMs, int outputTokens) {
        double e2e = steadyStateE2eMillis(ratePerSecond / 1000, outputTokens);
        return Double.isFinite(e2e)
                && (tpotLimitMs == null || (e2e - ttftMillis) / (outputTokens - 1) <= tpotLimitMs + TOLERANCE);
    }

    /**
     * The E2E that reproduces itself, E = ttft + (n − 1) × TPOT(b̄(E)), found by bisection above the unloaded E2E;
     * +∞ when it would hold more than the batch limit (or a run-away batch) at once.
     */
    private double steadyStateE2eMillis(double ratePerMilli, int outputTokens) {
        double low = ttftMillis + (outputTokens - 1) * tokenDelayMillis;
        double ceiling = (maxRunning > 0 ? maxRunning : RUNAWAY_BATCH) / ratePerMilli;
        if (excessMillis(ratePerMilli, low, outputTokens) <= 0) {
            return low > ceiling * (1 + TOLERANCE) ? Double.POSITIVE_INFINITY : low;
        }
        double high = low;
        do {
            if (high >= ceiling) {
                return Double.POSITIVE_INFINITY;
            }
            low = high;
            high = Math.min(2 * high, ceiling);
        } while (excessMillis(ratePerMilli, high, outputTokens) > 0);
        for (int i = 0; i < BISECTION_STEPS && high - low > TOLERANCE * high; i++) {
            double middle = (low + high) / 2;
            if (excessMillis(ratePerMilli, middle, outputTokens) > 0) {
                low = middle;
            } else {
                high = middle;
            }
        }
        return high;
    }

    /** How much longer than {@code e2e} a request takes when every request stays {@code e2e}. */
    private double excessMillis(double ratePerMilli, double e2e, int outputTokens) {
        double batch = meanDecodeBatch(ratePerMilli, e2e);
        return ttftMillis + (outputTokens - 1) * tokenDelayMillis * (1 + batchSlowdown * (batch - 1)) - e2e;
    }

    /**
     * Mean number of requests in the server over one request's decode phase [ttft, E) when each stays E and one
     * arrives every 1/λ (the request itself at 0): the number in the server at t is ⌊λt⌋ − ⌊λ(t − E)⌋, integrated in
     * closed form.
     */
    private double meanDecodeBatch(double ratePerMilli, double e2e) {
        double decode = e2e - ttftMillis;
        if (decode <= 0) {
            return 1;
        }
        double inServer = floorIntegral(ratePerMilli, e2e)
                - floorIntegral(ratePerMilli, ttftMillis)
                + floorIntegral(ratePerMilli, ttftMillis - e2e);
        return inServer / decode;
    }

    /** ∫₀ˣ ⌊λt⌋ dt, for x of either sign. */
    private static double floorIntegral(double rate, double x) {
        double steps = Math.floor(rate * x);
        return steps * (steps - 1) / 2 / rate + steps * (x - steps / rate);
    }

    private int maxConcurrencyByTpot(Double tpotLimitMs) {
        if (tpotLimitMs == null) {
            return UNBOUNDED_CONCURRENCY;
        }
        if (tpotMillis(1) > tpotLimitMs + TOLERANCE) {
            return 0;
        }
        if (batchSlowdown == 0 || tokenDelayMillis == 0) {
            return UNBOUNDED_CONCURRENCY;
        }
        double batches = Math.floor(1 + (tpotLimitMs / tokenDelayMillis - 1) / batchSlowdown + TOLERANCE);
        if (maxRunning > 0 && batches >= maxRunning) {
            return UNBOUNDED_CONCURRENCY;
        }
        return batches >= UNBOUNDED_CONCURRENCY ? UNBOUNDED_CONCURRENCY : (int) batches;
    }

    private int runningBatch(int concurrency) {
        return maxRunning == 0 ? concurrency : Math.min(concurrency, maxRunning);
    }

    private double serviceMillis(int outputTokens) {
        return ttftMillis + (outputTokens - 1) * tpotMillis(Math.max(1, maxRunning));
    }

    private static void requireOutputTokens(int outputTokens) {
        if (outputTokens < 1) {
            throw new IllegalArgumentException("outputTokens must be at least 1, was " + outputTokens);
        }
    }
}
