package dev.llmops.serving.report;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.common.ConditionGroups;

/**
 * Where a run stands and why: its conditions, each distinct message once, and the runner's warnings about its figures.
 */
final class HtmlRunStatus {

    private HtmlRunStatus() {}

    static String of(BenchmarkRun run) {
        StringBuilder html = new StringBuilder();
        String name = Html.escape(HtmlReport.name(run));
        BenchmarkRunStatus status = run.getStatus();
        if (!status.conditions.isEmpty()) {
            HtmlTable table = new HtmlTable(HtmlTable.Kind.CONDITIONS, "Conditions", "Reason", "Message");
            ConditionGroups.of(run.getStatus().conditions)
                    .forEach(g -> table.row(g.conditions(), g.reasons(), Format.orMissing(g.message())));
            html.append("<h2>Conditions of ").append(name).append("</h2>").append(table.html());
        }
        if (!status.warnings.isEmpty()) {
            html.append("<h2>Warnings of ").append(name).append("</h2><ul>");
            status.warnings.forEach(w ->
                    html.append("<li class=\"warning\">").append(Html.text(w)).append("</li>"));
            html.append("</ul>");
        }
        return html.toString();
    }
}
