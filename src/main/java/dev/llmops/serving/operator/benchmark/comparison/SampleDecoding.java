package dev.llmops.serving.operator.benchmark.comparison;

import dev.llmops.serving.api.contract.SampleSet;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * Decodes untrusted samples (a benchmark pod's log line, a ConfigMap, the results of a sharded run's pods)
 * {@value #AT_ONCE} at a time in the whole operator: one decoding holds at most about 8 MiB (the bounds of
 * {@link SampleSet}; a sharded run's merge holds one shard's result at a time besides what it added up), so however
 * many reconciler threads finish runs at once, samples never hold more than {@value #AT_ONCE} times that.
 */
public final class SampleDecoding {

    static final int AT_ONCE = 2;

    private static final Semaphore PERMITS = new Semaphore(AT_ONCE, true);

    private SampleDecoding() {}

    public static <T> T decode(Supplier<T> decoding) {
        PERMITS.acquireUninterruptibly();
        try {
            return decoding.get();
        } finally {
            PERMITS.release();
        }
    }
}
