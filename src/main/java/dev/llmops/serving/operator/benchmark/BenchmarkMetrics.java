package dev.llmops.serving.operator.benchmark;

import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BaselineComparison;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.LatencyStats;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageSpeedup;
import dev.llmops.serving.operator.toolkit.Conditions;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Exports the results of succeeded runs as Prometheus gauges, tagged by run, namespace, model, stage and concurrency:
 * output tokens/s, and TTFT and TPOT (mean and percentiles, in seconds); and their comparisons: the throughput speedup
 * per stage against the baseline and the reference, and whether the run regressed against its reference (1 or 0),
 * which a pipeline can alert on. A deleted run's gauges are removed.
 */
@ApplicationScoped
public class BenchmarkMetrics {

    static final String OUTPUT_THROUGHPUT = "llmops.benchmark.output.tokens.per.second";
    static final String TTFT = "llmops.benchmark.ttft";
    static final String TPOT = "llmops.benchmark.tpot";
    static final String REGRESSED = "llm.serving.benchmark.regressed";
    static final String SPEEDUP = "llm.serving.benchmark.speedup";
    static final String AGAINST_BASELINE = "baseline";
    static final String AGAINST_REFERENCE = "reference";

    private final MeterRegistry registry;
    private final Map<String, List<Meter>> meters = new ConcurrentHashMap<>();
    private final Map<String, Comparisons> comparisons = new ConcurrentHashMap<>();

    /** The comparison figures a run's gauges show, and the gauges; replaced when a comparison arrives. */
    private record Comparisons(Map<GaugeKey, Double> values, List<Meter> meters) {}

    /** One comparison gauge: its name and tags. */
    private record GaugeKey(String name, Tags tags) {}

    public BenchmarkMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Registers the run's gauges once; the results of a finished run never change. */
    public void publish(BenchmarkRun run) {
        meters.computeIfAbsent(key(run), k -> register(run));
    }

    /**
     * Registers the gauges of the run's comparisons, again when they changed: a comparison arrives once the other run
     * has finished, possibly long after this one.
     */
    public void publishComparisons(BenchmarkRun run) {
        Map<GaugeKey, Double> values = comparisonValues(run);
        comparisons.compute(key(run), (key, current) -> {
            if (current != null && current.values().equals(values)) {
                return current;
            }
            if (current != null) {
                current.meters().forEach(registry::remove);
            }
            List<Meter> registered = new ArrayList<>();
            values.forEach((gauge, value) -> registered.add(Gauge.builder(gauge.name(), () -> value)
                    .tags(gauge.tags())
                    .description(
                            gauge.name().equals(SPEEDUP)
                                    ? "Output tokens/s of a benchmark stage over the same stage of the baseline or "
                                            + "reference run"
                                    : "1 when a benchmark run is significantly slower than its reference, else 0")
                    .register(registry)));
            return new Comparisons(values, registered);
        });
    }

    public void remove(BenchmarkRun run) {
        List<Meter> removed = meters.remove(key(run));
        if (removed != null) {
            removed.forEach(registry::remove);
        }
        Comparisons removedComparisons = comparisons.remove(key(run));
        if (removedComparisons != null) {
            removedComparisons.meters().forEach(registry::remove);
        }
    }

    /** Tags of each comparison gauge and its value: the regressed flag once decided, each stage's speedup. */
    private static Map<GaugeKey, Double> comparisonValues(BenchmarkRun run) {
        Map<GaugeKey, Double> values = new LinkedHashMap<>();
        Tags runTags = Tags.of(
                "namespace",
                run.getMetadata().getNamespace(),
                "name",
                run.getMetadata().getName());
        Conditions.find(run.getStatus().conditions, ConditionTypes.REGRESSED)
                .filter(c -> !Conditions.UNKNOWN.equals(c.getStatus()))
                .ifPresent(c -> values.put(
                        new GaugeKey(REGRESSED, runTags), Conditions.TRUE.equals(c.getStatus()) ? 1.0 : 0.0));
        speedups(values, runTags, AGAINST_BASELINE, run.getStatus().comparison);
        speedups(values, runTags, AGAINST_REFERENCE, run.getStatus().referenceComparison);
        return values;
    }

    private static void speedups(
            Map<GaugeKey, Double> values, Tags runTags, String against, BaselineComparison comparison) {
        if (comparison == null) {
            return;
        }
        for (StageSpeedup stage : comparison.stages) {
            if (stage.throughputSpeedup != null) {
                values.put(
                        new GaugeKey(SPEEDUP, runTags.and("stage", stage.name, "against", against)),
                        stage.throughputSpeedup);
            }
        }
    }

    private List<Meter> register(BenchmarkRun run) {
        List<Meter> registered = new ArrayList<>();
        String model = run.getStatus().provenance != null && run.getStatus().provenance.model != null
                ? run.getStatus().provenance.model
                : "";
        for (StageResult stage : run.getStatus().stages) {
            Tags tags = Tags.of(
                    "run",
                    run.getMetadata().getName(),
                    "namespace",
                    run.getMetadata().getNamespace(),
                    "model",
                    model,
                    "stage",
                    stage.name,
                    "concurrency",
                    String.valueOf(stage.concurrency));
            if (stage.outputTokensPerSecond != null) {
                double value = stage.outputTokensPerSecond;
                registered.add(Gauge.builder(OUTPUT_THROUGHPUT, () -> value)
                        .tags(tags)
                        .description("Output tokens per second of a benchmark stage")
                        .register(registry));
            }
            registered.addAll(latency(TTFT, "Time to first token of a benchmark stage", stage.ttftMillis, tags));
            registered.addAll(latency(TPOT, "Time per output token of a benchmark stage", stage.tpotMillis, tags));
        }
        return registered;
    }

    private List<Meter> latency(String name, String description, LatencyStats stats, Tags tags) {
        if (stats == null) {
            return List.of();
        }
        List<Meter> registered = new ArrayList<>();
        Map<String, Double> figures = new LinkedHashMap<>();
        figures.put("mean", stats.mean);
        figures.put("p50", stats.p50);
        figures.put("p90", stats.p90);
        figures.put("p99", stats.p99);
        figures.forEach((stat, millis) -> {
            if (millis != null) {
                double seconds = millis / 1000.0;
                registered.add(Gauge.builder(name, () -> seconds)
                        .tags(tags.and("stat", stat))
                        .baseUnit("seconds")
                        .description(description)
                        .register(registry));
            }
        });
        return registered;
    }

    private static String key(BenchmarkRun run) {
        return run.getMetadata().getNamespace() + "/" + run.getMetadata().getName();
    }
}
