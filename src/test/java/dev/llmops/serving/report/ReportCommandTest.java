package dev.llmops.serving.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.cli.ReportCommand;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The report subcommand reads a run from a file or a pipe and writes HTML and Markdown where it is told. */
class ReportCommandTest {

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void writesHtmlAndMarkdownFiles() throws IOException {
        Path html = dir.resolve("report.html");
        Path md = dir.resolve("report.md");

        int exit = run("--file", ReportTest.CANDIDATE.toString(), "--baseline", ReportTest.BASELINE.toString(),
                "--output", html.toString(), "--markdown", md.toString());

        assertThat(exit).as(err.toString()).isZero();
        Document report = Jsoup.parse(Files.readString(html));
        assertThat(ReportTest.plotted(report, "Output throughput vs concurrency", "kimi-k2-autoregressive")).containsEntry(64, 1195.0);
        assertThat(Files.readString(md)).contains("| c64 | 64 | 1195.0 | 1688.1 | 1.41× |");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void readsStandardInputAndPrintsMarkdown() throws IOException {
        InputStream stdin = System.in;
        try {
            System.setIn(new ByteArrayInputStream(Files.readAllBytes(ReportTest.BASELINE)));
            int exit = run("--format", "md");
            assertThat(exit).as(err.toString()).isZero();
        } finally {
            System.setIn(stdin);
        }
        assertThat(out.toString()).startsWith("### BenchmarkRun `kimi-k2-autoregressive`").contains("| c32 | 32 | 1051.8 |");
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

        int exit = run("--file", configMap.toString(), "--output", html.toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains(configMap + " holds a ConfigMap, not one BenchmarkRun");
        assertThat(html).doesNotExist();
    }

    @Test
    void failedRunIsReportedInBothFormats() throws IOException {
        Path html = dir.resolve("report.html");
        Path md = dir.resolve("report.md");

        int exit = run("--file", UnfinishedRunReportTest.FAILED.toString(), "--output", html.toString(), "--markdown", md.toString());

        assertThat(exit).as(err.toString()).isZero();
        assertThat(Jsoup.parse(Files.readString(html)).text()).contains("phase Failed", "ServerNotReady", "No stage has finished.");
        assertThat(Files.readString(md)).contains("Phase **Failed**", "ServerNotReady", "No stage has finished.");
    }

    @Test
    void missingFileIsNamed() {
        int exit = run("--file", dir.resolve("absent.yaml").toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("absent.yaml");
    }

    private int run(String... args) {
        CommandLine command = new CommandLine(new ReportCommand());
        command.setOut(new PrintWriter(out, true));
        command.setErr(new PrintWriter(err, true));
        return command.execute(args);
    }
}
