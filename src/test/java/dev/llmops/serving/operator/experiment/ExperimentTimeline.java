package dev.llmops.serving.operator.experiment;

import static dev.llmops.serving.operator.experiment.ExperimentFixtures.interval;
import static dev.llmops.serving.operator.experiment.ExperimentFixtures.run;
import static dev.llmops.serving.operator.experiment.ExperimentFixtures.server;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerPhase;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Plays an experiment's variants' servers, runs and pods through the operator's status report, keeping each status as
 * the experiment's as a write would; the statuses of the health-check tests come from it too.
 */
public final class ExperimentTimeline {

    final ServingExperiment experiment = ExperimentFixtures.experiment();
    final Map<String, ModelServer> servers = new HashMap<>();
    final Map<String, BenchmarkRun> runs = new HashMap<>();
    final Set<String> holdingPool = new HashSet<>();

    /** The status at {@code at} from what is observed now. */
    ExperimentStatusReport.Report observe(Instant at) {
        ExperimentStatusReport.Report report = new ExperimentStatusReport(Clock.fixed(at, ZoneOffset.UTC))
                .build(experiment, new ExperimentStatusReport.Observation(servers, runs, holdingPool, at));
        experiment.setStatus(report.status());
        return report;
    }

    VariantResult variant(String name) {
        return experiment.getStatus().variants.stream()
                .filter(v -> v.name.equals(name))
                .findFirst()
                .orElseThrow();
    }

    /**
     * The variant's server turns ready {@code loadMinutes} after {@code created}, and its run succeeds with c32 at
     * {@code tokensPerSecond}, paired with an interval from {@code low} to {@code low + 0.2} (none when 0).
     */
    void benchmarked(String variant, Instant created, int loadMinutes, double tokensPerSecond, double low) {
        Instant ready = created.plus(Duration.ofMinutes(loadMinutes));
        servers.put(variant, server("kimi-" + variant, ModelServerPhase.Ready, created, ready));
        holdingPool.add(variant);
        observe(ready);
        runs.put(
                variant,
                run(
                        "kimi-" + variant,
                        BenchmarkRunPhase.Succeeded,
                        tokensPerSecond,
                        low == 0 ? null : interval(low, low + 0.2)));
        observe(ready.plusSeconds(600));
    }

    /** The variant's server deleted and its pods gone: the pool is free. */
    void released(String variant) {
        servers.remove(variant);
        holdingPool.remove(variant);
    }

    /** The server of a started variant found failing, its pods then gone. */
    void failedToStart(String variant, Instant created, Instant failed) {
        servers.put(variant, server("kimi-" + variant, ModelServerPhase.Failed, created, failed));
        observe(failed);
        released(variant);
    }

    /** Just applied, before the operator wrote a status. */
    public static ServingExperiment applied() {
        return new ExperimentTimeline().experiment;
    }

    /** The baseline benchmarked, eagle3's server loading. */
    public static ServingExperiment secondVariantLoading() {
        ExperimentTimeline timeline = new ExperimentTimeline();
        timeline.observe(ExperimentFixtures.T0);
        timeline.benchmarked("autoregressive", ExperimentFixtures.T0, 10, 1000, 0);
        timeline.released("autoregressive");
        timeline.observe(ExperimentFixtures.T0.plusSeconds(1300));
        return timeline.experiment;
    }

    /** Every variant tried: dflash-b8 1.9x the baseline, broken failed to start. */
    public static ServingExperiment finishedWithAWinner() {
        ExperimentTimeline timeline = new ExperimentTimeline();
        Instant at = ExperimentFixtures.T0;
        timeline.observe(at);
        for (String name : new String[] {"autoregressive", "eagle3", "dflash-b8"}) {
            double low = name.equals("autoregressive") ? 0 : name.equals("eagle3") ? 1.2 : 1.8;
            timeline.benchmarked(name, at, 10, 1000 * Math.max(1, low + 0.1), low);
            timeline.released(name);
            at = at.plus(Duration.ofMinutes(30));
            timeline.observe(at);
        }
        timeline.failedToStart("broken", at, at.plusSeconds(200));
        timeline.observe(at.plusSeconds(210));
        return timeline.experiment;
    }

    /** The budget of 60 minutes ran out while eagle3 was deploying. */
    public static ServingExperiment outOfTime() {
        ExperimentTimeline timeline = new ExperimentTimeline();
        timeline.experiment.getSpec().maxDurationMinutes = 60;
        timeline.observe(ExperimentFixtures.T0);
        timeline.benchmarked("autoregressive", ExperimentFixtures.T0, 10, 1000, 0);
        timeline.released("autoregressive");
        timeline.observe(ExperimentFixtures.T0.plusSeconds(1300));
        timeline.observe(ExperimentFixtures.T0.plus(Duration.ofMinutes(60)));
        return timeline.experiment;
    }

    /** Every variant's server failed to start. */
    public static ServingExperiment everyVariantFailed() {
        ExperimentTimeline timeline = new ExperimentTimeline();
        for (String name : new String[] {"autoregressive", "eagle3", "dflash-b8", "broken"}) {
            timeline.observe(ExperimentFixtures.T0);
            timeline.failedToStart(name, ExperimentFixtures.T0, ExperimentFixtures.T0.plusSeconds(60));
        }
        timeline.observe(ExperimentFixtures.T0.plusSeconds(120));
        return timeline.experiment;
    }
}
