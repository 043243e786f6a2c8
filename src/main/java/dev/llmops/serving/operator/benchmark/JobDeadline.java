package dev.llmops.serving.operator.benchmark;

import dev.llmops.serving.api.contract.BenchmarkDefaults;
import dev.llmops.serving.api.contract.RunPlan;
import dev.llmops.serving.api.contract.RunnerFlags;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.TraceSpec;
import java.time.Duration;
import java.util.List;

/**
 * The benchmark Job's activeDeadlineSeconds: the longest the runner's plan can take if every request runs into its
 * timeout T. The stages are the contract's {@link RunPlan} of the spec, the plan the runner executes.
 *
 * <pre>
 * deadline = START + T × (warm-up requests + quality prompts)
 *          + Σ over closed-loop stages (the single-request phase at 1 stream, each level at c):
 *                 (T + P) × ⌈requests / c⌉     (each of c workers sends its share, one after the other; P, with
 *                                               sessions, is the longest pause before a turn: the mean think time
 *                                               × {@value RunnerFlags#MAX_THINK_TIME_MEANS}, else 0)
 *              or duration + T                 (duration set: requests in flight at the end are awaited)
 *          + Σ over rates r:  requests / r + T  or  duration + T
 *          + Σ over a trace's speeds s:  (toSeconds − fromSeconds) / s + T, or the cap without toSeconds
 *          + maxSearchSeconds + T × {@value RunPlan#REQUESTS_PER_STREAM}   (capacity search: its time budget and the
 *                                                                           last probe's stragglers)
 * </pre>
 *
 * START ({@value #START_ALLOWANCE_SECONDS} s) covers image pull and start-up; the result is capped at
 * {@value #MAX_SECONDS} s (7 days), past which a benchmark is not worth waiting for.
 */
public final class JobDeadline {

    public static final long START_ALLOWANCE_SECONDS = 600;
    static final long MAX_SECONDS = 7L * 24 * 3600;

    private JobDeadline() {}

    public static long seconds(BenchmarkRunSpec spec) {
        long timeout = spec.requestTimeoutSeconds;
        long seconds = START_ALLOWANCE_SECONDS + timeout * (spec.warmup.requests + qualityPrompts(spec));
        long pause = spec.dataset.sessions == null || spec.dataset.sessions.thinkTimeSeconds == null
                ? 0
                : (long) Math.ceil(spec.dataset.sessions.thinkTimeSeconds * RunnerFlags.MAX_THINK_TIME_MEANS);
        for (RunPlan.Stage stage : plan(spec).stages()) {
            seconds += longest(stage, timeout, stage.mode() == RunPlan.Mode.CLOSED_LOOP ? pause : 0);
        }
        if (spec.capacity != null) {
            seconds += spec.capacity.maxSearchSeconds + timeout * RunPlan.REQUESTS_PER_STREAM;
        }
        return Math.min(seconds, MAX_SECONDS);
    }

    /** The plan the runner makes of the flags {@link RunnerArguments} writes for this spec. */
    private static RunPlan plan(BenchmarkRunSpec spec) {
        Integer duration = spec.sweep.durationSecondsPerLevel;
        TraceSpec trace = spec.dataset.trace;
        return new RunPlan(
                spec.singleRequest.prompts.size(),
                SweepLevels.concurrency(spec),
                SweepLevels.rates(spec),
                spec.sweep.requestsPerLevel,
                duration == null ? null : Duration.ofSeconds(duration),
                trace == null ? List.of() : RunnerArguments.traceSpeeds(trace),
                trace == null || trace.toSeconds == null ? null : traceSpan(trace));
    }

    private static Duration traceSpan(TraceSpec trace) {
        double from = trace.fromSeconds == null ? 0 : trace.fromSeconds;
        return Duration.ofMillis((long) Math.ceil((trace.toSeconds - from) * 1000));
    }

    private static long longest(RunPlan.Stage stage, long timeout, long pause) {
        if (stage.duration() != null) {
            return stage.duration().toSeconds() + timeout;
        }
        if (stage.traceSpeed() != null) {
            return MAX_SECONDS;
        }
        if (stage.mode() == RunPlan.Mode.OPEN_LOOP) {
            return (long) Math.ceil(stage.requests() / stage.rate()) + timeout;
        }
        return (timeout + pause) * ((stage.requests() + stage.concurrency() - 1) / stage.concurrency());
    }

    /** The quality stage sends the single-request prompts, the runner's default ones when the spec has none. */
    private static int qualityPrompts(BenchmarkRunSpec spec) {
        return spec.singleRequest.prompts.isEmpty()
                ? BenchmarkDefaults.PROMPTS.size()
                : spec.singleRequest.prompts.size();
    }
}
