package dev.llmops.serving.report;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageSpeedup;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * A target's history as report history renders it: an HTML page with a time-series chart per figure (throughput,
 * TTFT and TPOT percentiles, acceptance length) and a table of the runs with their verdicts and server changes, or CSV
 * with one row per run and stage, for a spreadsheet's own charts.
 */
public final class HistoryReport {

    /** A figure of a stage drawn over time. */
    private record Figure(String title, String yLabel, String unit, Function<StageResult, Double> value) {}

    private static final List<Figure> FIGURES = List.of(
            new Figure("Output throughput", "output tokens/s", "tok/s", stage -> stage.outputTokensPerSecond),
            new Figure("TTFT p50", "ms", "ms", stage -> Stages.percentile(stage.ttftMillis, Stages.Percentile.P50)),
            new Figure("TTFT p99", "ms", "ms", stage -> Stages.percentile(stage.ttftMillis, Stages.Percentile.P99)),
            new Figure("TPOT p50", "ms", "ms", stage -> Stages.percentile(stage.tpotMillis, Stages.Percentile.P50)),
            new Figure("Acceptance length", "accepted tokens per step", "", stage -> stage.specAcceptLength));

    private HistoryReport() {}

    public static String html(RunHistory history) {
        String title = "History of " + history.target();
        StringBuilder html = HtmlReport.page(title, "")
                .append("<p class=\"meta\">")
                .append(history.entries().size())
                .append(" succeeded runs, ")
                .append(history.entries().get(0).finished())
                .append(" to ")
                .append(history.entries().get(history.entries().size() - 1).finished())
                .append(". A red triangle marks a run that regressed against its reference, a green one a run that"
                        + " improved; a dashed line, a change of the server's image or arguments.</p>");
        if (!history.leftOut().isEmpty()) {
            html.append("<p class=\"warning\">Left out: ")
                    .append(Html.text(String.join("; ", history.leftOut())))
                    .append("</p>");
        }
        List<SvgTimeChart.Change> changes = history.entries().stream()
                .filter(entry -> !entry.changes().isEmpty())
                .map(entry -> new SvgTimeChart.Change(entry.finished(), String.join("; ", entry.changes())))
                .toList();
        html.append("<div class=\"charts\">");
        for (Figure figure : FIGURES) {
            List<SvgTimeChart.Line> lines = lines(history, figure.value());
            if (!lines.isEmpty()) {
                html.append(SvgTimeChart.render(figure.title(), figure.yLabel(), figure.unit(), lines, changes));
            }
        }
        html.append("</div>");

        List<String> headers = new ArrayList<>(List.of("Finished", "Run", "Verdict", "Server changes"));
        history.stages().forEach(stage -> headers.add(stage + " tok/s (vs reference, 95 % interval)"));
        HtmlTable table = new HtmlTable(HtmlTable.Kind.VERDICTS, headers.toArray(String[]::new));
        for (RunHistory.Entry entry : history.entries()) {
            List<String> cells = new ArrayList<>(List.of(
                    entry.finished().toString(),
                    entry.run(),
                    entry.verdict().orElse("—"),
                    entry.changes().isEmpty() ? "—" : String.join("; ", entry.changes())));
            for (String stage : history.stages()) {
                StageResult result = entry.stages().get(stage);
                cells.add(
                        result == null || result.outputTokensPerSecond == null
                                ? "—"
                                : SvgFrame.format(result.outputTokensPerSecond)
                                        + speedup(entry.speedups().get(stage)));
            }
            table.row(cells.toArray(String[]::new));
        }
        return html.append("<h2>Runs</h2>")
                .append(table.html())
                .append("</body></html>")
                .toString();
    }

    public static String csv(RunHistory history) {
        List<String> header = new ArrayList<>(List.of("finished", "run", "target", "image", "verdict", "changes"));
        header.addAll(CsvReport.stageHeader());
        header.addAll(List.of(
                "spec_accept_length",
                "reference_throughput_speedup",
                "reference_interval_low",
                "reference_interval_high",
                "reference_verdict"));
        StringBuilder csv = new StringBuilder(CsvReport.line(header));
        for (RunHistory.Entry entry : history.entries()) {
            for (StageResult stage : entry.stages().values()) {
                List<String> cells = new ArrayList<>(List.of(
                        entry.finished().toString(),
                        CsvReport.text(entry.run()),
                        CsvReport.text(history.target()),
                        CsvReport.text(Objects.toString(entry.image(), "")),
                        entry.verdict().orElse(""),
                        CsvReport.text(String.join("; ", entry.changes()))));
                cells.addAll(CsvReport.stageCells(stage));
                StageSpeedup speedup = entry.speedups().get(stage.name);
                cells.add(CsvReport.figure(stage.specAcceptLength));
                cells.add(CsvReport.figure(speedup == null ? null : speedup.throughputSpeedup));
                cells.add(CsvReport.figure(
                        speedup == null || speedup.throughputSpeedupInterval == null
                                ? null
                                : speedup.throughputSpeedupInterval.low));
                cells.add(CsvReport.figure(
                        speedup == null || speedup.throughputSpeedupInterval == null
                                ? null
                                : speedup.throughputSpeedupInterval.high));
                cells.add(speedup == null || speedup.verdict == null ? "" : speedup.verdict.name());
                csv.append(CsvReport.line(cells));
            }
        }
        return csv.toString();
    }

    private static List<SvgTimeChart.Line> lines(RunHistory history, Function<StageResult, Double> value) {
        List<SvgTimeChart.Line> lines = new ArrayList<>();
        for (String stage : history.stages()) {
            List<SvgTimeChart.Point> points = new ArrayList<>();
            for (RunHistory.Entry entry : history.entries()) {
                StageResult result = entry.stages().get(stage);
                Double figure = result == null ? null : value.apply(result);
                if (figure != null) {
                    points.add(new SvgTimeChart.Point(
                            entry.finished(),
                            figure,
                            entry.run(),
                            entry.verdict().orElse(null)));
                }
            }
            if (!points.isEmpty()) {
                lines.add(new SvgTimeChart.Line(stage, points));
            }
        }
        return lines;
    }

    /** " (0.93× [0.90, 0.96])": the stage's paired throughput speedup over the reference, when compared. */
    private static String speedup(StageSpeedup speedup) {
        if (speedup == null || speedup.throughputSpeedup == null) {
            return "";
        }
        String interval = speedup.throughputSpeedupInterval == null
                ? ""
                : " [" + SvgFrame.format(speedup.throughputSpeedupInterval.low) + ", "
                        + SvgFrame.format(speedup.throughputSpeedupInterval.high) + "]";
        return " (" + SvgFrame.format(speedup.throughputSpeedup) + "×" + interval + ")";
    }
}
