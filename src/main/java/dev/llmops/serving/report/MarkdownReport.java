package dev.llmops.serving.report;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkSummary;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import dev.llmops.serving.common.ConditionGroups;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A BenchmarkRun in any phase as Markdown for a pull request: one row per finished stage, or per stage of both runs
 * with speedups, then the turns of each multi-turn stage and each run's conditions, provenance and warnings.
 */
public final class MarkdownReport {

    private MarkdownReport() {}

    public static String render(BenchmarkRun candidate, Optional<BenchmarkRun> baseline) {
        StringBuilder md = new StringBuilder();
        BenchmarkRunStatus status = candidate.getStatus();
        BenchmarkSummary summary = Optional.ofNullable(status.summary).orElseGet(BenchmarkSummary::new);
        md.append("### BenchmarkRun ").append(code(HtmlReport.name(candidate)));
        baseline.ifPresent(b -> md.append(" vs ").append(code(HtmlReport.name(b))));
        md.append("\n\n");
        md.append("Phase **")
                .append(status.phase == null ? Format.MISSING : status.phase.name())
                .append("**")
                .append(" · progress ")
                .append(text(status.progress))
                .append(" · target ")
                .append(text(status.target))
                .append(" · single-stream ")
                .append(Format.number(summary.singleStreamTokensPerSecond))
                .append(" tok/s")
                .append(" · peak ")
                .append(Format.number(summary.peakTokensPerSecond))
                .append(" tok/s at concurrency ")
                .append(Format.integer(summary.peakConcurrency))
                .append(Format.peakRule(summary.peakRule))
                .append(" · failed requests ")
                .append(Format.integer(summary.failedRequests))
                .append("\n\n");

        List<Comparison> comparisons = Comparison.recorded(candidate, baseline);
        Optional<Comparison> first = comparisons.stream()
                .findFirst()
                .filter(c -> c.ofCandidate() && !c.reference() && !c.stages().isEmpty());
        if (first.isEmpty()) {
            stages(md, candidate);
        }
        for (Comparison c : comparisons) {
            comparison(c == first.orElse(null) ? md : md.append('\n'), c);
        }
        Optional<String> notRecorded = baseline.flatMap(b -> Comparison.notRecorded(candidate, b, comparisons));
        if (notRecorded.isPresent()) {
            md.append("\n⚠ ").append(text(notRecorded.get())).append("\n\n#### Stages of ");
            md.append(code(HtmlReport.name(baseline.get()))).append("\n\n");
            stages(md, baseline.get());
        }
        verdicts(md, candidate);
        List<BenchmarkRun> runs = new ArrayList<>(List.of(candidate));
        baseline.ifPresent(runs::add);
        goodput(md, runs);
        runs.forEach(run -> turns(md, run));
        runs.forEach(run -> runStatus(md, run));
        return md.toString();
    }

    private static void stages(StringBuilder md, BenchmarkRun run) {
        if (run.getStatus().stages.isEmpty()) {
            md.append("No stage has finished.\n");
            return;
        }
        List<Stages.ServerFigure> serverFigures = Stages.serverFigures(run);
        List<String> headers = new ArrayList<>(List.of(
                "Stage",
                "Concurrency",
                "Output tok/s",
                "TTFT p50 (ms)",
                "TTFT p99 (ms)",
                "TPOT p50 (ms)",
                "TPOT p99 (ms)",
                "Failed"));
        serverFigures.forEach(figure -> headers.add(figure.label));
        table(md, headers);
        for (StageResult s : Stages.ordered(run)) {
            List<String> cells = new ArrayList<>(List.of(
                    s.name,
                    Format.integer(s.concurrency),
                    Format.number(s.outputTokensPerSecond),
                    Format.number(Stages.percentile(s.ttftMillis, Stages.Percentile.P50)),
                    Format.number(Stages.percentile(s.ttftMillis, Stages.Percentile.P99)),
                    Format.number(Stages.percentile(s.tpotMillis, Stages.Percentile.P50)),
                    Format.number(Stages.percentile(s.tpotMillis, Stages.Percentile.P99)),
                    Format.integer(s.failed)));
            serverFigures.forEach(figure -> cells.add(figure.cell(s)));
            row(md, cells.toArray(String[]::new));
        }
    }

