package dev.llmops.serving.report;

import static dev.llmops.serving.report.MarkdownReport.code;
import static dev.llmops.serving.report.MarkdownReport.row;
import static dev.llmops.serving.report.MarkdownReport.table;
import static dev.llmops.serving.report.MarkdownReport.text;

import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperimentStatus;
import java.util.List;

/**
 * A ServingExperiment as Markdown for a pull request: the winner, the variants table, the points of each variant's
 * latency–throughput curve (Markdown shows no chart) and the failed variants' diagnoses.
 */
public final class ExperimentMarkdownReport {

    private ExperimentMarkdownReport() {}

    public static String render(ExperimentResults results) {
        ServingExperimentStatus status = results.experiment().getStatus();
        StringBuilder md = new StringBuilder("### ServingExperiment ")
                .append(code(results.name()))
                .append("\n\nPhase **")
                .append(status.phase == null ? Format.MISSING : status.phase.name())
                .append("** · progress ")
                .append(text(status.progress))
                .append(" · objective ")
                .append(text(ExperimentVariants.objective(results)))
                .append(" · baseline ")
                .append(code(results.baseline().orElse(null)))
                .append("\n\n**")
                .append(text(ExperimentVariants.winner(results)))
                .append("**\n\n");
        table(md, ExperimentVariants.headers(results));
        ExperimentVariants.rows(results).forEach(cells -> row(md, cells));

        md.append("\n#### Latency–throughput\n\n");
        List<SvgCurveChart.Curve> curves = ExperimentVariants.curves(results);
        if (!results.runsGiven()) {
            md.append(text(ExperimentVariants.curvesNeedRuns(results))).append('\n');
        } else if (curves.isEmpty()) {
            md.append("No variant's run has finished a stage.\n");
        } else {
            table(md, List.of("Variant", "Stage", "Total tok/s", "Output tok/s per user (1000 / TPOT p50)"));
            for (SvgCurveChart.Curve curve : curves) {
                for (SvgCurveChart.Point p : curve.points()) {
                    row(md, curve.name(), p.stage(), Format.number(p.x()), Format.number(p.y()));
                }
            }
        }

        List<ExperimentVariants.Failure> failures = ExperimentVariants.failures(results);
        if (!failures.isEmpty()) {
            md.append("\n#### Failed variants\n\n");
            for (ExperimentVariants.Failure f : failures) {
                md.append("- ")
                        .append(code(f.variant()))
                        .append(" **")
                        .append(text(f.reason()))
                        .append("**: ")
                        .append(text(f.message()))
                        .append(" Hint: ")
                        .append(text(f.hint()))
                        .append('\n');
            }
        }
        return md.toString();
    }
}
