package dev.llmops.serving.report;

import dev.llmops.serving.api.v1alpha1.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.BenchmarkSummary;
import dev.llmops.serving.api.v1alpha1.LatencyStats;
import dev.llmops.serving.api.v1alpha1.Provenance;
import dev.llmops.serving.api.v1alpha1.SingleRequestResult;
import dev.llmops.serving.api.v1alpha1.StageResult;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** A BenchmarkRun (and optionally its baseline) as one HTML file with inline charts: no scripts, no external files. */
public final class HtmlReport {

    private static final String STYLE = """
            body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem auto;max-width:1100px;color:#222;padding:0 1rem}
            h1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ddd}
            .meta{color:#555}.table{overflow-x:auto}table{border-collapse:collapse;margin:.5rem 0;font-size:.9rem}
            th,td{border:1px solid #ddd;padding:.3rem .6rem;text-align:right}th{background:#f4f4f4}
            td:first-child,th:first-child{text-align:left}.charts{display:flex;flex-wrap:wrap;gap:1rem}
            .chart text{font-size:12px;fill:#333}.chart .chart-title{font-size:14px;font-weight:600}
            .chart .grid{stroke:#e5e5e5}.chart .axis{stroke:#888}.warning{color:#8a4b00}
            """;

    private HtmlReport() {
    }

    /** Renders the candidate run; with a baseline, both runs share the charts and a comparison table is added. */
    public static String render(BenchmarkRun candidate, Optional<BenchmarkRun> baseline) {
        List<BenchmarkRun> runs = new ArrayList<>();
        runs.add(candidate);
        baseline.ifPresent(runs::add);
        Optional<Comparison> comparison = Comparison.of(candidate, baseline);

        StringBuilder html = new StringBuilder();
        String title = "BenchmarkRun " + name(candidate) + baseline.map(b -> " vs " + name(b)).orElse("");
        html.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>").append(Html.escape(title))
                .append("</title><style>").append(STYLE).append("</style></head><body>");
        html.append("<h1>").append(Html.escape(title)).append("</h1>");
        html.append(meta(candidate));

        html.append("<h2>Summary</h2>").append(summaryTable(runs));
        comparison.ifPresent(c -> html.append("<h2>Compared with ").append(Html.escape(c.baseline())).append("</h2>")
                .append(comparisonTable(c)));

        html.append("<h2>Charts</h2><div class=\"charts\">");
        html.append(SvgLineChart.render("Output throughput vs concurrency", "output tokens/s", "tok/s",
                runSeries(runs, s -> s.outputTokensPerSecond)));
        html.append(SvgLineChart.render("Time to first token vs concurrency", "TTFT (ms)", "ms",
                percentileSeries(runs, s -> s.ttftMillis)));
        html.append(SvgLineChart.render("Time per output token vs concurrency", "TPOT (ms)", "ms",
                percentileSeries(runs, s -> s.tpotMillis)));
        html.append("</div>");

        for (BenchmarkRun run : runs) {
            html.append("<h2>Stages of ").append(Html.escape(name(run))).append("</h2>").append(stageTable(run));
            if (!run.getStatus().singleRequests.isEmpty()) {
                html.append("<h2>Single requests of ").append(Html.escape(name(run))).append("</h2>").append(singleRequestTable(run));
            }
        }
        html.append("<h2>Provenance</h2>").append(provenanceTable(runs));
        for (BenchmarkRun run : runs) {
            html.append(warningsAndConditions(run));
        }
        return html.append("</body></html>").toString();
    }

    static String name(BenchmarkRun run) {
        return run.getMetadata().getName();
    }

    private static String meta(BenchmarkRun run) {
        BenchmarkRunStatus status = run.getStatus();
        return "<p class=\"meta\">Namespace " + Html.escape(run.getMetadata().getNamespace())
                + " · target " + Html.escape(status.target)
                + " · phase " + Html.escape(status.phase == null ? Format.MISSING : status.phase.name())
                + " · started " + Html.escape(status.startTime == null ? Format.MISSING : status.startTime)
                + " · finished " + Html.escape(status.completionTime == null ? Format.MISSING : status.completionTime)
                + "</p>";
    }

