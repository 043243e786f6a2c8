package dev.llmops.serving.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

/** A failed or still running run is reported too: why it stands where it does, and whatever stages it finished. */
class UnfinishedRunReportTest {

    static final Path FAILED = Path.of("src/test/resources/report/demo-half-ready.yaml");
    static final Path DEMO_CANDIDATE = Path.of("src/test/resources/report/demo-eagle3.yaml");
    static final Path DEMO_BASELINE = Path.of("src/test/resources/report/demo-autoregressive.yaml");

    private static final String CUDA_ERROR = "CUDA error: no kernel image is available for execution on the device";

    @Test
    void failedRunShowsItsPhaseAndEachDistinctMessageOnceInHtml() throws IOException {
        Document html = Jsoup.parse(HtmlReport.render(load(FAILED), Optional.empty()));

        assertThat(html.select(".meta").first().text()).contains("phase Failed");
        List<Element> rows = ReportTest.rows(html, "Conditions of half-ready");
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).select("td").eachText().subList(0, 2))
                .containsExactly("Ready False, Succeeded False, Reconciling False, Stalled True", "ServerNotReady");
        assertThat(occurrences(html.text(), CUDA_ERROR)).isEqualTo(1);
        assertThat(html.text()).contains("No stage has finished.");
        assertThat(html.select("svg.chart")).isEmpty();
        assertThat(ReportTest.rows(html, "Provenance").get(0).select("td").eachText())
                .containsExactly("Model", "—");
    }

    @Test
    void failedRunShowsItsPhaseAndEachDistinctMessageOnceInMarkdown() throws IOException {
        String md = MarkdownReport.render(load(FAILED), Optional.empty());

        assertThat(md)
                .contains(
                        "Phase **Failed**",
                        "No stage has finished.",
                        "- **Ready False, Succeeded False, Reconciling False, Stalled True** (ServerNotReady): Gave "
                                + "up after",
                        "Provenance: Model — · Image —");
        assertThat(occurrences(md, CUDA_ERROR)).isEqualTo(1);
        assertThat(md).doesNotContain("| Stage |");
    }

    @Test
    void succeededRunGroupsConditionsThatShareAMessage() throws IOException {
        Document html = Jsoup.parse(HtmlReport.render(load(DEMO_CANDIDATE), Optional.of(load(DEMO_BASELINE))));

        assertThat(ReportTest.rows(html, "Conditions of eagle3"))
                .extracting(r -> r.child(0).text())
                .containsExactly(
                        "Ready True, Succeeded True, Reconciling False, Stalled False", "BaselineCompared True");
        assertThat(occurrences(html.text(), "Benchmark finished: peak 3490.0 output tok/s"))
                .isEqualTo(1);
    }

    @Test
    void runningRunShowsTheStagesItFinished() throws IOException {
        BenchmarkRun run = load(DEMO_CANDIDATE);
        run.getStatus().phase = BenchmarkRunPhase.Running;
        run.getStatus().progress = "2/5";
        run.getStatus().stages = run.getStatus().stages.subList(0, 2);
        run.getStatus().summary = null;
        run.getStatus().comparison = null;

        Document html = Jsoup.parse(HtmlReport.render(run, Optional.empty()));
        String md = MarkdownReport.render(run, Optional.empty());

        assertThat(html.select(".meta").first().text()).contains("phase Running", "progress 2/5");
        assertThat(ReportTest.plotted(html, "End-to-end latency vs concurrency", "eagle3 p50"))
                .containsOnlyKeys(1, 8);
        assertThat(ReportTest.rows(html, "Stages of eagle3"))
                .extracting(r -> r.child(0).text())
                .containsExactly("single", "c8");
        assertThat(md)
                .contains("Phase **Running** · progress 2/5", "| c8 | 8 | 865.9 |")
                .doesNotContain("| c16 |");
    }

    @Test
    void failedCandidateAgainstAMeasuredBaselineHasNoComparison() throws IOException {
        Document html = Jsoup.parse(HtmlReport.render(load(FAILED), Optional.of(load(DEMO_BASELINE))));

        assertThat(html.select("h2").eachText())
                .doesNotContain("Compared with autoregressive")
                .contains("Stages of half-ready", "Stages of autoregressive");
        assertThat(ReportTest.plotted(html, "Inter-token latency vs concurrency", "autoregressive p99"))
                .containsKey(64);
        assertThat(ReportTest.plotted(html, "Inter-token latency vs concurrency", "half-ready p99"))
                .isEmpty();
    }

    @Test
    void longMessagesAreCutAndEscaped() throws IOException {
        BenchmarkRun run = load(FAILED);
        String log = "<script>alert(1)</script>" + "x".repeat(50_000);
        run.getStatus().conditions = List.of(condition("Ready", log), condition("Stalled", log));
        run.getStatus().warnings = List.of(log);

        Document html = Jsoup.parse(HtmlReport.render(run, Optional.empty()));
        String md = MarkdownReport.render(run, Optional.empty());

        assertThat(html.select("script")).isEmpty();
        assertThat(html.text())
                .contains("<script>alert(1)</script>xxx", "… (49025 more characters)")
                .hasSizeLessThan(5_000);
        assertThat(md)
                .doesNotContain("<script>")
                .contains("&lt;script>alert(1)&lt;/script>xxx", "… (49025 more characters)")
                .hasSizeLessThan(5_000);
    }

    private static Condition condition(String type, String message) {
        return new ConditionBuilder()
                .withType(type)
                .withStatus("False")
                .withReason("ServerNotReady")
                .withMessage(message)
                .build();
    }

    private static BenchmarkRun load(Path file) throws IOException {
        return new RunLoader().load(Files.readString(file), file.toString());
    }

    private static int occurrences(String text, String part) {
        return text.split(Pattern.quote(part), -1).length - 1;
    }
}
