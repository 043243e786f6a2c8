package dev.llmops.serving.operator.benchmark.comparison;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.AbstractEventSource;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import io.javaoperatorsdk.operator.processing.event.source.ResourceEventAware;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Wakes the runs that name a run as their baseline or reference whenever that run changes (and, when it is deleted,
 * the runs it named), from the controller's own
 * run events: a second informer over BenchmarkRuns would hold every run twice and add a watch stream for the API
 * server to feed. The runs referring to a run are found through an index of the controller's cache.
 */
public class ComparedRunEvents extends AbstractEventSource<Void, BenchmarkRun>
        implements ResourceEventAware<BenchmarkRun> {

    private final IndexerResourceCache<BenchmarkRun> runs;
    private final String referrerIndex;

    /** {@code referrerIndex}: an index of {@code runs} by the "namespace/name" of each run's compared runs. */
    public ComparedRunEvents(IndexerResourceCache<BenchmarkRun> runs, String referrerIndex) {
        super(Void.class, "compared-run-events");
        this.runs = runs;
        this.referrerIndex = referrerIndex;
    }

    @Override
    public void onResourceCreated(BenchmarkRun run) {
        wakeReferrers(run);
    }

    @Override
    public void onResourceUpdated(BenchmarkRun run, BenchmarkRun old) {
        wakeReferrers(run);
    }

    /** Also wakes the runs the deleted one compared with: one kept past its retention only for it may go now. */
    @Override
    public void onResourceDeleted(BenchmarkRun run) {
        wakeReferrers(run);
        Stream.of(run.getSpec().baseline, run.getSpec().reference == null ? null : run.getSpec().reference.name)
                .filter(Objects::nonNull)
                .forEach(name -> getEventHandler()
                        .handleEvent(
                                new Event(new ResourceID(name, run.getMetadata().getNamespace()))));
    }

    private void wakeReferrers(BenchmarkRun compared) {
        String key = compared.getMetadata().getNamespace() + "/"
                + compared.getMetadata().getName();
        for (BenchmarkRun referrer : runs.byIndex(referrerIndex, key)) {
            getEventHandler().handleEvent(new Event(ResourceID.fromResource(referrer)));
        }
    }

    @Override
    public Set<Void> getSecondaryResources(BenchmarkRun run) {
        return Set.of();
    }
}
