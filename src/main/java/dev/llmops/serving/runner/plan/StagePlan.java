package dev.llmops.serving.runner.plan;

import dev.llmops.serving.api.contract.RunPlan;
import dev.llmops.serving.api.contract.RunPlan.Mode;
import dev.llmops.serving.runner.workload.Arrival;
import dev.llmops.serving.runner.workload.TraceReplay;
import java.time.Duration;
import java.util.List;

/**
 * One measured stage of the plan: a stage of the contract's {@link RunPlan} with what the runner needs besides to send
 * its requests.
 *
 * @param name {@code single}, {@code c<N>}, {@code r<R>}, {@code t<S>x}, {@code probe<K>-c<N>} or
 *     {@code probe<K>-r<R>}
 * @param concurrency workers of a closed-loop level; 1 for the single phase; 0 for a rate or a trace
 * @param rate arrivals per second of an open-loop stage (a trace's mean rate over its window, at its speed), else 0
 * @param requests requests to send, or 0 when the stage runs for {@code duration}
 * @param duration how long to keep sending, or null when the stage sends {@code requests}
 * @param arrival how an open-loop stage spaces its requests, else null
 * @param maxInFlight at most this many requests of an open-loop stage in flight, or 0 for no cap
 * @param traceSpeed the speed a trace is replayed at, else 0
 */
public record StagePlan(
        String name,
        Mode mode,
        int concurrency,
        double rate,
        int requests,
        Duration duration,
        Arrival arrival,
        int maxInFlight,
        double traceSpeed) {

    /** The stages of a configuration before any capacity search, in the order they run. */
    public static List<StagePlan> of(BenchmarkConfig config) {
        return config.plan().stages().stream().map(stage -> of(stage, config)).toList();
    }

    /** Probe {@code k} (from 1) of a capacity search at {@code load} streams or requests/s: {@link RunPlan#probe}. */
    public static StagePlan probe(BenchmarkConfig config, int k, double load) {
        return of(config.plan().probe(config.findCapacity(), config.slo().attainment(), k, load), config);
    }

    private static StagePlan of(RunPlan.Stage stage, BenchmarkConfig config) {
        int maxInFlight = config.maxConcurrency() != null ? config.maxConcurrency() : 0;
        if (stage.traceSpeed() != null) {
            double speed = stage.traceSpeed();
            TraceReplay replay = config.trace();
            return new StagePlan(
                    stage.name(),
                    stage.mode(),
                    0,
                    replay.rate(speed),
                    replay.requests().size(),
                    null,
                    Arrival.TRACE,
                    maxInFlight,
                    speed);
        }
        boolean openLoop = stage.mode() == Mode.OPEN_LOOP;
        return new StagePlan(
                stage.name(),
                stage.mode(),
                stage.concurrency(),
                stage.rate(),
                stage.requests(),
                stage.duration(),
                openLoop ? config.arrival() : null,
                openLoop ? maxInFlight : 0,
                0);
    }
}
