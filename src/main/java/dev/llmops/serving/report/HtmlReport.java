package dev.llmops.serving.report;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkSummary;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A BenchmarkRun (and optionally its baseline) in any phase as one HTML file with inline charts: no scripts, no
 * external files, nothing wider than a laptop screen.
 */
public final class HtmlReport {

    static final String STYLE = """
            body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem auto;max-width:1400px;\
            color:#222;padding:0 1rem;overflow-wrap:anywhere}
            h1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ddd}
            .meta{color:#555}.meta span{display:inline-block}.table{overflow-x:auto}
            table{border-collapse:collapse;margin:.5rem 0;font-size:.9rem}
            th,td{border:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}th{background:#f4f4f4}
            .text{width:100%;table-layout:fixed}.text td{white-space:pre-line}
            .conditions th:first-child{width:22%}.conditions th:nth-child(2){width:15%}
            .provenance th:first-child{width:12%}
            .figures{font-size:.85rem;font-variant-numeric:tabular-nums}
            .figures th,.figures td{overflow-wrap:normal}.figures td:first-child{overflow-wrap:anywhere}
            .figures th:not(:first-child),.figures td:not(:first-child){text-align:right}
            .figures.verdicts th:nth-child(2),.figures.verdicts td:nth-child(2){text-align:left}
            .charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,480px),1fr));gap:1rem}
            .chart{width:100%;height:auto}.chart text{font-size:12px;fill:#333}
            .chart .chart-title{font-size:14px;font-weight:600}
            .chart .grid{stroke:#e5e5e5}.chart .axis{stroke:#888}.warning{color:#8a4b00}.phase-Failed{color:#b00020}
            """;

    private HtmlReport() {}

    /** Renders the candidate run; with a baseline, both runs share the charts and a comparison table is added. */
    public static String render(BenchmarkRun candidate, Optional<BenchmarkRun> baseline) {
        List<BenchmarkRun> runs = new ArrayList<>();
        runs.add(candidate);
        baseline.ifPresent(runs::add);

        String title = "BenchmarkRun " + name(candidate)
                + baseline.map(b -> " vs " + name(b)).orElse("");
        StringBuilder html = page(title, "").append(meta(candidate));
        runs.forEach(run -> html.append(HtmlRunStatus.of(run)));

        if (runs.stream().anyMatch(run -> !run.getStatus().stages.isEmpty())) {
            html.append("<h2>Summary</h2>").append(summaryTable(runs));
            List<Comparison> comparisons = Comparison.recorded(candidate, baseline);
            comparisons.forEach(c -> html.append(comparison(c)));
            baseline.flatMap(b -> Comparison.notRecorded(candidate, b, comparisons))
                    .ifPresent(note -> html.append("<p class=\"warning\">")
                            .append(Html.text(note))
                            .append("</p>"));
            html.append(verdicts(candidate));
            html.append(goodput(runs));
            html.append(charts(runs));
        }
        runs.forEach(run -> html.append(HtmlStages.of(run)));
        html.append("<h2>Provenance</h2>").append(provenanceTable(runs));
        return html.append("</body></html>").toString();
    }

    static String name(BenchmarkRun run) {
        return run.getMetadata().getName();
    }

    /** A report page up to its heading: the title (bounded and escaped), the shared style and {@code extraStyle}. */
    static StringBuilder page(String title, String extraStyle) {
        return new StringBuilder("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>")
                .append(Html.text(title))
                .append("</title><style>")
                .append(STYLE)
                .append(extraStyle)
                .append("</style></head><body><h1>")
                .append(Html.text(title))
                .append("</h1>");
    }

    /** Where and how far the run went, each item kept on one line so a timestamp is not split at its dashes. */
    private static String meta(BenchmarkRun run) {
        BenchmarkRunStatus status = run.getStatus();
        String phase = status.phase == null ? Format.MISSING : status.phase.name();
        return "<p class=\"meta\">"
                + String.join(
                        " · ",
                        "<span>Namespace "
                                + Html.text(Format.orMissing(run.getMetadata().getNamespace())) + "</span>",
                        "<span>target " + Html.text(Format.orMissing(status.target)) + "</span>",
                        "<span>phase <strong class=\"phase-" + phase + "\">" + phase + "</strong></span>",
                        "<span>progress " + Html.text(Format.orMissing(status.progress)) + "</span>",
                        "<span>started " + Html.text(Format.orMissing(status.startTime)) + "</span>",
                        "<span>finished " + Html.text(Format.orMissing(status.completionTime)) + "</span>")
                + "</p>";
    }

