package dev.llmops.serving.runner.workload;

import dev.llmops.serving.runner.plan.StagePlan;
import java.util.Random;

/**
 * The intended send times of an open-loop stage, as offsets from its start: each one computed from the start rather
 * than from the previous send, so a late send never shifts the ones after it.
 */
public final class ArrivalSchedule {

    private final Arrival arrival;
    private final double rate;
    private final Random random;
    private long index;
    private double poissonSeconds;

    private ArrivalSchedule(Arrival arrival, double rate, long seed) {
        this.arrival = arrival;
        this.rate = rate;
        this.random = new Random(seed);
    }

    /** The schedule of a stage; its Poisson draws are a pure function of the run's seed and the stage's name. */
    public static ArrivalSchedule of(StagePlan stage, long seed) {
        return new ArrivalSchedule(
                stage.arrival(), stage.rate(), seed * 31 + stage.name().hashCode());
    }

    public static ArrivalSchedule of(Arrival arrival, double rate, long seed) {
        return new ArrivalSchedule(arrival, rate, seed);
    }

    /** Nanoseconds from the stage's start to the next request's intended send; the first is 0. */
    public long nextOffsetNanos() {
        long k = index++;
        if (arrival == Arrival.CONSTANT) {
            return Math.round(k * 1e9 / rate);
        }
        if (k > 0) {
            poissonSeconds += -Math.log(1 - random.nextDouble()) / rate;
        }
        return Math.round(poissonSeconds * 1e9);
    }
}
