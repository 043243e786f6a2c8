package dev.llmops.serving.operator.benchmark.comparison;

import dev.llmops.serving.api.contract.SampleSet;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * Decodes untrusted samples (a benchmark pod's log line, a ConfigMap) {@value #AT_ONCE} at a time in the whole
 * operator: one decoding holds at most about 8 MiB (the bounds of {@link SampleSet}), so however many reconciler
 * threads finish runs at once, samples never hold more than {@value #AT_ONCE} times that.
 */
public final class SampleDecoding {

    static final int AT_ONCE = 2;

    private static final Semaphore PERMITS = new Semaphore(AT_ONCE, true);

    private SampleDecoding() {}

    public static SampleSet decode(Supplier<SampleSet> decoding) {
        PERMITS.acquireUninterruptibly();
        try {
            return decoding.get();
        } finally {
            PERMITS.release();
        }
    }
}