    private static String charts(List<BenchmarkRun> runs) {
        StringBuilder html = new StringBuilder("<h2>Charts</h2><div class=\"charts\">");
        html.append(SvgLineChart.render(
                "Output throughput vs concurrency",
                "output tokens/s",
                "tok/s",
                runSeries(runs, s -> s.outputTokensPerSecond)));
        for (Stages.Latency latency : Stages.Latency.values()) {
            html.append(SvgLineChart.render(
                    latency.title + " vs concurrency", latency.label + " (ms)", "ms", percentileSeries(runs, latency)));
        }
        List<SvgCurveChart.Curve> curves = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            curves.add(Goodput.curve(runs.get(i), name(runs.get(i)), i));
        }
        html.append(SvgCurveChart.render(
                "Latency–throughput: tok/s per user vs total tok/s",
                "total tokens/s (input + output)",
                "output tokens/s per user (1000 / TPOT p50)",
                curves));
        return html.append("</div>").toString();
    }

    /** The capacity a search found (one column per run) and each run's stages with goodput or a request rate. */
    private static String goodput(List<BenchmarkRun> runs) {
        StringBuilder html = new StringBuilder();
        if (Goodput.anyCapacity(runs)) {
            List<String> headers = new ArrayList<>(List.of(""));
            runs.forEach(run -> headers.add(name(run)));
            HtmlTable table = new HtmlTable(HtmlTable.Kind.FIGURES, headers.toArray(String[]::new));
            Goodput.capacityRows(runs).forEach(table::row);
            html.append("<h2>Capacity under the SLO</h2>").append(table.html());
        }
        for (BenchmarkRun run : runs) {
            List<String[]> rows = Goodput.stageRows(run);
            if (!rows.isEmpty()) {
                HtmlTable table = new HtmlTable(HtmlTable.Kind.FIGURES, Goodput.STAGE_HEADERS);
                rows.forEach(table::row);
                html.append("<h2>Goodput and schedule of ")
                        .append(Html.escape(name(run)))
                        .append("</h2>")
                        .append(table.html());
            }
        }
        return html.toString();
    }

    private static List<Series> runSeries(List<BenchmarkRun> runs, Function<StageResult, Double> value) {
        List<Series> series = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            series.add(Stages.series(runs.get(i), name(runs.get(i)), i, Series.LineStyle.SOLID, value));
        }
        return series;
    }

    private static List<Series> percentileSeries(List<BenchmarkRun> runs, Stages.Latency latency) {
        List<Series> series = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            for (Stages.Percentile p : Stages.Percentile.values()) {
                series.add(Stages.series(
                        runs.get(i),
                        name(runs.get(i)) + " " + p.label,
                        i,
                        p.style,
                        s -> Stages.percentile(latency.stats.apply(s), p)));
            }
        }
        return series;
    }

    private static String summaryTable(List<BenchmarkRun> runs) {
        HtmlTable table = new HtmlTable(
                HtmlTable.Kind.FIGURES,
                "Run",
                "Single-stream tok/s",
                "Peak tok/s",
                "At concurrency",
                "Knee",
                "Failed requests",
                "SLO broken at");
        for (BenchmarkRun run : runs) {
            BenchmarkSummary s = Optional.ofNullable(run.getStatus().summary).orElseGet(BenchmarkSummary::new);
            table.row(
                    name(run),
                    Format.number(s.singleStreamTokensPerSecond),
                    Format.number(s.peakTokensPerSecond),
                    Format.integer(s.peakConcurrency) + Format.peakRule(s.peakRule),
                    Format.integer(s.kneeConcurrency),
                    Format.integer(s.failedRequests),
                    Format.integer(run.getStatus().sloBrokenAtConcurrency));
        }
        return table.html();
    }

    /** The comparison's table, then what the paired samples say: intervals, verdicts, acceptance, agreement. */
    private static String comparison(Comparison c) {
        String baseline = (c.reference() ? "reference " : "") + Format.orMissing(c.baseline());
        String of = c.ofCandidate() ? "" : " of " + c.run();
        StringBuilder html = new StringBuilder("<h2>")
                .append(Html.escape((c.ofCandidate() ? "Compared with " : c.run() + " compared with ") + baseline))
                .append("</h2>");
        html.append(headline(c));
        if (!c.stages().isEmpty()) {
            html.append(comparisonTable(c));
        }
        if (c.message() != null) {
            html.append("<p class=\"warning\">").append(Html.text(c.message())).append("</p>");
        }
        if (c.paired() || c.acceptanceMeasured()) {
            HtmlTable table = new HtmlTable(
                    c.paired() ? HtmlTable.Kind.VERDICTS : HtmlTable.Kind.FIGURES,
                    Verdicts.pairedHeaders(c).toArray(String[]::new));
            c.stages().forEach(s -> table.row(Verdicts.pairedRow(c, s)));
            html.append("<h2>")
                    .append(Html.escape("Paired per request" + of + " against " + Format.orMissing(c.baseline())))
                    .append("</h2>")
                    .append(table.html());
        }
        List<SvgSpeedupChart.Bar> bars = Verdicts.bars(c);
        if (!bars.isEmpty()) {
            html.append("<div class=\"charts\">")
                    .append(SvgSpeedupChart.render(
                            "Paired per-stream speedup" + of + " over " + Format.orMissing(c.baseline())
                                    + " (95 % interval)",
                            "speedup (×)",
                            bars))
                    .append("</div>");
        }
        if (c.quality() != null) {
            html.append("<p>").append(Html.text(Verdicts.quality(c.quality()))).append("</p>");
        }
        return html.toString();
    }

    /** The run's Regressed, Improved and QualitySuspect conditions, when it has any. */
    private static String verdicts(BenchmarkRun run) {
        List<Condition> conditions = Verdicts.conditions(run);
        if (conditions.isEmpty()) {
            return "";
        }
        HtmlTable table = new HtmlTable(HtmlTable.Kind.CONDITIONS, "Verdict", "Reason", "Message");
        for (Condition c : conditions) {
            table.row(
                    Format.orMissing(c.getType()) + " " + Format.orMissing(c.getStatus()),
                    Format.orMissing(c.getReason()),
                    Format.orMissing(c.getMessage()));
        }
        return "<h2>Verdicts of " + Html.escape(name(run)) + "</h2>" + table.html();
    }

    /** The headline speedups, and the capacities' when both runs searched for one. */
    private static String headline(Comparison c) {
        StringBuilder html = new StringBuilder("<p>Single-stream tok/s ratio <strong>")
                .append(Format.speedup(c.singleStreamSpeedup()))
                .append("</strong> · aggregate throughput ratio (peak tok/s) <strong>")
                .append(Format.speedup(c.peakThroughputSpeedup()))
                .append("</strong>");
        if (c.capacitySpeedup() != null || c.baselineCapacity() != null) {
            html.append(" · capacity speedup <strong>")
                    .append(Format.speedup(c.capacitySpeedup()))
                    .append("</strong> (capacity of ")
                    .append(Html.escape(Format.orMissing(c.baseline())))
                    .append(": ")
                    .append(Html.text(Format.orMissing(c.baselineCapacity())))
                    .append(')');
        }
        return html.append("</p>").toString();
    }

    private static String comparisonTable(Comparison c) {
        if (!c.baselineGiven()) {
            HtmlTable table = new HtmlTable(
                    HtmlTable.Kind.FIGURES,
                    "Stage",
                    "Concurrency",
                    "Output tok/s",
                    c.throughputFigureName(),
                    "TTFT p50 speedup",
                    "TPOT p50 speedup");
            for (Comparison.Stage s : c.stages()) {
                table.row(
                        s.name(),
                        Format.integer(s.concurrency()),
                        Format.number(s.candidateTokensPerSecond()),
                        Format.speedup(s.throughputSpeedup()),
                        Format.speedup(s.ttftP50Speedup()),
                        Format.speedup(s.tpotP50Speedup()));
            }
            return table.html();
        }
        HtmlTable table = new HtmlTable(
                HtmlTable.Kind.FIGURES,
                "Stage",
                "Concurrency",
                "Baseline tok/s",
                "Candidate tok/s",
                c.throughputFigureName(),
                "Baseline TTFT p50 (ms)",
                "Candidate TTFT p50 (ms)",
                "TTFT speedup",
                "Baseline TPOT p50 (ms)",
                "Candidate TPOT p50 (ms)",
                "TPOT speedup");
        for (Comparison.Stage s : c.stages()) {
            table.row(
                    s.name(),
                    Format.integer(s.concurrency()),
                    Format.number(s.baselineTokensPerSecond()),
                    Format.number(s.candidateTokensPerSecond()),
                    Format.speedup(s.throughputSpeedup()),
                    Format.number(s.baselineTtftP50()),
                    Format.number(s.candidateTtftP50()),
                    Format.speedup(s.ttftP50Speedup()),
                    Format.number(s.baselineTpotP50()),
                    Format.number(s.candidateTpotP50()),
                    Format.speedup(s.tpotP50Speedup()));
        }
        return table.html();
    }

    /**
     * One column per run, one row per field, so long image names and command lines wrap instead of widening the page.
     */
    private static String provenanceTable(List<BenchmarkRun> runs) {
        List<String> headers = new ArrayList<>(List.of("Run"));
        runs.forEach(run -> headers.add(name(run)));
        HtmlTable table = new HtmlTable(HtmlTable.Kind.PROVENANCE, headers.toArray(String[]::new));
        List<List<ProvenanceFields.Field>> fields =
                runs.stream().map(ProvenanceFields::of).toList();
        for (int row = 0; row < fields.get(0).size(); row++) {
            List<String> cells = new ArrayList<>(List.of(fields.get(0).get(row).label()));
            for (List<ProvenanceFields.Field> run : fields) {
                cells.add(run.get(row).value());
            }
            table.row(cells.toArray(String[]::new));
        }
        return table.html();
    }
}
