package dev.llmops.serving.cli;

import dev.llmops.serving.api.v1alpha1.BenchmarkRun;
import dev.llmops.serving.report.HtmlReport;
import dev.llmops.serving.report.MarkdownReport;
import dev.llmops.serving.report.RunLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Turns a BenchmarkRun, finished or not, into a report people read: an HTML page with charts, or a Markdown table for a
 * PR.
 */
@Command(
        name = "report",
        mixinStandardHelpOptions = true,
        description = {
            "Render a BenchmarkRun's results as a self-contained HTML report or a Markdown table.",
            "Reads the run from standard input unless --file is given, e.g.",
            "  kubectl get benchmarkrun NAME -o yaml | llm-serving-operator report > report.html"
        })
public class ReportCommand implements Callable<Integer> {

    private static final int INVALID_INPUT = 2;
    private static final int WRITE_FAILED = 1;

    /** What the report is written as. */
    enum OutputFormat {
        html,
        md
    }

    @Spec
    CommandSpec spec;

    @Option(
            names = {"-f", "--file"},
            paramLabel = "FILE",
            converter = FileOptions.Readable.class,
            description = "BenchmarkRun as YAML or JSON (default: standard input).")
    Path file;

    @Option(
            names = {"-b", "--baseline"},
            paramLabel = "FILE",
            converter = FileOptions.Readable.class,
            description = "A second BenchmarkRun to compare against, e.g. the autoregressive run.")
    Path baseline;

    @Option(names = "--format", defaultValue = "html", description = "html or md (default: ${DEFAULT-VALUE}).")
    OutputFormat format;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FILE",
            converter = FileOptions.Writable.class,
            description = "Where to write the report (default: standard output).")
    Path output;

    @Option(
            names = "--markdown",
            paramLabel = "FILE",
            converter = FileOptions.Writable.class,
            description = "Also write the Markdown table to this file.")
    Path markdown;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        BenchmarkRun candidate;
        Optional<BenchmarkRun> baselineRun;
        RunLoader loader = new RunLoader();
        try {
            candidate = file == null
                    ? loader.load(new String(System.in.readAllBytes(), StandardCharsets.UTF_8), "standard input")
                    : loader.load(Files.readString(file), file.toString());
            baselineRun = baseline == null
                    ? Optional.empty()
                    : Optional.of(loader.load(Files.readString(baseline), baseline.toString()));
        } catch (IOException e) {
            err.println("report: cannot read the BenchmarkRun: " + e);
            return INVALID_INPUT;
        } catch (IllegalArgumentException e) {
            err.println("report: " + e.getMessage());
            return INVALID_INPUT;
        }
        String report = format == OutputFormat.md
                ? MarkdownReport.render(candidate, baselineRun)
                : HtmlReport.render(candidate, baselineRun);
        try {
            if (output == null) {
                spec.commandLine().getOut().print(report);
                spec.commandLine().getOut().flush();
            } else {
                Files.writeString(output, report);
            }
            if (markdown != null) {
                Files.writeString(markdown, MarkdownReport.render(candidate, baselineRun));
            }
        } catch (IOException e) {
            err.println("report: cannot write the report: " + e);
            return WRITE_FAILED;
        }
        return 0;
    }
}
