package dev.llmops.serving.demo;

import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BaselineComparison;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.ConfidenceInterval;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.LatencyStats;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.QualityComparison;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerStatus;
import dev.llmops.serving.common.ConditionGroups;
import dev.llmops.serving.operator.toolkit.Conditions;
import io.fabric8.kubernetes.api.model.Condition;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/** Prints what a person running the demo wants to see: state changes as they happen, then kubectl-style tables. */
final class DemoReport {

    private final PrintStream out;
    private final long startNanos;
    private String lastState = "";

    /** @param startNanos when the demo started ({@link System#nanoTime}), which progress lines count from */
    DemoReport(PrintStream out, long startNanos) {
        this.out = out;
        this.startNanos = startNanos;
    }

    /** One line per change of any resource's phase, progress or reason. */
    void progress(List<ModelServer> servers, List<BenchmarkRun> runs) {
        List<String> parts = new ArrayList<>();
        for (ModelServer server : servers) {
            ModelServerStatus status = server.getStatus();
            parts.add("ms/" + server.getMetadata().getName() + " "
                    + (status == null || status.phase == null ? "-" : status.phase)
                    + (status != null && status.diagnosis != null ? " (" + status.diagnosis.reason + ")" : ""));
        }
        for (BenchmarkRun run : runs) {
            BenchmarkRunStatus status = run.getStatus();
            parts.add("br/" + run.getMetadata().getName() + " "
                    + (status == null || status.phase == null ? "-" : status.phase)
                    + (status != null && status.progress != null ? " " + status.progress : ""));
        }
        String state = String.join("  |  ", parts);
        if (!state.equals(lastState)) {
            lastState = state;
            out.println(stamped(startNanos, state));
        }
    }

    /** A progress line: the seconds since the demo started, then the text. */
    static String stamped(long startNanos, String text) {
        return String.format(Locale.ROOT, "[%5.1fs] %s", seconds(startNanos), text);
    }

    static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    void modelServers(List<ModelServer> servers) {
        TextTable table = new TextTable("NAME", "MODEL", "GPUS", "PHASE", "READY", "ENDPOINT");
        for (ModelServer server : servers) {
            ModelServerStatus status = server.getStatus() == null ? new ModelServerStatus() : server.getStatus();
            table.row(
                    server.getMetadata().getName(),
                    server.getSpec().model.path,
                    String.valueOf(server.getSpec().accelerator.gpusPerReplica),
                    text(status.phase),
                    text(status.readyReplicasText),
                    text(status.endpoint));
        }
        out.println();
        out.println("$ kubectl get modelservers -n " + DemoScenario.NAMESPACE + " -o wide");
        table.print(out);
        for (ModelServer server : servers) {
            ModelServerStatus status = server.getStatus();
            if (status != null && status.diagnosis != null) {
                out.printf(
                        "%n%s is not ready: %s — %s%n  hint: %s%n",
                        server.getMetadata().getName(),
                        status.diagnosis.reason,
                        status.diagnosis.message,
                        status.diagnosis.hint);
            }
            conditions("ModelServer " + server.getMetadata().getName(), status == null ? List.of() : status.conditions);
        }
    }

    void benchmarkRuns(List<BenchmarkRun> runs) {
        TextTable table = new TextTable(
                "NAME",
                "TARGET",
                "PHASE",
                "PROGRESS",
                "SINGLE TOK/S",
                "PEAK TOK/S",
                "AT CONC",
                "SPEEDUP",
                "QUALITY",
                "REASON");
        for (BenchmarkRun run : runs) {
            BenchmarkRunStatus status = run.getStatus() == null ? new BenchmarkRunStatus() : run.getStatus();
            table.row(
                    run.getMetadata().getName(),
                    text(status.target),
                    text(status.phase),
                    text(status.progress),
                    status.summary == null ? "" : number(status.summary.singleStreamTokensPerSecond),
                    status.summary == null ? "" : number(status.summary.peakTokensPerSecond),
                    status.summary == null ? "" : text(status.summary.peakConcurrency),
                    status.comparison == null ? "" : text(status.comparison.speedup),
                    conditionReason(status.conditions, ConditionTypes.QUALITY_SUSPECT),
                    conditionReason(status.conditions, ConditionTypes.READY));
        }
        out.println();
        out.println("$ kubectl get benchmarkruns -n " + DemoScenario.NAMESPACE + " -o wide");
        table.print(out);
        for (BenchmarkRun run : runs) {
            BenchmarkRunStatus status = run.getStatus();
            if (status == null) {
                continue;
            }
            if (!status.stages.isEmpty()) {
                stages(run.getMetadata().getName(), status.stages);
            }
            if (status.comparison != null && !status.comparison.stages.isEmpty()) {
                speedups(run.getMetadata().getName(), status.comparison);
            }
            status.warnings.forEach(w -> out.println("  warning: " + w));
            conditions("BenchmarkRun " + run.getMetadata().getName(), status.conditions);
        }
    }

