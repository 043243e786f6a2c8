package dev.llmops.serving.report;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A BenchmarkRun as CSV for spreadsheets (RFC 4180): one row per stage with its load, throughput, errors, the
 * per-request latency percentiles and the prefix cache's figures, in full precision; an empty cell where the stage did
 * not measure a figure.
 */
public final class CsvReport {

    private static final String CRLF = "\r\n";
    private static final String FORMULA_STARTS = "=+-@\t\r";

    private CsvReport() {}

    public static String render(BenchmarkRun run) {
        List<String> header = new ArrayList<>(List.of("run"));
        header.addAll(stageHeader());
        StringBuilder csv = new StringBuilder(line(header));
        String name = HtmlReport.name(run);
        for (StageResult stage : run.getStatus().stages) {
            List<String> cells = new ArrayList<>(List.of(text(name)));
            cells.addAll(stageCells(stage));
            csv.append(line(cells));
        }
        return csv.toString();
    }

    /** The columns of a stage: its load, throughput, errors, latency percentiles and prefix cache. */
    static List<String> stageHeader() {
        List<String> header = new ArrayList<>(List.of(
                "stage",
                "concurrency",
                "request_rate",
                "achieved_concurrency",
                "achieved_request_rate",
                "completed",
                "failed",
                "duration_s",
                "requests_per_s",
                "output_tokens_per_s",
                "total_tokens_per_s"));
        for (Stages.Latency latency : Stages.Latency.values()) {
            for (Stages.Percentile percentile : Stages.Percentile.values()) {
                header.add(latency.label.toLowerCase() + "_" + percentile.label + "_ms");
            }
        }
        header.addAll(List.of("cached_prompt_share", "cache_hit_rate"));
        return header;
    }

    /** A stage's cells, matching {@link #stageHeader}. */
    static List<String> stageCells(StageResult stage) {
        List<String> cells = new ArrayList<>(List.of(
                text(stage.name),
                figure(stage.requestRate == null ? stage.concurrency : null),
                figure(stage.requestRate),
                figure(stage.achievedConcurrency),
                figure(stage.achievedRequestRate),
                figure(stage.completed),
                figure(stage.failed),
                figure(stage.durationSeconds),
                figure(stage.requestsPerSecond),
                figure(stage.outputTokensPerSecond),
                figure(stage.totalTokensPerSecond)));
        for (Stages.Latency latency : Stages.Latency.values()) {
            for (Stages.Percentile percentile : Stages.Percentile.values()) {
                cells.add(figure(Stages.percentile(latency.stats.apply(stage), percentile)));
            }
        }
        cells.add(figure(stage.cachedPromptShare));
        cells.add(figure(stage.cacheHitRate));
        return cells;
    }

    static String line(List<String> cells) {
        return cells.stream().map(CsvReport::field).collect(Collectors.joining(",")) + CRLF;
    }

    /** A field quoted when it holds a comma, a quote or a line break, its quotes doubled (RFC 4180). */
    static String field(String value) {
        if (value.contains(",") || value.contains("\"") || value.contains("\r") || value.contains("\n")) {
            return '"' + value.replace("\"", "\"\"") + '"';
        }
        return value;
    }

    /**
     * Outside text cut to a readable length; a leading =, +, -, @, tab or carriage return (OWASP's list for CSV
     * injection) gets a quote mark so a spreadsheet shows it rather than running it as a formula.
     */
    static String text(String value) {
        if (value == null) {
            return "";
        }
        String bounded = Format.bounded(value);
        return !bounded.isEmpty() && FORMULA_STARTS.indexOf(bounded.charAt(0)) >= 0 ? "'" + bounded : bounded;
    }

    static String figure(Number value) {
        return value == null ? "" : value.toString();
    }
}
