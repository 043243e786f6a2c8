package dev.llmops.serving.operator.benchmark;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import io.javaoperatorsdk.operator.processing.event.source.AbstractEventSource;
import io.javaoperatorsdk.operator.processing.event.source.ResourceEventAware;
import java.util.Set;

/**
 * Drops a deleted run's gauges when the operator sees the deletion. No finalizer is needed for that: the gauges live in
 * this process only, so a deletion missed while the operator was down went with the process. A finalizer cost every run
 * an extra write and reconcile.
 */
class DeletedRunMetrics extends AbstractEventSource<Void, BenchmarkRun> implements ResourceEventAware<BenchmarkRun> {

    private final BenchmarkMetrics metrics;

    DeletedRunMetrics(BenchmarkMetrics metrics) {
        super(Void.class, "deleted-run-metrics");
        this.metrics = metrics;
    }

    @Override
    public void onResourceDeleted(BenchmarkRun run) {
        metrics.remove(run);
    }

    @Override
    public Set<Void> getSecondaryResources(BenchmarkRun run) {
        return Set.of();
    }
}
