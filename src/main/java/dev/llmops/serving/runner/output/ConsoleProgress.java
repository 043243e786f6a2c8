package dev.llmops.serving.runner.output;

import dev.llmops.serving.api.contract.ProgressLine;
import dev.llmops.serving.api.contract.QualityOutput;
import dev.llmops.serving.runner.BenchmarkListener;
import dev.llmops.serving.runner.plan.StagePlan;
import dev.llmops.serving.runner.statistics.LatencySummary;
import dev.llmops.serving.runner.transport.RequestResult;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * Prints a run for people and for the operator: the results table, a row per finished stage, on one writer; notes,
 * warnings and a {@link ProgressLine} as each stage starts and after the last, which the BenchmarkRun controller reads
 * from the pod log, on the other.
 */
public final class ConsoleProgress implements BenchmarkListener {

    private static final String QUALITY = "quality";
    private static final String ROW = "%-11s %6s %6s %5s %8s %10s %8s %15s %15s %15s %10s %7s %9s %7s%n";

    private final PrintWriter table;
    private final PrintWriter messages;
    /** The stage count when the quality stage ran after the last stage: progress is then finished again after it. */
    private Integer stagesDoneBeforeQuality;

    public ConsoleProgress(PrintWriter table, PrintWriter messages) {
        this.table = table;
        this.messages = messages;
    }

    @Override
    public void warning(String message) {
        note("warning: %s", message);
    }

    @Override
    public void readinessChecked(RequestResult result) {
        if (result.succeeded()) {
            note(
                    "target ready: one completion of %d tokens in %.0f ms",
                    result.outputTokens(), result.latency().toNanos() / 1e6);
        }
    }

    @Override
    public void warmupFinished(int succeeded, int failed) {
        if (succeeded + failed > 0) {
            note("warm-up: %d requests done, %d failed", succeeded + failed, failed);
        }
    }

    /** Names the quality stage in progress while it runs: it takes as long as the single phase and is no stage. */
    @Override
    public void qualityStarted(int finishedStages, int stages) {
        if (stages > 0) {
            messages.println(ProgressLine.running(finishedStages, stages, QUALITY));
            messages.flush();
        }
        stagesDoneBeforeQuality = stages > 0 && finishedStages == stages ? stages : null;
    }

    @Override
    public void qualityFinished(List<QualityOutput> outputs) {
        note(
                "quality: %d prompts, %d tokens",
                outputs.size(),
                outputs.stream().mapToInt(output -> output.tokens().size()).sum());
        if (stagesDoneBeforeQuality != null) {
            messages.println(ProgressLine.finished(stagesDoneBeforeQuality));
            messages.flush();
        }
    }

    @Override
    public void stageStarted(StagePlan stage, int index, int stages) {
        if (index == 0) {
            table.printf(
                    Locale.ROOT,
                    ROW,
                    "stage",
                    "conc",
                    "ok",
                    "fail",
                    "dur s",
                    "out tok/s",
                    "req/s",
                    "TTFT p50/p99",
                    "TPOT p50/p99",
                    "ITL p50/p99",
                    "E2E p50",
                    "ach.c",
                    "lag p99",
                    "SLO att");
            table.flush();
        }
        messages.println(ProgressLine.running(index, stages, stage.name()));
        messages.flush();
    }

    @Override
    public void stageProgress(StagePlan stage, int finishedRequests, double elapsedSeconds) {
        note(
                "%s: %d%s requests finished after %.0f s",
                stage.name(), finishedRequests, stage.requests() > 0 ? "/" + stage.requests() : "", elapsedSeconds);
    }

    @Override
    public void stageFinished(StageReport report, int finishedStages, int stages) {
        table.printf(
                Locale.ROOT,
                ROW,
                report.name(),
                report.maxConcurrency() != null ? report.maxConcurrency() : "-",
                report.completed(),
                report.failed(),
                fixed(report.durationSeconds()),
                fixed(report.outputThroughput()),
                String.format(Locale.ROOT, "%.2f", report.requestThroughput()),
                pair(report.latency(StageReport.TTFT)),
                pair(report.latency(StageReport.TPOT)),
                pair(report.latency(StageReport.ITL)),
                report.latency(StageReport.E2E) == null
                        ? "-"
                        : fixed(report.latency(StageReport.E2E).median()),
                fixed(report.achievedConcurrency()),
                fixed(report.clientLagP99Millis()),
                report.sloAttainment() == null ? "-" : String.format(Locale.ROOT, "%.3f", report.sloAttainment()));
        table.flush();
        report.warnings().forEach(warning -> messages.println("warning: " + warning));
        report.errors()
                .forEach((failure, message) -> messages.println(report.name() + ": " + failure + " × "
                        + report.failures().get(failure) + ", e.g.: " + message));
        if (finishedStages == stages) {
            messages.println(ProgressLine.finished(stages));
        }
        messages.flush();
    }

    @Override
    public void capacityFound(CapacityReport capacity) {
        String load = capacity.maxConcurrency() != null
                ? capacity.maxConcurrency() + (capacity.maxConcurrency() == 1 ? " stream" : " streams")
                : capacity.maxRequestRate() != null ? fixed(capacity.maxRequestRate()) + " req/s" : "none";
        table.printf(
                Locale.ROOT,
                "capacity: %s (%s after %d probes)",
                load,
                capacity.outcome(),
                capacity.probes().size());
        if (capacity.outputThroughput() != null) {
            table.printf(
                    Locale.ROOT,
                    "; there %s out tok/s, SLO attainment %.3f",
                    fixed(capacity.outputThroughput()),
                    capacity.sloAttainment());
        }
        table.println();
        if (capacity.reason() != null) {
            table.println("  " + capacity.reason());
        }
        table.flush();
    }

    private void note(String format, Object... args) {
        messages.printf(Locale.ROOT, format + "%n", args);
        messages.flush();
    }

    private static String pair(LatencySummary summary) {
        return summary == null ? "-" : fixed(summary.median()) + "/" + fixed(summary.p99());
    }

    private static String fixed(double value) {
        return String.format(Locale.ROOT, value >= 100 ? "%.0f" : "%.1f", value);
    }
}