    /** The run's Regressed, Improved and QualitySuspect conditions, when it has any. */
    private static void verdicts(StringBuilder md, BenchmarkRun run) {
        List<Condition> conditions = Verdicts.conditions(run);
        if (conditions.isEmpty()) {
            return;
        }
        md.append("\n#### Verdicts\n\n");
        for (Condition c : conditions) {
            md.append("- **")
                    .append(text(c.getType()))
                    .append(' ')
                    .append(text(c.getStatus()))
                    .append("** (")
                    .append(text(c.getReason()))
                    .append(')')
                    .append(c.getMessage() == null || c.getMessage().isBlank() ? "" : ": " + text(c.getMessage()))
                    .append('\n');
        }
    }

    /** The comparison's headline and tables, then what the paired samples say. */
    private static void comparison(StringBuilder md, Comparison c) {
        String baseline = (c.reference() ? "reference " : "") + code(c.baseline());
        md.append(c.ofCandidate() ? "Against " : code(c.run()) + " against ")
                .append(baseline)
                .append(": single-stream tok/s ratio ")
                .append(Format.speedup(c.singleStreamSpeedup()))
                .append(", aggregate throughput ratio (peak tok/s) ")
                .append(Format.speedup(c.peakThroughputSpeedup()));
        if (c.capacitySpeedup() != null || c.baselineCapacity() != null) {
            md.append(", capacity ")
                    .append(Format.speedup(c.capacitySpeedup()))
                    .append(" (capacity of ")
                    .append(code(c.baseline()))
                    .append(": ")
                    .append(text(c.baselineCapacity()))
                    .append(')');
        }
        md.append("\n\n");
        if (c.stages().isEmpty()) {
            md.append("No stage in common.\n");
        } else if (c.baselineGiven()) {
            table(
                    md,
                    List.of(
                            "Stage",
                            "Concurrency",
                            "Baseline tok/s",
                            "Candidate tok/s",
                            c.throughputFigureName(),
                            "TTFT p50 baseline → candidate (ms)",
                            "TTFT p50 speedup",
                            "TPOT p50 baseline → candidate (ms)",
                            "TPOT p50 speedup"));
            for (Comparison.Stage s : c.stages()) {
                row(
                        md,
                        s.name(),
                        Format.integer(s.concurrency()),
                        Format.number(s.baselineTokensPerSecond()),
                        Format.number(s.candidateTokensPerSecond()),
                        Format.speedup(s.throughputSpeedup()),
                        Format.number(s.baselineTtftP50()) + " → " + Format.number(s.candidateTtftP50()),
                        Format.speedup(s.ttftP50Speedup()),
                        Format.number(s.baselineTpotP50()) + " → " + Format.number(s.candidateTpotP50()),
                        Format.speedup(s.tpotP50Speedup()));
            }
        } else {
            table(
                    md,
                    List.of(
                            "Stage",
                            "Concurrency",
                            "Output tok/s",
                            c.throughputFigureName(),
                            "TTFT p50 speedup",
                            "TPOT p50 speedup"));
            for (Comparison.Stage s : c.stages()) {
                row(
                        md,
                        s.name(),
                        Format.integer(s.concurrency()),
                        Format.number(s.candidateTokensPerSecond()),
                        Format.speedup(s.throughputSpeedup()),
                        Format.speedup(s.ttftP50Speedup()),
                        Format.speedup(s.tpotP50Speedup()));
            }
        }
        if (c.message() != null) {
            md.append("\n⚠ ").append(text(c.message())).append('\n');
        }
        if (c.paired() || c.acceptanceMeasured()) {
            md.append("\nPaired per request")
                    .append(c.ofCandidate() ? "" : " of " + code(c.run()))
                    .append(" against ")
                    .append(code(c.baseline()))
                    .append(":\n\n");
            table(md, Verdicts.pairedHeaders(c));
            c.stages().forEach(s -> row(md, Verdicts.pairedRow(c, s)));
        }
        if (c.quality() != null) {
            md.append('\n').append(Verdicts.quality(c.quality())).append('\n');
        }
    }

