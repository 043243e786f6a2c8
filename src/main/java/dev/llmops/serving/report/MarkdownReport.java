package dev.llmops.serving.report;

import dev.llmops.serving.api.v1alpha1.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.BenchmarkSummary;
import dev.llmops.serving.api.v1alpha1.StageResult;
import java.util.List;
import java.util.Optional;

/** A BenchmarkRun as a Markdown table for a pull request: one row per stage, or per stage of both runs with speedups. */
public final class MarkdownReport {

    private MarkdownReport() {
    }

    public static String render(BenchmarkRun candidate, Optional<BenchmarkRun> baseline) {
        StringBuilder md = new StringBuilder();
        BenchmarkSummary summary = Optional.ofNullable(candidate.getStatus().summary).orElseGet(BenchmarkSummary::new);
        md.append("### BenchmarkRun `").append(HtmlReport.name(candidate)).append('`');
        baseline.ifPresent(b -> md.append(" vs `").append(HtmlReport.name(b)).append('`'));
        md.append("\n\n");
        md.append("Target ").append(cell(candidate.getStatus().target))
                .append(" · single-stream ").append(Format.number(summary.singleStreamTokensPerSecond)).append(" tok/s")
                .append(" · peak ").append(Format.number(summary.peakTokensPerSecond)).append(" tok/s at concurrency ")
                .append(Format.integer(summary.peakConcurrency))
                .append(" · failed requests ").append(Format.integer(summary.failedRequests)).append("\n\n");

        Optional<Comparison> comparison = Comparison.of(candidate, baseline);
        if (comparison.isPresent()) {
            Comparison c = comparison.get();
            md.append("Against `").append(c.baseline()).append("`: single-stream ").append(Format.speedup(c.singleStreamSpeedup()))
                    .append(", peak throughput ").append(Format.speedup(c.peakThroughputSpeedup())).append("\n\n");
            if (c.baselineMeasured()) {
                table(md, List.of("Stage", "Concurrency", "Baseline tok/s", "Candidate tok/s", "Speedup",
                        "TTFT p50 baseline → candidate (ms)", "TPOT p50 baseline → candidate (ms)"));
                for (Comparison.Stage s : c.stages()) {
                    row(md, s.name(), Format.integer(s.concurrency()), Format.number(s.baselineTokensPerSecond()),
                            Format.number(s.candidateTokensPerSecond()), Format.speedup(s.throughputSpeedup()),
                            Format.number(s.baselineTtftP50()) + " → " + Format.number(s.candidateTtftP50()),
                            Format.number(s.baselineTpotP50()) + " → " + Format.number(s.candidateTpotP50()));
                }
            } else {
                table(md, List.of("Stage", "Concurrency", "Output tok/s", "Speedup", "TTFT p50 speedup"));
                for (Comparison.Stage s : c.stages()) {
                    row(md, s.name(), Format.integer(s.concurrency()), Format.number(s.candidateTokensPerSecond()),
                            Format.speedup(s.throughputSpeedup()), Format.speedup(s.ttftP50Speedup()));
                }
            }
        } else {
            table(md, List.of("Stage", "Concurrency", "Output tok/s", "TTFT p50 (ms)", "TTFT p99 (ms)", "TPOT p50 (ms)",
                    "TPOT p99 (ms)", "Failed"));
            for (StageResult s : Stages.ordered(candidate)) {
                row(md, s.name, Format.integer(s.concurrency), Format.number(s.outputTokensPerSecond),
                        Format.number(Stages.percentile(s.ttftMillis, Stages.Percentile.P50)),
                        Format.number(Stages.percentile(s.ttftMillis, Stages.Percentile.P99)),
                        Format.number(Stages.percentile(s.tpotMillis, Stages.Percentile.P50)),
                        Format.number(Stages.percentile(s.tpotMillis, Stages.Percentile.P99)),
                        Format.integer(s.failed));
            }
        }
        candidate.getStatus().warnings.forEach(w -> md.append("\n> ⚠ ").append(w.replace("\n", " ")));
        return md.append('\n').toString();
    }

    private static void table(StringBuilder md, List<String> headers) {
        md.append("| ").append(String.join(" | ", headers)).append(" |\n|");
        for (int i = 0; i < headers.size(); i++) {
            md.append(i == 0 ? "---|" : "---:|");
        }
        md.append('\n');
    }

    private static void row(StringBuilder md, String... cells) {
        md.append('|');
        for (String cell : cells) {
            md.append(' ').append(cell(cell)).append(" |");
        }
        md.append('\n');
    }

    /** A table cell: pipes escaped and line breaks flattened, so names and targets cannot break the table. */
    private static String cell(String text) {
        return text == null ? Format.MISSING : text.replace("|", "\\|").replace("\n", " ");
    }
}
