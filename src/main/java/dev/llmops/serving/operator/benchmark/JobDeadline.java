package dev.llmops.serving.operator.benchmark;

import dev.llmops.serving.api.contract.BenchmarkDefaults;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunSpec;

/**
 * The benchmark Job's activeDeadlineSeconds: the longest the plan can take if every request runs into its timeout T.
 *
 * <pre>
 * deadline = START + T × (warm-up requests + single-request prompts + quality prompts)
 *          + Σ over levels c: T × ⌈requestsPerLevel / c⌉   (requestsPerLevel set: each of c workers sends its share)
 *                          or T × 4                      (neither set: the runner sends 4 × c requests per level)
 *                          or durationSecondsPerLevel + T (duration set: requests in flight at the end are awaited)
 *          + Σ over rates r:  requests / r + T   (requestsPerLevel, else the runner's 30 s worth, at least 8)
 *                          or durationSecondsPerLevel + T
 *          + maxSearchSeconds + T × 4          (capacity search: its time budget and the last probe's stragglers)
 * </pre>
 *
 * START ({@value #START_ALLOWANCE_SECONDS} s) covers image pull and start-up; the result is capped at
 * {@value #MAX_SECONDS} s (7 days), past which a benchmark is not worth waiting for.
 */
public final class JobDeadline {

    static final long START_ALLOWANCE_SECONDS = 600;
    static final long MAX_SECONDS = 7L * 24 * 3600;
    private static final int DEFAULT_ROUNDS_PER_LEVEL = 4;
    private static final int DEFAULT_RATE_SECONDS = 30;
    private static final int MIN_RATE_REQUESTS = 8;

    private JobDeadline() {}

    public static long seconds(BenchmarkRunSpec spec) {
        long timeout = spec.requestTimeoutSeconds;
        long seconds = START_ALLOWANCE_SECONDS
                + timeout * (spec.warmup.requests + spec.singleRequest.prompts.size() + qualityPrompts(spec));
        for (int concurrency : SweepLevels.concurrency(spec.sweep)) {
            if (spec.sweep.durationSecondsPerLevel != null) {
                seconds += spec.sweep.durationSecondsPerLevel + timeout;
            } else if (spec.sweep.requestsPerLevel != null) {
                seconds += timeout * ((spec.sweep.requestsPerLevel + concurrency - 1) / concurrency);
            } else {
                seconds += timeout * DEFAULT_ROUNDS_PER_LEVEL;
            }
        }
        for (double rate : SweepLevels.rates(spec.sweep)) {
            if (spec.sweep.durationSecondsPerLevel != null) {
                seconds += spec.sweep.durationSecondsPerLevel + timeout;
            } else {
                double requests = spec.sweep.requestsPerLevel != null
                        ? spec.sweep.requestsPerLevel
                        : Math.max(MIN_RATE_REQUESTS, Math.round(rate * DEFAULT_RATE_SECONDS));
                seconds += (long) Math.ceil(requests / rate) + timeout;
            }
        }
        if (spec.capacity != null) {
            seconds += spec.capacity.maxSearchSeconds + timeout * DEFAULT_ROUNDS_PER_LEVEL;
        }
        return Math.min(seconds, MAX_SECONDS);
    }

    /** The quality stage sends the single-request prompts, the runner's default ones when the spec has none. */
    private static int qualityPrompts(BenchmarkRunSpec spec) {
        return spec.singleRequest.prompts.isEmpty()
                ? BenchmarkDefaults.PROMPTS.size()
                : spec.singleRequest.prompts.size();
    }
}
