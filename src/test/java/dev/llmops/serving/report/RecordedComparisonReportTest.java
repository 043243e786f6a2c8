package dev.llmops.serving.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageSpeedup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;

/**
 * Both reports show the comparisons the operator wrote into the statuses, never speedups of their own, so a report
 * cannot disagree with kubectl get; two runs neither status compares are shown side by side with a line saying so.
 */
class RecordedComparisonReportTest {

    private static final String NOT_RECORDED =
            "Neither kimi-k2-eagle3 nor kimi-k2-autoregressive records a comparison with the other";

    @Test
    void speedupsAreTheStatusesEvenWhereTheRunsFiguresDivideOtherwise() throws IOException {
        BenchmarkRun candidate = load(ReportTest.CANDIDATE);
        candidate.getStatus().comparison.singleStreamSpeedup = 2.5;
        stage(candidate, "c8").throughputSpeedup = 1.6;
        stage(candidate, "c8").ttftP50Speedup = 1.1;
        BenchmarkRun baseline = load(ReportTest.BASELINE);

        Document html = Jsoup.parse(HtmlReport.render(candidate, Optional.of(baseline)));
        String md = MarkdownReport.render(candidate, Optional.of(baseline));

        assertThat(row(html, "Compared with kimi-k2-autoregressive", "c8"))
                .containsExactly(
                        "c8", "8", "402.5", "702.0", "1.60×", "380.0", "395.0", "1.10×", "19.4", "11.1", "1.75×");
        assertThat(html.text()).contains("Single-stream tok/s ratio 2.50×").doesNotContain(NOT_RECORDED);
        assertThat(md)
                .contains("Against `kimi-k2-autoregressive`: single-stream tok/s ratio 2.50×")
                .contains("| c8 | 8 | 402.5 | 702.0 | 1.60× | 380.0 → 395.0 | 1.10× | 19.4 → 11.1 | 1.75× |");
    }

    @Test
    void theCapacitySpeedupOfTheStatusIsShown() throws IOException {
        BenchmarkRun candidate = load(ReportTest.CANDIDATE);
        candidate.getStatus().comparison.capacitySpeedup = 1.5;
        candidate.getStatus().comparison.baselineCapacity = "16 streams";

        Document html = Jsoup.parse(HtmlReport.render(candidate, Optional.empty()));
        String md = MarkdownReport.render(candidate, Optional.empty());

        assertThat(html.text()).contains("capacity speedup 1.50× (capacity of kimi-k2-autoregressive: 16 streams)");
        assertThat(md)
                .contains("aggregate throughput ratio (peak tok/s) 1.43×, capacity 1.50×"
                        + " (capacity of `kimi-k2-autoregressive`: 16 streams)");
    }

    @Test
    void twoRunsNeitherStatusComparesAreShownSideBySideWithoutSpeedups() throws IOException {
        BenchmarkRun candidate = load(ReportTest.CANDIDATE);
        candidate.getStatus().comparison = null;
        BenchmarkRun baseline = load(ReportTest.BASELINE);

        Document html = Jsoup.parse(HtmlReport.render(candidate, Optional.of(baseline)));
        String md = MarkdownReport.render(candidate, Optional.of(baseline));

        assertThat(html.select("h2").eachText())
                .noneMatch(h -> h.contains("ompared with"))
                .contains("Stages of kimi-k2-eagle3", "Stages of kimi-k2-autoregressive");
        assertThat(html.select("p.warning").eachText()).anyMatch(p -> p.startsWith(NOT_RECORDED));
        assertThat(html.text()).doesNotContain("×");
        assertThat(md)
                .contains("⚠ " + NOT_RECORDED)
                .contains("#### Stages of `kimi-k2-autoregressive`")
                .contains("| c64 | 64 | 1195.0 | 2900.0 |")
                .contains("| c64 | 64 | 1688.1 |")
                .doesNotContain("Against")
                .doesNotContain("×");
    }

    @Test
    void aComparisonWithAnotherRunIsShownAsRecordedAndTheGivenRunBesideIt() throws IOException {
        BenchmarkRun candidate = load(ReportTest.CANDIDATE);
        candidate.getStatus().comparison.baseline = "kimi-k2-autoregressive-old";
        BenchmarkRun baseline = load(ReportTest.BASELINE);

        Document html = Jsoup.parse(HtmlReport.render(candidate, Optional.of(baseline)));

        assertThat(row(html, "Compared with kimi-k2-autoregressive-old", "c64"))
                .containsExactly("c64", "64", "1688.1", "1.41×", "0.85×", "1.35×");
        assertThat(html.select("p.warning").eachText()).anyMatch(p -> p.startsWith(NOT_RECORDED));
    }

    @Test
    void aRunOfTheSameNameInAnotherNamespaceIsNotTheComparedRun() throws IOException {
        BenchmarkRun candidate = load(ReportTest.CANDIDATE);
        BenchmarkRun elsewhere = load(ReportTest.BASELINE);
        elsewhere.getMetadata().setNamespace("staging");

        Document html = Jsoup.parse(HtmlReport.render(candidate, Optional.of(elsewhere)));

        assertThat(row(html, "Compared with kimi-k2-autoregressive", "c64")).hasSize(6);
        assertThat(html.select("p.warning").eachText()).anyMatch(p -> p.startsWith(NOT_RECORDED));
    }

    @Test
    void theGivenRunsComparisonWithTheCandidateIsShownWhenOnlyItsStatusHoldsOne() throws IOException {
        BenchmarkRun autoregressive = load(ReportTest.BASELINE);
        BenchmarkRun eagle3 = load(ReportTest.CANDIDATE);

        Document html = Jsoup.parse(HtmlReport.render(autoregressive, Optional.of(eagle3)));
        String md = MarkdownReport.render(autoregressive, Optional.of(eagle3));

        assertThat(row(html, "kimi-k2-eagle3 compared with kimi-k2-autoregressive", "c8"))
                .containsExactly(
                        "c8", "8", "402.5", "702.0", "1.74×", "380.0", "395.0", "0.96×", "19.4", "11.1", "1.75×");
        assertThat(html.text()).doesNotContain(NOT_RECORDED);
        assertThat(md)
                .contains("`kimi-k2-eagle3` against `kimi-k2-autoregressive`: single-stream tok/s ratio 1.94×")
                .contains("| c8 | 8 | 402.5 | 702.0 | 1.74× |")
                .contains("| c64 | 64 | 1195.0 | 2900.0 |");
    }

    private static StageSpeedup stage(BenchmarkRun run, String name) {
        return run.getStatus().comparison.stages.stream()
                .filter(s -> s.name.equals(name))
                .findFirst()
                .orElseThrow();
    }

    private static List<String> row(Document html, String heading, String stage) {
        return ReportTest.rows(html, heading).stream()
                .filter(r -> r.child(0).text().equals(stage))
                .findFirst()
                .map(r -> r.select("td").eachText())
                .orElseThrow();
    }

    private static BenchmarkRun load(Path file) throws IOException {
        return new RunLoader().load(Files.readString(file), file.toString());
    }
}
