package dev.llmops.serving.benchmark;

import dev.llmops.serving.api.v1alpha1.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.LatencyStats;
import dev.llmops.serving.api.v1alpha1.StageResult;
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
 * output tokens/s, and TTFT and TPOT (mean and percentiles, in seconds). A deleted run's gauges are removed.
 */
@ApplicationScoped
public class BenchmarkMetrics {

    static final String OUTPUT_THROUGHPUT = "llmops.benchmark.output.tokens.per.second";
    static final String TTFT = "llmops.benchmark.ttft";
    static final String TPOT = "llmops.benchmark.tpot";

    private final MeterRegistry registry;
    private final Map<String, List<Meter>> meters = new ConcurrentHashMap<>();

    public BenchmarkMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Registers the run's gauges once; the results of a finished run never change. */
    public void publish(BenchmarkRun run) {
        meters.computeIfAbsent(key(run), k -> register(run));
    }

    public void remove(BenchmarkRun run) {
        List<Meter> removed = meters.remove(key(run));
        if (removed != null) {
            removed.forEach(registry::remove);
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
