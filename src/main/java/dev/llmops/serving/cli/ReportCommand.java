package dev.llmops.serving.cli;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.common.options.FileOptions;
import dev.llmops.serving.report.CsvReport;
import dev.llmops.serving.report.HtmlReport;
import dev.llmops.serving.report.LlmdReport;
import dev.llmops.serving.report.MarkdownReport;
import dev.llmops.serving.report.RunLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Turns a BenchmarkRun, finished or not, into a report people read (an HTML page with charts, a Markdown table for a
 * PR) or one that other tools read: CSV for spreadsheets, llm-d's benchmark report for llm-d-benchmark.
 */
@Command(
        name = "report",
        mixinStandardHelpOptions = true,
        description = {
            "Render a BenchmarkRun's results as a self-contained HTML report, a Markdown table, CSV (one row per"
                    + " stage) or llm-d benchmark reports (version 0.2, one YAML document per stage).",
            "Reads the run from standard input unless --file is given, e.g.",
            "  kubectl get benchmarkrun NAME -o yaml | llm-serving-operator report > report.html",
            "With --format llmd, --output FILE.yaml writes one file per stage: FILE_<N>_<stage>.yaml, N from 0."
        })
public class ReportCommand implements Callable<Integer> {

    private static final int INVALID_INPUT = 2;
    private static final int WRITE_FAILED = 1;
    private static final int MAX_STAGE_IN_FILE_NAME = 64;

    /** What the report is written as. */
    enum OutputFormat {
        html,
        md,
        csv,
        llmd
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
            description = "A second BenchmarkRun shown beside the first, e.g. the autoregressive run; the speedups"
                    + " shown are those either run's status recorded against the other.")
    Path baseline;

    @Option(
            names = "--format",
            defaultValue = "html",
            description = "html, md, csv or llmd (default: ${DEFAULT-VALUE}).")
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
        if (format == OutputFormat.llmd && candidate.getStatus().stages.isEmpty()) {
            err.println("report: BenchmarkRun " + candidate.getMetadata().getName()
                    + " has no finished stage, and an llm-d benchmark report describes a measured stage");
            return INVALID_INPUT;
        }
        try {
            if (format == OutputFormat.llmd && output != null) {
                List<LlmdReport.Stage> stages = LlmdReport.render(candidate);
                for (int index = 0; index < stages.size(); index++) {
                    LlmdReport.Stage stage = stages.get(index);
                    Files.writeString(perStage(output, index, stage.name()), LlmdReport.yaml(stage.report()));
                }
            } else if (output == null) {
                spec.commandLine().getOut().print(render(candidate, baselineRun));
                spec.commandLine().getOut().flush();
            } else {
                Files.writeString(output, render(candidate, baselineRun));
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

    private String render(BenchmarkRun candidate, Optional<BenchmarkRun> baselineRun) {
        return switch (format) {
            case md -> MarkdownReport.render(candidate, baselineRun);
            case csv -> CsvReport.render(candidate);
            case llmd -> llmdStream(LlmdReport.render(candidate));
            case html -> HtmlReport.render(candidate, baselineRun);
        };
    }

    /** The stages' reports as one YAML stream, each document preceded by the stage it describes. */
    private static String llmdStream(List<LlmdReport.Stage> stages) {
        StringBuilder stream = new StringBuilder();
        for (LlmdReport.Stage stage : stages) {
            stream.append("--- # stage ").append(stage.name()).append('\n').append(LlmdReport.yaml(stage.report()));
        }
        return stream.toString();
    }

    /**
     * FILE.yaml becomes FILE_1_c8.yaml for the second stage, c8: llm-d-benchmark reads one report per file. The stage
     * name comes from the run's status, so only letters, digits, dots and dashes of it are kept, at most 64.
     */
    public static Path perStage(Path output, int index, String stage) {
        String safe = stage == null ? "" : stage.replaceAll("[^A-Za-z0-9.-]", "_");
        String suffix = "_" + index + "_" + safe.substring(0, Math.min(safe.length(), MAX_STAGE_IN_FILE_NAME));
        String name = output.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String file = dot > 0 ? name.substring(0, dot) + suffix + name.substring(dot) : name + suffix;
        return output.resolveSibling(file);
    }
}
