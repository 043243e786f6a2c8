package dev.llmops.serving.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.cli.Cli;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report subcommand reads a run or an experiment (with its runs) from a file or a pipe and writes each format where
 * it is told.
 */
class ReportCommandTest {

    @TempDir
    Path dir;

    private static final String TRY_HELP = "Try 'llm-serving-operator report --help' for more information.";

    @Test
    void writesHtmlAndMarkdownFiles() throws IOException {
        Path html = dir.resolve("report.html");
        Path md = dir.resolve("report.md");

        Cli.Run run = report(
                "--file",
                ReportTest.CANDIDATE.toString(),
                "--baseline",
                ReportTest.BASELINE.toString(),
                "--output",
                html.toString(),
                "--markdown",
                md.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        Document report = Jsoup.parse(Files.readString(html));
        assertThat(ReportTest.plotted(report, "Output throughput vs concurrency", "kimi-k2-autoregressive"))
                .containsEntry(64, 1195.0);
        assertThat(Files.readString(md)).contains("| c64 | 64 | 1195.0 | 1688.1 | 1.41× |");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void twoRunsNeitherStatusComparesArePrintedSideBySideSayingSo() {
        Cli.Run run = report(
                "--file",
                ReportTest.BASELINE.toString(),
                "--baseline",
                UnfinishedRunReportTest.DEMO_BASELINE.toString(),
                "--format",
                "md");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("⚠ Neither kimi-k2-autoregressive nor autoregressive records a comparison with the other")
                .contains("| c64 | 64 | 1195.0 |")
                .contains("#### Stages of `autoregressive`")
                .doesNotContain("×");
    }

    @Test
    void readsStandardInputAndPrintsMarkdown() throws IOException {
        InputStream stdin = System.in;
        Cli.Run run;
        try {
            System.setIn(new ByteArrayInputStream(Files.readAllBytes(ReportTest.BASELINE)));
            run = report("--format", "md");
            assertThat(run.exitCode()).as(run.err()).isZero();
        } finally {
            System.setIn(stdin);
        }
        assertThat(run.out())
                .startsWith("### BenchmarkRun `kimi-k2-autoregressive`")
                .contains("| c32 | 32 | 1051.8 |");
    }

    @Test
    void badInputExitsWithAReasonAndWritesNothing() throws IOException {
        Path configMap = dir.resolve("configmap.yaml");
        Files.writeString(configMap, """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: settings
                """);
        Path html = dir.resolve("report.html");

        Cli.Run run = report("--file", configMap.toString(), "--output", html.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains(configMap + " holds a ConfigMap, not one BenchmarkRun");
        assertThat(html).doesNotExist();
    }

    @Test
    void anObjectWithoutKindAndBrokenYamlAreSaidInPlainWordsOnOneLine() throws IOException {
        Path object = dir.resolve("bench.json");
        Files.writeString(object, "{\"tool\": \"llm-serving-operator bench\"}");
        Path broken = dir.resolve("broken.yaml");
        Files.writeString(broken, "a: [1,\nb");

        Cli.Run kindless = report("--file", object.toString());
        Cli.Run unparsable = report("--file", broken.toString());

        assertThat(kindless.exitCode()).isEqualTo(2);
        assertThat(kindless.err()).contains(object + " holds an object without a kind, not one BenchmarkRun");
        assertThat(unparsable.exitCode()).isEqualTo(2);
        assertThat(unparsable.err().strip())
                .endsWith(broken + " is not YAML or JSON: while parsing a flow sequence; expected ',' or ']', but got "
                        + "<stream end> (line 2, column 2)")
                .doesNotContain("Source:", "StringReader")
                .hasLineCount(1);
    }

    @Test
    void failedRunIsReportedInBothFormats() throws IOException {
        Path html = dir.resolve("report.html");
        Path md = dir.resolve("report.md");

        Cli.Run run = report(
                "--file",
                UnfinishedRunReportTest.FAILED.toString(),
                "--output",
                html.toString(),
                "--markdown",
                md.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(Jsoup.parse(Files.readString(html)).text())
                .contains("phase Failed", "ServerNotReady", "No stage has finished.");
        assertThat(Files.readString(md)).contains("Phase **Failed**", "ServerNotReady", "No stage has finished.");
    }

    @Test
    void aFileThatCannotBeReadIsOneLineSayingWhy() throws IOException {
        Path absent = dir.resolve("absent.yaml");

        Cli.Run missing = report("-f", absent.toString());
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.errLines())
                .containsExactly(
                        "llm-serving-operator report: Invalid value for option '--file': " + absent + " does not exist",
                        TRY_HELP);

        assertThat(report("--baseline", dir.toString()).errLines())
                .first()
                .isEqualTo("llm-serving-operator report: Invalid value for option '--baseline': " + dir
                        + " is a directory, not a file");
    }

    @Test
    void anOutputThatCannotBeWrittenFailsBeforeAnythingIsRendered() {
        Path inMissingDirectory = dir.resolve("missing/report.html");

        Cli.Run run = report("--file", ReportTest.CANDIDATE.toString(), "--output", inMissingDirectory.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines())
                .containsExactly(
                        "llm-serving-operator report: Invalid value for option '--output': " + inMissingDirectory
                                + " cannot be created: directory " + dir.resolve("missing") + " does not exist",
                        TRY_HELP);
    }

    @Test
    void anExperimentWithItsRunsIsOneHtmlPageWithEveryVariantOnOneChart() throws IOException {
        Path html = dir.resolve("kimi.html");
        Path md = dir.resolve("kimi.md");

        Cli.Run run = report(
                "--file",
                ExperimentReportTest.EXPERIMENT.toString(),
                "--runs",
                ExperimentReportTest.RUNS.toString(),
                "--output",
                html.toString(),
                "--markdown",
                md.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        Document report = Jsoup.parse(Files.readString(html));
        assertThat(report.title()).isEqualTo("ServingExperiment kimi");
        assertThat(ReportTest.rows(report, "Variants")).hasSize(4);
        assertThat(report.select("svg.chart g.series").eachAttr("data-series"))
                .containsExactly("autoregressive", "eagle3", "dflash-b8");
        assertThat(ReportTest.rows(report, "Failed variants").get(0).text()).contains("FlashInferNvccTooOld");
        assertThat(Files.readString(md)).startsWith("### ServingExperiment `kimi`");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void anExperimentFromStandardInputWithoutRunsIsItsStatusAndSaysTheCurvesNeedTheRuns() throws IOException {
        InputStream stdin = System.in;
        Cli.Run run;
        try {
            System.setIn(new ByteArrayInputStream(Files.readAllBytes(ExperimentReportTest.EXPERIMENT)));
            run = report("--format", "md");
        } finally {
            System.setIn(stdin);
        }

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("| dflash-b8 | Succeeded | 701.9 | 150.2 | 2010.0 |")
                .contains("The latency–throughput curves need the variants' BenchmarkRuns")
                .contains("pass them with --runs");
    }

    @Test
    void anExperimentAsCsvHasOneRowPerVariantAndStage() {
        Cli.Run run = report(
                "--file",
                ExperimentReportTest.EXPERIMENT.toString(),
                "--runs",
                ExperimentReportTest.RUNS.toString(),
                "--format",
                "csv");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(CsvReportTest.parse(run.out())).hasSize(1 + 3 * 3 + 1);
    }

    @Test
    void anExperimentAsLlmdFilesIsOneFilePerVariantAndStage() throws IOException {
        Path output = dir.resolve("kimi.yaml");

        Cli.Run run = report(
                "--file",
                ExperimentReportTest.EXPERIMENT.toString(),
                "--runs",
                ExperimentReportTest.RUNS.toString(),
                "--format",
                "llmd",
                "--output",
                output.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        try (var files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .containsExactlyInAnyOrder(
                            "kimi_autoregressive_0_single.yaml",
                            "kimi_autoregressive_1_c8.yaml",
                            "kimi_autoregressive_2_c32.yaml",
                            "kimi_eagle3_0_single.yaml",
                            "kimi_eagle3_1_c8.yaml",
                            "kimi_eagle3_2_c32.yaml",
                            "kimi_dflash-b8_0_single.yaml",
                            "kimi_dflash-b8_1_c8.yaml",
                            "kimi_dflash-b8_2_c32.yaml");
        }
        assertThat(Files.readString(dir.resolve("kimi_dflash-b8_2_c32.yaml")))
                .startsWith("version: \"0.2\"")
                .contains("kimi-dflash-b8");
    }

    @Test
    void anExperimentAsAnLlmdStreamNamesEachDocumentsVariantAndStage() {
        Cli.Run run = report(
                "--file",
                ExperimentReportTest.EXPERIMENT.toString(),
                "--runs",
                ExperimentReportTest.RUNS.toString(),
                "--format",
                "llmd");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out().lines().filter(line -> line.startsWith("--- #")))
                .containsExactly(
                        "--- # variant autoregressive stage single",
                        "--- # variant autoregressive stage c8",
                        "--- # variant autoregressive stage c32",
                        "--- # variant eagle3 stage single",
                        "--- # variant eagle3 stage c8",
                        "--- # variant eagle3 stage c32",
                        "--- # variant dflash-b8 stage single",
                        "--- # variant dflash-b8 stage c8",
                        "--- # variant dflash-b8 stage c32");
    }

    @Test
    void anExperimentWithoutRunsHasNoLlmdReport() {
        Cli.Run run = report("--file", ExperimentReportTest.EXPERIMENT.toString(), "--format", "llmd");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines())
                .containsExactly("report: no variant of ServingExperiment kimi has a run with a finished stage, and an"
                        + " llm-d benchmark report describes a measured stage: pass the variants' BenchmarkRuns with"
                        + " --runs");
    }

    @Test
    void aRunOfAnotherExperimentIsRefusedAndNothingIsWritten() throws IOException {
        Path runs = dir.resolve("runs.yaml");
        Files.writeString(
                runs,
                Files.readString(ExperimentReportTest.RUNS)
                        .replaceFirst("serving.llmops.dev/experiment: kimi", "serving.llmops.dev/experiment: glm"));
        Path html = dir.resolve("kimi.html");

        Cli.Run run = report(
                "--file",
                ExperimentReportTest.EXPERIMENT.toString(),
                "--runs",
                runs.toString(),
                "--output",
                html.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines())
                .containsExactly("report: BenchmarkRun kimi-autoregressive is not a run of ServingExperiment kimi (its"
                        + " label serving.llmops.dev/experiment is glm): pass only this experiment's runs, e.g."
                        + " kubectl get benchmarkruns -l serving.llmops.dev/experiment=kimi -o yaml");
        assertThat(html).doesNotExist();
    }

    @Test
    void runsAndBaselineGoOnlyWithTheInputTheyBelongTo() {
        Cli.Run runsWithARun =
                report("--file", ReportTest.CANDIDATE.toString(), "--runs", ExperimentReportTest.RUNS.toString());
        assertThat(runsWithARun.exitCode()).isEqualTo(2);
        assertThat(runsWithARun.errLines())
                .containsExactly("report: --runs goes with a ServingExperiment, and " + ReportTest.CANDIDATE
                        + " holds none: pass the output of kubectl get servingexperiment NAME -o yaml");

        Cli.Run baselineWithAnExperiment = report(
                "--file", ExperimentReportTest.EXPERIMENT.toString(), "--baseline", ReportTest.BASELINE.toString());
        assertThat(baselineWithAnExperiment.exitCode()).isEqualTo(2);
        assertThat(baselineWithAnExperiment.errLines())
                .containsExactly("report: --baseline goes with a BenchmarkRun: each variant of an experiment is"
                        + " already compared with its baseline variant");
    }

    private static Cli.Run report(String... args) {
        List<String> command = new ArrayList<>(List.of("report"));
        command.addAll(List.of(args));
        return Cli.run(command.toArray(String[]::new));
    }
}
