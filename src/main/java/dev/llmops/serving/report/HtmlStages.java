package dev.llmops.serving.report;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.SingleRequestResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import java.util.ArrayList;
import java.util.List;

/**
 * The stages one run finished, as a table of throughput and a table of latencies (one table of both is too wide to read
 * without scrolling), then a table per stage of multi-turn sessions with its turns.
 */
final class HtmlStages {

    private HtmlStages() {}

    /** The run's stage, turn and single-request tables, or a line saying no stage finished. */
    static String of(BenchmarkRun run) {
        String name = Html.escape(HtmlReport.name(run));
        StringBuilder html = new StringBuilder("<h2>Stages of ").append(name).append("</h2>");
        if (run.getStatus().stages.isEmpty()) {
            return html.append("<p>No stage has finished.</p>").toString();
        }
        html.append(throughputTable(run))
                .append("<p class=\"meta\">Latencies in milliseconds.</p>")
                .append(latencyTable(run));
        for (StageResult stage : Stages.withTurns(run)) {
            html.append("<h2>")
                    .append(Html.escape("Turns of " + stage.name + " in " + HtmlReport.name(run)))
                    .append("</h2>")
                    .append(turnTable(stage));
        }
        if (!run.getStatus().singleRequests.isEmpty()) {
            html.append("<h2>Single requests of ").append(name).append("</h2>").append(singleRequestTable(run));
        }
        return html.toString();
    }

    /** Throughput per stage, and each figure the server reported for any stage (acceptance length, prefix cache). */
    private static String throughputTable(BenchmarkRun run) {
        List<Stages.ServerFigure> serverFigures = Stages.serverFigures(run);
        List<String> headers = new ArrayList<>(List.of(
                "Stage", "Concurrency", "Achieved", "Completed", "Failed", "Output tok/s", "Total tok/s", "Req/s"));
        serverFigures.forEach(figure -> headers.add(figure.label));
        HtmlTable table = new HtmlTable(HtmlTable.Kind.FIGURES, headers.toArray(String[]::new));
        for (StageResult s : Stages.ordered(run)) {
            List<String> cells = new ArrayList<>(List.of(
                    s.name,
                    Format.integer(s.concurrency),
                    Format.number(s.achievedConcurrency),
                    Format.integer(s.completed),
                    Format.integer(s.failed),
                    Format.number(s.outputTokensPerSecond),
                    Format.number(s.totalTokensPerSecond),
                    Format.hundredths(s.requestsPerSecond)));
            serverFigures.forEach(figure -> cells.add(figure.cell(s)));
            table.row(cells.toArray(String[]::new));
        }
        return table.html();
    }

    private static String turnTable(StageResult stage) {
        HtmlTable table = new HtmlTable(HtmlTable.Kind.FIGURES, Stages.TURN_HEADERS);
        stage.turns.forEach(turn -> table.row(Stages.turnRow(turn)));
        return table.html();
    }

    private static String latencyTable(BenchmarkRun run) {
        List<String> headers = new ArrayList<>(List.of("Stage"));
        for (Stages.Latency latency : Stages.Latency.values()) {
            for (Stages.Percentile p : Stages.Percentile.values()) {
                headers.add(latency.label + " " + p.label);
            }
        }
        HtmlTable table = new HtmlTable(HtmlTable.Kind.FIGURES, headers.toArray(String[]::new));
        for (StageResult s : Stages.ordered(run)) {
            List<String> cells = new ArrayList<>();
            cells.add(s.name);
            for (Stages.Latency latency : Stages.Latency.values()) {
                for (Stages.Percentile p : Stages.Percentile.values()) {
                    cells.add(Format.number(Stages.percentile(latency.stats.apply(s), p)));
                }
            }
            table.row(cells.toArray(String[]::new));
        }
        return table.html();
    }

    private static String singleRequestTable(BenchmarkRun run) {
        HtmlTable table =
                new HtmlTable(HtmlTable.Kind.FIGURES, "Prompt", "Output tokens", "tok/s", "TTFT (ms)", "E2E (ms)");
        for (SingleRequestResult r : run.getStatus().singleRequests) {
            table.row(
                    r.prompt,
                    Format.integer(r.outputTokens),
                    Format.number(r.tokensPerSecond),
                    Format.number(r.ttftMillis),
                    Format.number(r.e2eMillis));
        }
        return table.html();
    }
}
