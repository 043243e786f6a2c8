package dev.llmops.serving.cli;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.archive.ArchiveException;
import dev.llmops.serving.archive.ArchiveLocation;
import dev.llmops.serving.archive.RunArchive;
import dev.llmops.serving.common.options.FileOptions;
import dev.llmops.serving.report.HistoryReport;
import dev.llmops.serving.report.RunHistory;
import dev.llmops.serving.report.RunLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Renders one target's BenchmarkRuns over time, from saved runs: when its throughput or latency moved, which runs
 * regressed against their reference, and which image or argument change came before.
 */
@Command(
        name = "history",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Render one target's succeeded BenchmarkRuns over time: per stage the output throughput, TTFT p50 and"
                    + " p99, TPOT p50 and acceptance length as time series, the runs that regressed or improved"
                    + " against their reference marked, the server's image and argument changes (from each run's"
                    + " provenance) drawn where they happened, and a table of the runs with each stage's paired"
                    + " speedup over the reference and its 95 %% interval; or CSV, one row per run and stage.",
            "Reads saved runs: files holding a run, a list of runs or several documents, or directories of such"
                    + " files (*.yaml, *.yml, *.json), e.g.",
            "  kubectl get benchmarkruns -o yaml > runs.yaml",
            "  llm-serving-operator report history runs.yaml --target qwen3-8b > history.html",
            "or the operator's archive in S3-compatible storage (--s3), with the AWS SDK's credentials (the"
                    + " environment's AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, a web identity), e.g.",
            "  llm-serving-operator report history --s3 s3://results/runs --namespace ml",
            "      --s3-endpoint http://minio:9000 --s3-path-style --target qwen3-8b",
            "Exit codes: 0 rendered, 2 unreadable input or no succeeded run of the target, 1 the report could not be"
                    + " written."
        })
public class ReportHistoryCommand implements Callable<Integer> {

    private static final int INVALID_INPUT = 2;
    /** Files read from the directories given, at most: a run a file, years of nightly runs. */
    private static final int MAX_FILES = 5000;
    /** How long one request to the archive may take. */
    private static final Duration ARCHIVE_TIMEOUT = Duration.ofSeconds(60);

    /** What the history is written as. */
    enum OutputFormat {
        html,
        csv
    }

    @Spec
    CommandSpec spec;

    @Parameters(
            arity = "0..*",
            paramLabel = "PATH",
            description = "A file of saved runs (YAML or JSON: one run, a List, or several documents) or a directory"
                    + " of such files.")
    List<Path> paths;

    @Option(
            names = "--s3",
            paramLabel = "s3://BUCKET[/PREFIX]",
            description = "Read the runs the operator archived there (the chart's results.s3 bucket and prefix),"
                    + " instead of or besides PATH.")
    String s3;

    @Option(
            names = "--namespace",
            paramLabel = "NAMESPACE",
            description = "With --s3: only the runs of this namespace.")
    String namespace;

    @Option(
            names = "--s3-endpoint",
            paramLabel = "URL",
            description = "With --s3: the store's URL, for stores other than AWS S3 (MinIO, Ceph, SeaweedFS).")
    URI s3Endpoint;

    @Option(
            names = "--s3-region",
            paramLabel = "REGION",
            defaultValue = "${env:AWS_REGION:-us-east-1}",
            description = "With --s3: the region requests are signed for. Default: AWS_REGION, else us-east-1.")
    String s3Region;

    @Option(
            names = "--s3-path-style",
            description = "With --s3: put the bucket in the path, not the host name, as MinIO and Ceph need.")
    boolean s3PathStyle;

    @Option(
            names = "--target",
            paramLabel = "NAME",
            description = "The ModelServer (or URL) whose runs to render; needed when the runs measured several.")
    String target;

    @Option(
            names = "--format",
            defaultValue = "html",
            description = "html (time-series charts and a table) or csv. Default: ${DEFAULT-VALUE}.")
    OutputFormat format;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FILE",
            converter = FileOptions.Writable.class,
            description = "Where to write the history (default: standard output).")
    Path output;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        RunHistory history;
        try {
            history = RunHistory.of(runs(), Optional.ofNullable(target));
        } catch (IllegalArgumentException e) {
            err.println("report history: " + e.getMessage().replaceAll("\\s*\\R\\s*", " "));
            return INVALID_INPUT;
        }
        String report = format == OutputFormat.csv ? HistoryReport.csv(history) : HistoryReport.html(history);
        return ReportOutput.write(spec, "report history", report, output);
    }

    private List<BenchmarkRun> runs() {
        if ((paths == null || paths.isEmpty()) && s3 == null) {
            throw new IllegalArgumentException("name files or directories of saved runs, or the archive with --s3");
        }
        RunLoader loader = new RunLoader();
        List<BenchmarkRun> runs = new ArrayList<>();
        if (s3 != null) {
            runs.addAll(archived(loader));
        }
        for (Path file : files()) {
            try {
                runs.addAll(loader.loadRunSeries(
                        BoundedInput.text(file, BoundedInput.MAX_DOCUMENT_BYTES), file.toString()));
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
            }
        }
        return runs;
    }

    /** The runs archived under --s3, at most as many as files. */
    private List<BenchmarkRun> archived(RunLoader loader) {
        ArchiveLocation location = ArchiveLocation.of(s3, Optional.ofNullable(s3Endpoint), s3Region, s3PathStyle);
        List<BenchmarkRun> runs = new ArrayList<>();
        try (RunArchive archive = new RunArchive(location, ARCHIVE_TIMEOUT)) {
            for (RunArchive.Archived archived : archive.runs(Optional.ofNullable(namespace), MAX_FILES)) {
                runs.addAll(loader.loadRunSeries(
                        new String(archived.run(), StandardCharsets.UTF_8), archived.url() + RunArchive.RUN));
            }
        } catch (ArchiveException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return runs;
    }

    /** The files given, and the YAML and JSON files of the directories given, in name order. */
    private List<Path> files() {
        List<Path> files = new ArrayList<>();
        for (Path path : paths == null ? List.<Path>of() : paths) {
            if (!Files.isDirectory(path)) {
                files.add(path);
                continue;
            }
            try (Stream<Path> entries = Files.list(path)) {
                entries.filter(Files::isRegularFile)
                        .filter(file -> file.getFileName().toString().matches(".*\\.(ya?ml|json)"))
                        .sorted()
                        .forEach(files::add);
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot list " + path + ": " + e.getMessage(), e);
            }
        }
        if (files.size() > MAX_FILES) {
            throw new IllegalArgumentException(
                    "more than " + MAX_FILES + " files given: render fewer runs, or save them as one list");
        }
        return files;
    }
}
