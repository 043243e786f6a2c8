package dev.llmops.serving.benchmark;

import dev.llmops.serving.api.v1alpha1.BenchmarkRunSpec;

/**
 * The benchmark Job's activeDeadlineSeconds: the longest the plan can take if every request runs into its timeout T.
 *
 * <pre>
 * deadline = START + T × (warm-up requests + single-request prompts)
 *          + Σ over levels c: T × ⌈requestsPerLevel / c⌉   (requestsPerLevel set: each of c workers sends its share)
 *                          or T × 4                      (neither set: the runner sends 4 × c requests per level)
 *                          or durationSecondsPerLevel + T (duration set: requests in flight at the end are awaited)
 * </pre>
 *
 * START ({@value #START_ALLOWANCE_SECONDS} s) covers image pull and start-up; the result is capped at
 * {@value #MAX_SECONDS} s (7 days), past which a benchmark is not worth waiting for.
 */
public final class JobDeadline {

    static final long START_ALLOWANCE_SECONDS = 600;
    static final long MAX_SECONDS = 7L * 24 * 3600;
    private static final int DEFAULT_ROUNDS_PER_LEVEL = 4;

    private JobDeadline() {}

    public static long seconds(BenchmarkRunSpec spec) {
        long timeout = spec.requestTimeoutSeconds;
        long seconds = START_ALLOWANCE_SECONDS + timeout * (spec.warmup.requests + spec.singleRequest.prompts.size());
        for (int concurrency : spec.sweep.concurrency) {
            if (spec.sweep.durationSecondsPerLevel != null) {
                seconds += spec.sweep.durationSecondsPerLevel + timeout;
            } else if (spec.sweep.requestsPerLevel != null) {
                seconds += timeout * ((spec.sweep.requestsPerLevel + concurrency - 1) / concurrency);
            } else {
                seconds += timeout * DEFAULT_ROUNDS_PER_LEVEL;
            }
        }
        return Math.min(seconds, MAX_SECONDS);
    }
}
