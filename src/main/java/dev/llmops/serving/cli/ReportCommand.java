package dev.llmops.serving.cli;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import dev.llmops.serving.common.options.FileOptions;
import dev.llmops.serving.llmd.LlmdReport;
import dev.llmops.serving.report.CsvReport;
import dev.llmops.serving.report.ExperimentCsvReport;
import dev.llmops.serving.report.ExperimentHtmlReport;
import dev.llmops.serving.report.ExperimentMarkdownReport;
import dev.llmops.serving.report.ExperimentResults;
import dev.llmops.serving.report.HtmlReport;
import dev.llmops.serving.report.MarkdownReport;
import dev.llmops.serving.report.RunLoader;
import java.io.IOException;
import java.io.PrintWriter;
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
 * Turns a BenchmarkRun or a ServingExperiment, finished or not, or a result of bench, into a report people read (an
 * HTML page with charts, a Markdown table for a PR) or one that other tools read: CSV for spreadsheets, llm-d's
 * benchmark report for llm-d-benchmark.
 */
@Command(
        name = "report",
        mixinStandardHelpOptions = true,
        subcommands = {ReportCompareCommand.class, ReportHistoryCommand.class, ReportMergeCommand.class},
        description = {
            "Render a BenchmarkRun's results, or a bench result's, as a self-contained HTML report, a Markdown"
                    + " table, CSV (one row per stage) or llm-d benchmark reports (version 0.2, one YAML document per"
                    + " stage); report compare compares two bench results; report history renders a target's"
                    + " runs over time; report merge merges the shards of one bench run.",
            "Reads the run from standard input unless --file is given, e.g.",
            "  kubectl get benchmarkrun NAME -o yaml | llm-serving-operator report > report.html",
            "A result of bench --json-out is rendered the same way, as a run named after its file, e.g.",
            "  llm-serving-operator bench --url URL --model MODEL --json-out r.json",
            "  llm-serving-operator report --file r.json > r.html",
            "report compare A.json B.json compares two such results as a run is compared with its baseline"
                    + " (see report compare --help); report history FILE... renders saved runs of one target over"
                    + " time (see report history --help); report merge SHARD... merges the shards of one bench run"
                    + " (see report merge --help).",
            "With --format llmd, --output FILE.yaml writes one file per stage: FILE_<N>_<stage>.yaml, N from 0.",
            "Given a ServingExperiment, renders the experiment: its variants side by side (time to Ready,"
                    + " figures, speedup over the baseline with its 95 %% interval, acceptance length, output"
                    + " agreement, verdict), the winner, the failed variants' diagnoses and, with --runs, the"
                    + " latency-throughput curves of all variants on one chart; CSV has one row per variant and"
                    + " stage, e.g.",
            "  kubectl get servingexperiment kimi -o yaml > kimi.yaml",
            "  kubectl get benchmarkruns -l serving.llmops.dev/experiment=kimi -o yaml > kimi-runs.yaml",
            "  llm-serving-operator report --file kimi.yaml --runs kimi-runs.yaml > kimi.html",
            "With --format llmd an experiment needs --runs and gives one report per variant and stage; --output"
                    + " FILE.yaml writes FILE_<variant>_<N>_<stage>.yaml, N from 0 within each variant's run."
        })
public class ReportCommand implements Callable<Integer> {

