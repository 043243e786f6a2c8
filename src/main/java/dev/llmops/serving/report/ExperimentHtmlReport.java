package dev.llmops.serving.report;

import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperimentStatus;
import java.util.List;

/**
 * A ServingExperiment as one HTML file, styled like a run's report: the variants side by side, the latency–throughput
 * curves of all of them on one chart, the winner, and why the failed variants failed.
 */
public final class ExperimentHtmlReport {

    /**
     * The variants table holds text in its phase, capacity and verdict columns (a capacity is a load such as
     * "concurrency 48"), which stay left-aligned; the page otherwise looks like a run's.
     */
    private static final String VARIANTS_STYLE = """
            .figures.variants td:nth-child(6),.figures.variants td:last-child,.figures.variants th:nth-child(6),\
            .figures.variants th:last-child{text-align:left}
            """;

    private ExperimentHtmlReport() {}

    public static String render(ExperimentResults results) {
        String title = "ServingExperiment " + results.name();
        StringBuilder html = HtmlReport.page(title, VARIANTS_STYLE).append(meta(results));
        html.append("<p class=\"winner\"><strong>")
                .append(Html.text(ExperimentVariants.winner(results)))
                .append("</strong></p>");

        HtmlTable variants = new HtmlTable(
                HtmlTable.Kind.VARIANTS, ExperimentVariants.headers(results).toArray(String[]::new));
        ExperimentVariants.rows(results).forEach(variants::row);
        html.append("<h2>Variants</h2>").append(variants.html());

        html.append("<h2>Latency–throughput</h2>");
        List<SvgCurveChart.Curve> curves = ExperimentVariants.curves(results);
        if (!results.runsGiven()) {
            html.append("<p class=\"warning\">")
                    .append(Html.text(ExperimentVariants.curvesNeedRuns(results)))
                    .append("</p>");
        } else if (curves.isEmpty()) {
            html.append("<p>No variant's run has finished a stage.</p>");
        } else {
            html.append("<div class=\"charts\">")
                    .append(SvgCurveChart.render(
                            "Latency–throughput of each variant: tok/s per user vs total tok/s",
                            "total tokens/s (input + output)",
                            "output tokens/s per user (1000 / TPOT p50)",
                            curves))
                    .append("</div>");
        }

        List<ExperimentVariants.Failure> failures = ExperimentVariants.failures(results);
        if (!failures.isEmpty()) {
            HtmlTable table = new HtmlTable(HtmlTable.Kind.CONDITIONS, "Variant", "Reason", "What happened", "Hint");
            failures.forEach(f -> table.row(f.variant(), f.reason(), f.message(), f.hint()));
            html.append("<h2>Failed variants</h2>").append(table.html());
        }
        return html.append("</body></html>").toString();
    }

    /** Where the experiment stands, what it judges by, and when it ran, each item kept on one line. */
    private static String meta(ExperimentResults results) {
        ServingExperiment experiment = results.experiment();
        ServingExperimentStatus status = experiment.getStatus();
        String phase = status.phase == null ? Format.MISSING : status.phase.name();
        return "<p class=\"meta\">"
                + String.join(
                        " · ",
                        "<span>Namespace "
                                + Html.text(Format.orMissing(
                                        experiment.getMetadata().getNamespace())) + "</span>",
                        "<span>phase <strong class=\"phase-" + phase + "\">" + phase + "</strong></span>",
                        "<span>progress " + Html.text(Format.orMissing(status.progress)) + "</span>",
                        "<span>objective " + Html.text(ExperimentVariants.objective(results)) + "</span>",
                        "<span>baseline " + Html.text(results.baseline().orElse(Format.MISSING)) + "</span>",
                        "<span>started " + Html.text(Format.orMissing(status.startTime)) + "</span>",
                        "<span>finished " + Html.text(Format.orMissing(status.completionTime)) + "</span>")
                + "</p>";
    }
}
