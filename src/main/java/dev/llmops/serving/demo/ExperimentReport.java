package dev.llmops.serving.demo;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageSpeedup;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerStatus;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperimentStatus;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantPhase;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantResult;
import dev.llmops.serving.api.v1alpha1.servingexperiment.Winner;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Prints a ServingExperiment the way a person follows it: a line per change of its variants' phases (with the server's
 * phase while one deploys and the run's progress while one is benchmarked), then the matrix of the variants, the
 * winner, and when each variant's server held the node.
 */
final class ExperimentReport {

    private final PrintStream out;
    private final long startNanos;
    private String lastState = "";

    ExperimentReport(PrintStream out, long startNanos) {
        this.out = out;
        this.startNanos = startNanos;
    }

    /** One line per change of any experiment's phase or of any variant's phase, server phase or run progress. */
    void progress(List<ServingExperiment> experiments, List<ModelServer> servers, List<BenchmarkRun> runs) {
        List<String> parts = new ArrayList<>();
        for (ServingExperiment experiment : experiments) {
            ServingExperimentStatus status = experiment.getStatus();
            parts.add("sx/" + experiment.getMetadata().getName() + " "
                    + (status == null || status.phase == null ? "-" : status.phase + " " + status.progress));
            if (status != null) {
                status.variants.forEach(v -> parts.add(variantState(v, servers, runs)));
            }
        }
        String state = String.join("  |  ", parts);
        if (!state.equals(lastState)) {
            lastState = state;
            out.println(DemoReport.stamped(startNanos, state));
        }
    }

    /** The servers that arrived on or left the node since the last look, a line each. */
    void timeline(List<String> changes) {
        changes.forEach(change -> out.println(DemoReport.stamped(startNanos, change)));
    }

    /** The matrix of each experiment's variants, the winner, why the failed ones failed, and the node's sequence. */
    void results(List<ServingExperiment> experiments, ServerTimeline timeline) {
        for (ServingExperiment experiment : experiments) {
            ServingExperimentStatus status =
                    experiment.getStatus() == null ? new ServingExperimentStatus() : experiment.getStatus();
            out.println();
            out.println("$ kubectl get servingexperiments -n " + DemoScenario.NAMESPACE);
            TextTable summary = new TextTable("NAME", "PHASE", "PROGRESS", "WINNER", "SPEEDUP");
            summary.row(
                    experiment.getMetadata().getName(),
                    DemoReport.text(status.phase),
                    DemoReport.text(status.progress),
                    status.winner == null ? "" : status.winner.name,
                    DemoReport.text(status.speedup));
            summary.print(out);
            matrix(experiment, status);
        }
        sequence(timeline);
    }

    private void matrix(ServingExperiment experiment, ServingExperimentStatus status) {
        Optional<String> stage = Optional.ofNullable(status.winner).map(w -> w.stage);
        String baseline = experiment.getSpec().baseline != null
                ? experiment.getSpec().baseline
                : experiment.getSpec().variants.get(0).name;
        out.printf(
                "%nVariants of %s, one after another (speedup over %s%s; 95 %% interval):%n",
                experiment.getMetadata().getName(),
                baseline,
                stage.map(s -> " in throughput at " + s).orElse(""));
        TextTable table = new TextTable(
                "VARIANT", "PHASE", "TIME TO READY", "PEAK TOK/S", "SPEEDUP", "ACCEPT LEN", "QUALITY", "DIAGNOSIS");
        for (VariantResult variant : status.variants) {
            table.row(
                    variant.name,
                    DemoReport.text(variant.phase),
                    timeToReady(variant),
                    variant.summary == null ? "" : DemoReport.number(variant.summary.peakTokensPerSecond),
                    variant.name.equals(baseline) ? "baseline" : speedup(variant, stage),
                    DemoReport.number(variant.specAcceptLength, "%.2f"),
                    quality(variant),
                    variant.diagnosis == null ? "" : variant.diagnosis.reason);
        }
        table.print(out);
        Winner winner = status.winner;
        out.printf("%nWinner: %s%n", winner == null ? "none" : winner.reason);
        for (VariantResult variant : status.variants) {
            if (variant.phase == VariantPhase.Failed) {
                out.printf(
                        "%n%s failed: %s%n%s",
                        variant.name,
                        variant.message,
                        variant.diagnosis == null || variant.diagnosis.hint == null
                                ? ""
                                : "  hint: " + variant.diagnosis.hint + System.lineSeparator());
            }
        }
    }