    private static final int INVALID_INPUT = 2;
    private static final int WRITE_FAILED = 1;
    private static final int MAX_NAME_IN_FILE_NAME = 64;

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
            description = "BenchmarkRun as YAML or JSON, or a result of bench --json-out (default: standard input).")
    Path file;

    @Option(
            names = {"-b", "--baseline"},
            paramLabel = "FILE",
            converter = FileOptions.Readable.class,
            description = "A second BenchmarkRun shown beside the first, e.g. the autoregressive run; the speedups"
                    + " shown are those either run's status recorded against the other. To compare two results of"
                    + " bench, use report compare.")
    Path baseline;

    @Option(
            names = "--runs",
            paramLabel = "FILE",
            converter = FileOptions.Readable.class,
            description = "With a ServingExperiment as input: its variants' BenchmarkRuns, as kubectl get benchmarkruns"
                    + " -l serving.llmops.dev/experiment=NAME -o yaml prints them (a List, or YAML documents one"
                    + " after another). A run not labelled for that experiment is refused.")
    Path runs;

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
        RunLoader loader = new RunLoader();
        String source = file == null ? "standard input" : file.toString();
        String document;
        try {
            document = file == null
                    ? BoundedInput.standardInput(BoundedInput.MAX_DOCUMENT_BYTES)
                    : BoundedInput.text(file, BoundedInput.MAX_DOCUMENT_BYTES);
        } catch (IOException e) {
            err.println("report: cannot read " + source + ": " + e.getMessage());
            return INVALID_INPUT;
        }
        if (loader.holdsExperiment(document)) {
            return experiment(loader, document, source, err);
        }
        if (runs != null) {
            err.println("report: --runs goes with a ServingExperiment, and " + source + " holds none: pass the output"
                    + " of kubectl get servingexperiment NAME -o yaml");
            return INVALID_INPUT;
        }
        BenchmarkRun candidate;
        Optional<BenchmarkRun> baselineRun;
        try {
            candidate = loader.load(document, source);
            baselineRun = baseline == null
                    ? Optional.empty()
                    : Optional.of(loader.load(
                            BoundedInput.text(baseline, BoundedInput.MAX_DOCUMENT_BYTES), baseline.toString()));
        } catch (IOException e) {
            err.println("report: cannot read " + baseline + ": " + e.getMessage());
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
            } else {
                write(render(candidate, baselineRun));
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

    /** Renders the experiment the document holds, with the runs of --runs when given. */
    private int experiment(RunLoader loader, String document, String source, PrintWriter err) {
        if (baseline != null) {
            err.println("report: --baseline goes with a BenchmarkRun: each variant of an experiment is already compared"
                    + " with its baseline variant");
            return INVALID_INPUT;
        }
        ExperimentResults results;
        try {
            ServingExperiment experiment = loader.loadExperiment(document, source);
            Optional<List<BenchmarkRun>> saved = runs == null
                    ? Optional.empty()
                    : Optional.of(
                            loader.loadRuns(BoundedInput.text(runs, BoundedInput.MAX_DOCUMENT_BYTES), runs.toString()));
            results = ExperimentResults.of(experiment, saved);
        } catch (IOException e) {
            err.println("report: cannot read " + runs + ": " + e.getMessage());
            return INVALID_INPUT;
        } catch (IllegalArgumentException e) {
            err.println("report: " + e.getMessage());
            return INVALID_INPUT;
        }
        List<ExperimentResults.VariantStages> variants =
                format == OutputFormat.llmd ? results.llmdReports() : List.of();
        if (format == OutputFormat.llmd && variants.isEmpty()) {
            err.println("report: no variant of ServingExperiment "
                    + results.experiment().getMetadata().getName()
                    + " has a run with a finished stage, and an llm-d benchmark report describes a measured stage"
                    + (runs == null ? ": pass the variants' BenchmarkRuns with --runs" : ""));
            return INVALID_INPUT;
        }
        try {
            if (format == OutputFormat.llmd && output != null) {
                for (ExperimentResults.VariantStages variant : variants) {
                    Path perVariant = suffixed(output, "_" + fileNamePart(variant.variant()));
                    for (int index = 0; index < variant.stages().size(); index++) {
                        LlmdReport.Stage stage = variant.stages().get(index);
                        Files.writeString(perStage(perVariant, index, stage.name()), LlmdReport.yaml(stage.report()));
                    }
                }
            } else {
                write(
                        switch (format) {
                            case md -> ExperimentMarkdownReport.render(results);
                            case csv -> ExperimentCsvReport.render(results);
                            case llmd -> variantLlmdStream(variants);
                            case html -> ExperimentHtmlReport.render(results);
                        });
            }
            if (markdown != null) {
                Files.writeString(markdown, ExperimentMarkdownReport.render(results));
            }
        } catch (IOException e) {
            err.println("report: cannot write the report: " + e);
            return WRITE_FAILED;
        }
        return 0;
    }

    /** The report to --output, else to standard output. */
    private void write(String report) throws IOException {
        if (output == null) {
            spec.commandLine().getOut().print(report);
            spec.commandLine().getOut().flush();
        } else {
            Files.writeString(output, report);
        }
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

    /** Each variant's reports as one YAML stream, each document preceded by the variant and stage it describes. */
    private static String variantLlmdStream(List<ExperimentResults.VariantStages> variants) {
        StringBuilder stream = new StringBuilder();
        for (ExperimentResults.VariantStages variant : variants) {
            for (LlmdReport.Stage stage : variant.stages()) {
                stream.append("--- # variant ")
                        .append(fileNamePart(variant.variant()))
                        .append(" stage ")
                        .append(fileNamePart(stage.name()))
                        .append('\n')
                        .append(LlmdReport.yaml(stage.report()));
            }
        }
        return stream.toString();
    }

    /**
     * FILE.yaml becomes FILE_1_c8.yaml for the second stage, c8: llm-d-benchmark reads one report per file. The stage
     * name comes from the run's status, so only letters, digits, dots and dashes of it are kept, at most 64.
     */
    public static Path perStage(Path output, int index, String stage) {
        return suffixed(output, "_" + index + "_" + fileNamePart(stage));
    }

    /** Outside text fit for a file name or a YAML comment: letters, digits, dots and dashes, at most 64 of them. */
    private static String fileNamePart(String text) {
        String safe = text == null ? "" : text.replaceAll("[^A-Za-z0-9.-]", "_");
        return safe.substring(0, Math.min(safe.length(), MAX_NAME_IN_FILE_NAME));
    }

    /** FILE.yaml with the suffix before its extension: FILE_suffix.yaml. */
    private static Path suffixed(Path output, String suffix) {
        String name = output.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String file = dot > 0 ? name.substring(0, dot) + suffix + name.substring(dot) : name + suffix;
        return output.resolveSibling(file);
    }
}
