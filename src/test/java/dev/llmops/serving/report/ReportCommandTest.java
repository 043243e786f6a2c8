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

/** The report subcommand reads a run from a file or a pipe and writes HTML and Markdown where it is told. */
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

    private static Cli.Run report(String... args) {
        List<String> command = new ArrayList<>(List.of("report"));
        command.addAll(List.of(args));
        return Cli.run(command.toArray(String[]::new));
    }
}