    private static List<Series> runSeries(List<BenchmarkRun> runs, Function<StageResult, Double> value) {
        List<Series> series = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            series.add(Stages.series(runs.get(i), name(runs.get(i)), i, Series.LineStyle.SOLID, value));
        }
        return series;
    }

    private static List<Series> percentileSeries(List<BenchmarkRun> runs,
                                                 Function<StageResult, LatencyStats> metric) {
        List<Series> series = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            for (Stages.Percentile p : Stages.Percentile.values()) {
                series.add(Stages.series(runs.get(i), name(runs.get(i)) + " " + p.label, i, p.style,
                        s -> Stages.percentile(metric.apply(s), p)));
            }
        }
        return series;
    }

    private static String summaryTable(List<BenchmarkRun> runs) {
        Table table = new Table("Run", "Single-stream tok/s", "Peak tok/s", "At concurrency", "Knee", "Failed requests", "SLO broken at");
        for (BenchmarkRun run : runs) {
            BenchmarkSummary s = Optional.ofNullable(run.getStatus().summary).orElseGet(BenchmarkSummary::new);
            table.row(name(run), Format.number(s.singleStreamTokensPerSecond), Format.number(s.peakTokensPerSecond),
                    Format.integer(s.peakConcurrency), Format.integer(s.kneeConcurrency), Format.integer(s.failedRequests),
                    Format.integer(run.getStatus().sloBrokenAtConcurrency));
        }
        return table.html();
    }

    private static String comparisonTable(Comparison c) {
        StringBuilder html = new StringBuilder("<p>Single-stream speedup <strong>").append(Format.speedup(c.singleStreamSpeedup()))
                .append("</strong> · peak throughput speedup <strong>").append(Format.speedup(c.peakThroughputSpeedup()))
                .append("</strong></p>");
        if (!c.baselineMeasured()) {
            Table table = new Table("Stage", "Concurrency", "Output tok/s", "Throughput speedup", "TTFT p50 speedup");
            for (Comparison.Stage s : c.stages()) {
                table.row(s.name(), Format.integer(s.concurrency()), Format.number(s.candidateTokensPerSecond()),
                        Format.speedup(s.throughputSpeedup()), Format.speedup(s.ttftP50Speedup()));
            }
            return html.append(table.html()).toString();
        }
        Table table = new Table("Stage", "Concurrency", "Baseline tok/s", "Candidate tok/s", "Throughput speedup",
                "Baseline TTFT p50 (ms)", "Candidate TTFT p50 (ms)", "TTFT speedup", "Baseline TPOT p50 (ms)", "Candidate TPOT p50 (ms)");
        for (Comparison.Stage s : c.stages()) {
            table.row(s.name(), Format.integer(s.concurrency()), Format.number(s.baselineTokensPerSecond()),
                    Format.number(s.candidateTokensPerSecond()), Format.speedup(s.throughputSpeedup()),
                    Format.number(s.baselineTtftP50()), Format.number(s.candidateTtftP50()), Format.speedup(s.ttftP50Speedup()),
                    Format.number(s.baselineTpotP50()), Format.number(s.candidateTpotP50()));
        }
        return html.append(table.html()).toString();
    }

    private static String stageTable(BenchmarkRun run) {
        Table table = new Table("Stage", "Concurrency", "Achieved", "Completed", "Failed", "Output tok/s", "Total tok/s", "Req/s",
                "TTFT p50", "TTFT p90", "TTFT p99", "TPOT p50", "TPOT p90", "TPOT p99", "ITL p50", "E2E p50 (ms)");
        for (StageResult s : Stages.ordered(run)) {
            table.row(s.name, Format.integer(s.concurrency), Format.number(s.achievedConcurrency), Format.integer(s.completed),
                    Format.integer(s.failed), Format.number(s.outputTokensPerSecond), Format.number(s.totalTokensPerSecond),
                    Format.hundredths(s.requestsPerSecond),
                    Format.number(Stages.percentile(s.ttftMillis, Stages.Percentile.P50)),
                    Format.number(Stages.percentile(s.ttftMillis, Stages.Percentile.P90)),
                    Format.number(Stages.percentile(s.ttftMillis, Stages.Percentile.P99)),
                    Format.number(Stages.percentile(s.tpotMillis, Stages.Percentile.P50)),
                    Format.number(Stages.percentile(s.tpotMillis, Stages.Percentile.P90)),
                    Format.number(Stages.percentile(s.tpotMillis, Stages.Percentile.P99)),
                    Format.number(Stages.percentile(s.itlMillis, Stages.Percentile.P50)),
                    Format.number(Stages.percentile(s.e2eMillis, Stages.Percentile.P50)));
        }
        return "<p class=\"meta\">Latencies in milliseconds.</p>" + table.html();
    }

    private static String singleRequestTable(BenchmarkRun run) {
        Table table = new Table("Prompt", "Output tokens", "tok/s", "TTFT (ms)", "E2E (ms)");
        for (SingleRequestResult r : run.getStatus().singleRequests) {
            table.row(r.prompt, Format.integer(r.outputTokens), Format.number(r.tokensPerSecond), Format.number(r.ttftMillis),
                    Format.number(r.e2eMillis));
        }
        return table.html();
    }

    private static String provenanceTable(List<BenchmarkRun> runs) {
        Table table = new Table("Run", "Model", "Image", "GPU", "GPUs", "Driver", "Runner", "Server arguments");
        for (BenchmarkRun run : runs) {
            Provenance p = Optional.ofNullable(run.getStatus().provenance).orElseGet(Provenance::new);
            table.row(name(run), orMissing(p.model), orMissing(p.image), orMissing(p.gpuProduct), Format.integer(p.gpuCount),
                    orMissing(p.driverVersion), orMissing(p.runnerVersion), String.join(" ", p.serverArgs));
        }
        return table.html();
    }

    private static String warningsAndConditions(BenchmarkRun run) {
        StringBuilder html = new StringBuilder();
        BenchmarkRunStatus status = run.getStatus();
        if (!status.warnings.isEmpty()) {
            html.append("<h2>Warnings of ").append(Html.escape(name(run))).append("</h2><ul>");
            status.warnings.forEach(w -> html.append("<li class=\"warning\">").append(Html.escape(w)).append("</li>"));
            html.append("</ul>");
        }
        if (!status.conditions.isEmpty()) {
            Table table = new Table("Condition", "Status", "Reason", "Message");
            for (Condition c : status.conditions) {
                table.row(c.getType(), c.getStatus(), c.getReason(), c.getMessage());
            }
            html.append("<h2>Conditions of ").append(Html.escape(name(run))).append("</h2>").append(table.html());
        }
        return html.toString();
    }

    private static String orMissing(String value) {
        return value == null || value.isBlank() ? Format.MISSING : value;
    }

    /** An HTML table built row by row, every cell escaped. */
    private static final class Table {
        private final StringBuilder html = new StringBuilder("<div class=\"table\"><table><thead><tr>");

        Table(String... headers) {
            for (String header : headers) {
                html.append("<th>").append(Html.escape(header)).append("</th>");
            }
            html.append("</tr></thead><tbody>");
        }

        void row(String... cells) {
            html.append("<tr>");
            for (String cell : cells) {
                html.append("<td>").append(Html.escape(cell)).append("</td>");
            }
            html.append("</tr>");
        }

        String html() {
            return html + "</tbody></table></div>";
        }
    }
}
