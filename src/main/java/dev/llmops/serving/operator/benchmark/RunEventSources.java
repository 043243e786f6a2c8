package dev.llmops.serving.operator.benchmark;

import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.operator.benchmark.comparison.ComparedRunEvents;
import dev.llmops.serving.operator.toolkit.ConditionMetrics;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.IndexedResourceCache;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What wakes a BenchmarkRun, and the index keys that find it: its target ModelServer, the runs it names as baseline or
 * reference, and the pods of its Job, each through an index of the run cache by "namespace/name".
 */
final class RunEventSources {

    static final String TARGET_SOURCE = "target-modelserver";
    private static final String BY_TARGET = "benchmarkrun-by-target";
    private static final String BY_COMPARED = "benchmarkrun-by-compared-run";
    private static final String BY_JOB = "benchmarkrun-by-job";
    private static final String PODS_SOURCE = "benchmark-pods";

    private RunEventSources() {}

    /**
     * Wakes a run when its target ModelServer, its baseline or reference run or its benchmark pod changes, found
     * through indexes of the run cache (baseline and reference runs are read from that cache too, not from a second
     * one); caches the benchmark pods the run reads its outcome from; drops a deleted run's gauges.
     */
    static List<EventSource<?, BenchmarkRun>> of(
            EventSourceContext<BenchmarkRun> context, BenchmarkMetrics metrics, ConditionMetrics conditionMetrics) {
        IndexerResourceCache<BenchmarkRun> runs = context.getPrimaryCache();
        runs.addIndexer(BY_TARGET, run -> keys(run, run.getSpec().target.modelServer));
        runs.addIndexer(BY_COMPARED, run -> comparedKeys(run));
        runs.addIndexer(
                BY_JOB,
                run -> keys(run, BenchmarkJobDependent.jobName(run.getMetadata().getName())));
        var pods = new InformerEventSource<>(
                InformerEventSourceConfiguration.from(Pod.class, BenchmarkRun.class)
                        .withName(PODS_SOURCE)
                        .withLabelSelector(Labels.BENCHMARK_JOBS)
                        .withSecondaryToPrimaryMapper(pod -> runs
                                .byIndex(
                                        BY_JOB,
                                        pod.getMetadata().getNamespace() + "/"
                                                + pod.getMetadata().getLabels().get(Labels.INSTANCE))
                                .stream()
                                .map(ResourceID::fromResource)
                                .collect(Collectors.toSet()))
                        .build(),
                context);
        var target = new InformerEventSource<>(
                InformerEventSourceConfiguration.from(ModelServer.class, BenchmarkRun.class)
                        .withName(TARGET_SOURCE)
                        .withSecondaryToPrimaryMapper(server -> referrers(runs, BY_TARGET, server))
                        .withPrimaryToSecondaryMapper(
                                (BenchmarkRun run) -> referenced(run, run.getSpec().target.modelServer))
                        .build(),
                context);
        return List.of(
                target,
                new ComparedRunEvents(runs, BY_COMPARED),
                pods,
                new DeletedRunMetrics(metrics),
                conditionMetrics.eventSource(
                        BenchmarkRun.class, run -> run.getStatus() == null ? null : run.getStatus().conditions));
    }

    /** The names of the runs that name {@code run} as their baseline or reference. */
    static List<String> referrers(IndexedResourceCache<BenchmarkRun> runs, BenchmarkRun run) {
        return referrers(runs, BY_COMPARED, run).stream()
                .map(ResourceID::getName)
                .toList();
    }

    private static List<String> comparedKeys(BenchmarkRun run) {
        List<String> keys = new ArrayList<>(keys(run, run.getSpec().baseline));
        if (run.getSpec().reference != null) {
            keys.addAll(keys(run, run.getSpec().reference.name));
        }
        return keys;
    }

    private static List<String> keys(BenchmarkRun run, String referenced) {
        return referenced == null ? List.of() : List.of(run.getMetadata().getNamespace() + "/" + referenced);
    }

    private static Set<ResourceID> referrers(
            IndexedResourceCache<BenchmarkRun> runs, String index, HasMetadata referenced) {
        return runs
                .byIndex(
                        index,
                        referenced.getMetadata().getNamespace() + "/"
                                + referenced.getMetadata().getName())
                .stream()
                .map(ResourceID::fromResource)
                .collect(Collectors.toSet());
    }

    private static Set<ResourceID> referenced(BenchmarkRun run, String name) {
        return name == null
                ? Set.of()
                : Set.of(new ResourceID(name, run.getMetadata().getNamespace()));
    }
}