    /** The run's conditions (each distinct message once), what it measured, and the runner's warnings. */
    private static void runStatus(StringBuilder md, BenchmarkRun run) {
        md.append("\n#### Status of ").append(code(HtmlReport.name(run))).append("\n\n");
        for (ConditionGroups.Group g : ConditionGroups.of(run.getStatus().conditions)) {
            md.append("- **")
                    .append(text(g.conditions()))
                    .append("** (")
                    .append(text(g.reasons()))
                    .append(')')
                    .append(g.message().isEmpty() ? "" : ": " + text(g.message()))
                    .append('\n');
        }
        md.append("\nProvenance: ")
                .append(ProvenanceFields.of(run).stream()
                        .map(f -> f.label() + " " + text(f.value()))
                        .collect(Collectors.joining(" · ")))
                .append('\n');
        if (!run.getStatus().warnings.isEmpty()) {
            md.append('\n');
            run.getStatus()
                    .warnings
                    .forEach(w -> md.append("- ⚠ ").append(text(w)).append('\n'));
        }
    }

    private static void goodput(StringBuilder md, List<BenchmarkRun> runs) {
        if (Goodput.anyCapacity(runs)) {
            md.append("\n#### Capacity under the SLO\n\n");
            List<String> headers = new ArrayList<>(List.of(""));
            runs.forEach(run -> headers.add(HtmlReport.name(run)));
            table(md, headers);
            Goodput.capacityRows(runs).forEach(cells -> row(md, cells));
        }
        for (BenchmarkRun run : runs) {
            List<String[]> rows = Goodput.stageRows(run);
            if (!rows.isEmpty()) {
                md.append("\n#### Goodput and schedule of ")
                        .append(code(HtmlReport.name(run)))
                        .append("\n\n");
                table(md, List.of(Goodput.STAGE_HEADERS));
                rows.forEach(cells -> row(md, cells));
            }
        }
    }

    /** Each multi-turn stage's turns: whether later turns, with a longer history, still get their first token fast. */
    private static void turns(StringBuilder md, BenchmarkRun run) {
        for (StageResult stage : Stages.withTurns(run)) {
            md.append("\n#### Turns of ")
                    .append(code(stage.name))
                    .append(" in ")
                    .append(code(HtmlReport.name(run)))
                    .append("\n\n");
            table(md, List.of(Stages.TURN_HEADERS));
            stage.turns.forEach(turn -> row(md, Stages.turnRow(turn)));
        }
    }

    static void table(StringBuilder md, List<String> headers) {
        md.append("| ")
                .append(headers.stream().map(MarkdownReport::text).collect(Collectors.joining(" | ")))
                .append(" |\n|");
        for (int i = 0; i < headers.size(); i++) {
            md.append(i == 0 ? "---|" : "---:|");
        }
        md.append('\n');
    }

    static void row(StringBuilder md, String... cells) {
        md.append('|');
        for (String cell : cells) {
            md.append(' ').append(text(cell)).append(" |");
        }
        md.append('\n');
    }

    /**
     * Outside text on one line, shown as written: cut when too long, line breaks flattened so it cannot end a table row
     * or start a heading, list or quote, HTML written as entities so it cannot open a tag where Markdown is rendered,
     * and every character that opens Markdown markup (emphasis, code, links and images, strikethrough, table cells)
     * escaped with a backslash.
     */
    static String text(String text) {
        if (text == null) {
            return Format.MISSING;
        }
        StringBuilder escaped = new StringBuilder();
        for (char c : oneLine(Format.bounded(text)).toCharArray()) {
            switch (c) {
                case '&' -> escaped.append("&amp;");
                case '<' -> escaped.append("&lt;");
                case '\\', '`', '*', '_', '[', ']', '~', '|' ->
                    escaped.append('\\').append(c);
                default -> escaped.append(c);
            }
        }
        return escaped.toString();
    }

    /**
     * Outside text as an inline code span, which shows everything in it literally: the fence is one backtick longer
     * than the longest run of backticks in the text, so none of them can close it early.
     */
    static String code(String text) {
        if (text == null) {
            return Format.MISSING;
        }
        String line = oneLine(Format.bounded(text));
        int longest = 0;
        for (int i = 0, run = 0; i < line.length(); i++) {
            run = line.charAt(i) == '`' ? run + 1 : 0;
            longest = Math.max(longest, run);
        }
        String fence = "`".repeat(longest + 1);
        String padding = line.startsWith("`") || line.endsWith("`") ? " " : "";
        return fence + padding + line + padding + fence;
    }

    private static String oneLine(String text) {
        return text.replaceAll("\\s*\\R\\s*", " ");
    }
}