    /** The reason of the condition of that type, as the printer columns read it; empty without one. */
    private static String conditionReason(List<Condition> conditions, String type) {
        return Conditions.find(conditions, type).map(c -> text(c.getReason())).orElse("");
    }

    private void stages(String run, List<StageResult> stages) {
        out.printf("%nResults of %s:%n", run);
        TextTable table = new TextTable(
                "STAGE",
                "CONC",
                "OK",
                "FAILED",
                "OUT TOK/S",
                "REQ/S",
                "TTFT P50",
                "TTFT P99",
                "TPOT P50",
                "ITL P50",
                "E2E P50",
                "ACCEPT LEN");
        for (StageResult stage : stages) {
            table.row(
                    stage.name,
                    text(stage.concurrency),
                    text(stage.completed),
                    text(stage.failed),
                    number(stage.outputTokensPerSecond),
                    number(stage.requestsPerSecond),
                    millis(stage.ttftMillis, s -> s.p50),
                    millis(stage.ttftMillis, s -> s.p99),
                    millis(stage.tpotMillis, s -> s.p50),
                    millis(stage.itlMillis, s -> s.p50),
                    millis(stage.e2eMillis, s -> s.p50),
                    number(stage.specAcceptLength, "%.2f"));
        }
        table.print(out);
    }

    /** The paired comparison as kubectl get -o yaml holds it: per stage the verdict and 95 % intervals. */
    private void speedups(String run, BaselineComparison comparison) {
        out.printf("%nSpeedup of %s over %s (above 1 is faster; 95 %% interval):%n", run, comparison.baseline);
        TextTable table =
                new TextTable("STAGE", "VERDICT", "PAIRS", "THROUGHPUT", "TPOT P50", "TTFT P50", "ACCEPT LEN");
        comparison.stages.forEach(s -> table.row(
                s.name,
                text(s.verdict),
                text(s.pairs),
                interval(s.throughputSpeedup, s.throughputSpeedupInterval),
                interval(s.tpotP50Speedup, s.tpotP50SpeedupInterval),
                interval(s.ttftP50Speedup, s.ttftP50SpeedupInterval),
                acceptance(s.specAcceptLength, s.baselineSpecAcceptLength)));
        table.print(out);
        if (comparison.message != null) {
            out.println("  " + comparison.message);
        }
        QualityComparison quality = comparison.quality;
        if (quality != null) {
            out.printf(
                    Locale.ROOT,
                    "Greedy outputs against %s: %.0f%% of %d prompts identical, %.0f%% agreement (shared prefix "
                            + "%.0f tokens on average)%n",
                    comparison.baseline,
                    100 * quality.exactMatchShare,
                    quality.prompts,
                    100 * quality.prefixAgreement,
                    quality.meanSharedPrefixTokens);
        }
    }

    static String interval(Double estimate, ConfidenceInterval interval) {
        String value = ratio(estimate);
        return interval == null || interval.low == null || interval.high == null
                ? value
                : String.format(Locale.ROOT, "%s [%.2f, %.2f]", value, interval.low, interval.high);
    }

    /** This run's acceptance length, after the baseline's when it had one. */
    private static String acceptance(Double run, Double baseline) {
        return baseline == null ? number(run, "%.2f") : number(baseline, "%.2f") + " -> " + number(run, "%.2f");
    }

    private void conditions(String what, List<Condition> conditions) {
        if (conditions.isEmpty()) {
            return;
        }
        out.printf("%nConditions of %s:%n", what);
        TextTable table = new TextTable("CONDITIONS", "REASON", "MESSAGE");
        ConditionGroups.of(conditions).forEach(g -> table.row(g.conditions(), g.reasons(), g.message()));
        table.print(out);
    }

    /** A latency in milliseconds below a second, in seconds from one second on: 121.7 ms, 2.66 s. */
    static String millis(LatencyStats stats, Function<LatencyStats, Double> pick) {
        Double millis = stats == null ? null : pick.apply(stats);
        if (millis == null) {
            return "";
        }
        return millis < 1000
                ? String.format(Locale.ROOT, "%.1f ms", millis)
                : String.format(Locale.ROOT, "%.2f s", millis / 1000);
    }

    static String number(Double value) {
        return number(value, "%.1f");
    }

    static String number(Double value, String format) {
        return value == null ? "" : String.format(Locale.ROOT, format, value);
    }

    static String ratio(Double value) {
        return value == null ? "" : String.format(Locale.ROOT, "%.2fx", value);
    }

    static String text(Object value) {
        return value == null ? "" : value.toString();
    }
}