    private void sequence(ServerTimeline timeline) {
        out.printf("%nServers on the node (it holds one at a time), seconds since the demo started:%n");
        TextTable table = new TextTable("SERVER", "STARTED", "STOPPED", "HELD");
        for (ServerTimeline.Stay stay : timeline.stays()) {
            table.row(
                    stay.server(),
                    seconds(stay.from()),
                    stay.until() == null ? "" : seconds(stay.until()),
                    stay.until() == null ? "" : seconds(stay.until() - stay.from()));
        }
        table.print(out);
        int most = timeline.mostAtOnce();
        out.println(
                most <= 1
                        ? "No two servers were on the node at once."
                        : "Overlap: " + most + " servers were on the node at once.");
    }

    private static String variantState(VariantResult variant, List<ModelServer> servers, List<BenchmarkRun> runs) {
        String state = variant.name + " " + variant.phase;
        if (variant.phase == VariantPhase.Deploying) {
            return state
                    + named(servers, variant.modelServer)
                            .map(ModelServer::getStatus)
                            .filter(s -> s.phase != null)
                            .map(ExperimentReport::serverState)
                            .orElse("");
        }
        if (variant.phase == VariantPhase.Benchmarking) {
            return state
                    + named(runs, variant.benchmarkRun)
                            .map(BenchmarkRun::getStatus)
                            .filter(s -> s.progress != null)
                            .map(s -> " " + s.progress)
                            .orElse("");
        }
        return variant.diagnosis == null ? state : state + " (" + variant.diagnosis.reason + ")";
    }

    private static String serverState(ModelServerStatus status) {
        return " (server " + status.phase + (status.diagnosis == null ? "" : ": " + status.diagnosis.reason) + ")";
    }

    private static <T extends HasMetadata> Optional<T> named(List<T> objects, String name) {
        return objects.stream()
                .filter(o -> o.getMetadata().getName().equals(name))
                .findFirst();
    }

    private static String timeToReady(VariantResult variant) {
        if (variant.timeToReadySeconds != null) {
            return seconds(variant.timeToReadySeconds);
        }
        return variant.timeToFailureSeconds == null ? "" : "failed at " + seconds(variant.timeToFailureSeconds);
    }

    /** The paired throughput speedup at the objective's stage, else the peak speedup without interval. */
    private static String speedup(VariantResult variant, Optional<String> stage) {
        if (variant.comparison == null) {
            return "";
        }
        return stage.flatMap(s -> variant.comparison.stages.stream()
                        .filter(st -> s.equals(st.name))
                        .findFirst())
                .map(ExperimentReport::throughput)
                .orElseGet(() -> DemoReport.ratio(variant.comparison.peakThroughputSpeedup));
    }

    private static String throughput(StageSpeedup stage) {
        return DemoReport.interval(stage.throughputSpeedup, stage.throughputSpeedupInterval);
    }

    private static String quality(VariantResult variant) {
        if (Boolean.TRUE.equals(variant.qualitySuspect)) {
            return "suspect";
        }
        return variant.comparison == null
                        || variant.comparison.quality == null
                        || variant.comparison.quality.prefixAgreement == null
                ? ""
                : String.format(Locale.ROOT, "%.0f%% agree", 100 * variant.comparison.quality.prefixAgreement);
    }

    private static String seconds(double value) {
        return String.format(Locale.ROOT, "%.1f s", value);
    }
}
