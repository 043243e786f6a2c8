package dev.llmops.serving.runner.workload;

import dev.llmops.serving.runner.plan.StagePlan;
import java.util.Random;

/**
 * The intended send times of an open-loop stage, as offsets from its start: each one computed from the start rather
 * than from the previous send, so a late send never shifts the ones after it. A trace's replay has no more arrivals
 * than its window has requests: past the last, the schedule repeats the last one's time, so the stage ends with it.
 */
public final class ArrivalSchedule {

    private final Arrival arrival;
    private final double rate;
    private final Random random;
    private final TraceReplay trace;
    private final double traceSpeed;
    private long index;
    private double poissonSeconds;

    private ArrivalSchedule(Arrival arrival, double rate, long seed, TraceReplay trace, double traceSpeed) {
        this.arrival = arrival;
        this.rate = rate;
        this.random = new Random(seed);
        this.trace = trace;
        this.traceSpeed = traceSpeed;
    }

    /**
     * The schedule of a stage; its Poisson draws are a pure function of the run's seed and the stage's name, a
     * replay's arrivals those of {@code trace}'s window at the stage's speed.
     */
    public static ArrivalSchedule of(StagePlan stage, long seed, TraceReplay trace) {
        if (stage.arrival() == Arrival.TRACE && trace == null) {
            throw new IllegalArgumentException("stage " + stage.name() + " replays a trace, and none was given");
        }
        return new ArrivalSchedule(
                stage.arrival(), stage.rate(), seed * 31 + stage.name().hashCode(), trace, stage.traceSpeed());
    }

    public static ArrivalSchedule of(Arrival arrival, double rate, long seed) {
        return new ArrivalSchedule(arrival, rate, seed, null, 0);
    }

    /** Nanoseconds from the stage's start to the next request's intended send; the first is 0 unless replaying. */
    public long nextOffsetNanos() {
        long k = index++;
        if (arrival == Arrival.TRACE) {
            return trace.offsetNanos((int) Math.min(k, trace.requests().size() - 1), traceSpeed);
        }
        if (arrival == Arrival.CONSTANT) {
            return Math.round(k * 1e9 / rate);
        }
        if (k > 0) {
            poissonSeconds += -Math.log(1 - random.nextDouble()) / rate;
        }
        return Math.round(poissonSeconds * 1e9);
    }
}
