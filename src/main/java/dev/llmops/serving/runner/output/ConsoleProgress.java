package dev.llmops.serving.runner.output;

import dev.llmops.serving.api.contract.ProgressLine;
import dev.llmops.serving.api.contract.QualityOutput;
import dev.llmops.serving.runner.BenchmarkListener;
import dev.llmops.serving.runner.plan.StagePlan;
import dev.llmops.serving.runner.statistics.LatencySummary;
import dev.llmops.serving.runner.transport.RequestResult;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Prints a run for people and for the operator: the results table, a row per finished stage, on one writer; notes,
 * warnings and a {@link ProgressLine} as each stage and the quality stage start and after the last, which the
 * BenchmarkRun controller reads from the pod log, on the other.
 */
public final class ConsoleProgress implements BenchmarkListener {

    private static final String QUALITY = "quality";
    /** The columns every table has: counts, throughput, latencies, and what the server reports of itself. */
    private static final List<Column> COLUMNS = List.of(
            new Column("stage", -11, StageReport::name),
            new Column(
                    "conc",
                    6,
                    r -> r.maxConcurrency() == null ? "-" : r.maxConcurrency().toString()),
            new Column("ok", 6, r -> Integer.toString(r.completed())),
            new Column("fail", 5, r -> Integer.toString(r.failed())),
            new Column("dur s", 7, r -> fixed(r.durationSeconds())),
            new Column("out tok/s", 10, r -> fixed(r.outputThroughput())),
            new Column("req/s", 7, r -> optional(r.requestThroughput(), "%.2f")),
            new Column("TTFT ms p50/p99", 15, r -> pair(r.latency(StageReport.TTFT))),
            new Column("TPOT ms p50/p99", 15, r -> pair(r.latency(StageReport.TPOT))),
            new Column("ITL ms p50/p99", 15, r -> pair(r.latency(StageReport.ITL))),
            new Column("E2E ms p50", 10, r -> median(r.latency(StageReport.E2E))),
            new Column("ach.conc", 8, r -> fixed(r.achievedConcurrency())),
            new Column("lag ms p99", 10, r -> fixed(r.clientLagP99Millis())),
            new Column("accept len", 10, r -> optional(r.specAcceptLength(), "%.2f")),
            new Column(
                    "cache hit",
                    9,
                    r -> percent(r.server() == null ? null : r.server().cacheHitRate())),
            new Column("cached", 6, r -> percent(r.cachedPromptShare())));
    /** The columns a run with an SLO adds: how many requests met it and what they delivered. */
    private static final List<Column> GOODPUT_COLUMNS = List.of(
            new Column("SLO att", 7, r -> optional(r.sloAttainment(), "%.3f")),
            new Column("good req/s", 10, r -> optional(r.goodputRequestRate(), "%.2f")),
            new Column(
                    "good tok/s",
                    10,
                    r -> r.goodputOutputThroughput() == null ? "-" : fixed(r.goodputOutputThroughput())));

    private final PrintWriter table;
    private final PrintWriter messages;
    private final List<Column> columns;
    /** The stage count when the quality stage ran after the last stage: progress is then finished again after it. */
    private Integer stagesDoneBeforeQuality;

    /** With {@code slo}, the table has the goodput columns as well. */
    public ConsoleProgress(PrintWriter table, PrintWriter messages, boolean slo) {
        this.table = table;
        this.messages = messages;
        this.columns = new ArrayList<>(COLUMNS);
        if (slo) {
            columns.addAll(GOODPUT_COLUMNS);
        }
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
            table.println(String.join(" ", columns.stream().map(Column::header).toList()));
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
        row(report);
        report.warnings().forEach(warning -> messages.println("warning: " + warning));
        report.errors()
                .forEach((failure, message) -> messages.println(report.name() + ": " + failure + " × "
                        + report.failures().get(failure) + ", e.g.: " + message));
        if (finishedStages == stages) {
            messages.println(ProgressLine.finished(stages));
        }
        messages.flush();
    }

    /** A finished run's table at once, its warnings after it: what {@code report merge} shows of merged shards. */
    public void table(BenchmarkReport report) {
        table.println(String.join(" ", columns.stream().map(Column::header).toList()));
        report.stages().forEach(this::row);
        report.warnings().forEach(warning -> messages.println("warning: " + warning));
        messages.flush();
    }

    private void row(StageReport report) {
        table.println(String.join(
                " ", columns.stream().map(column -> column.cell(report)).toList()));
        if (report.turns() != null) {
            report.turns()
                    .forEach(turn -> table.printf(
                            Locale.ROOT,
                            "  turn %-2d %5d done  TTFT p50/p99 %s/%s ms  cached %s%n",
                            turn.turn(),
                            turn.completed(),
                            turn.medianTtftMillis() == null ? "-" : fixed(turn.medianTtftMillis()),
                            turn.p99TtftMillis() == null ? "-" : fixed(turn.p99TtftMillis()),
                            percent(turn.cachedPromptShare())));
        }
        table.flush();
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

    /**
     * A column of the table: its header (with its unit) and how a stage's cell is written; a negative width is
     * left-aligned.
     */
    private record Column(String header, int width, Function<StageReport, String> value) {
        Column {
            header = pad(header, width);
        }

        String cell(StageReport report) {
            return pad(value.apply(report), width);
        }

        private static String pad(String text, int width) {
            return String.format(Locale.ROOT, "%" + width + "s", text);
        }
    }

    /** {@code value} in {@code format}, or "-" when there is none. */
    private static String optional(Double value, String format) {
        return value == null ? "-" : String.format(Locale.ROOT, format, value);
    }

    /** A share from 0 to 1 as a percentage, or "-" when there is none. */
    private static String percent(Double share) {
        return share == null ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * share);
    }

    private static String median(LatencySummary summary) {
        return summary == null ? "-" : fixed(summary.median());
    }

    private static String pair(LatencySummary summary) {
        return summary == null ? "-" : fixed(summary.median()) + "/" + fixed(summary.p99());
    }

    private static String fixed(double value) {
        return String.format(Locale.ROOT, value >= 100 ? "%.0f" : "%.1f", value);
    }
}
