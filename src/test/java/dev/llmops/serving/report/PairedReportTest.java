package dev.llmops.serving.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

/**
 * Both reports show what the paired comparison in a run's status says: acceptance per stage, speedups with their
 * intervals and verdicts (as a table and an error-bar chart), the outputs' agreement and the verdict conditions.
 */
class PairedReportTest {

    static final Path PAIRED = Path.of("src/test/resources/report/benchmarkrun-eagle3-paired.yaml");
    private static final String BASELINE_CHART =
            "Paired per-stream speedup over kimi-k2-autoregressive (95 % interval)";

    @Test
    void htmlTabulatesEachStagesIntervalsVerdictAndAcceptance() throws IOException {
        Document html = html();

        assertThat(row(html, "Paired per request against kimi-k2-autoregressive", "c8"))
                .containsExactly(
                        "c8",
                        "faster",
                        "400",
                        "1.74×",
                        "1.70–1.78",
                        "1.75×",
                        "1.71–1.79",
                        "0.96×",
                        "0.93–0.99",
                        "—",
                        "3.05");
        assertThat(row(html, "Paired per request against kimi-k2-autoregressive", "c16"))
                .containsSequence("c16", "no significant difference", "800", "1.00×", "0.97–1.03");
        assertThat(row(html, "Paired per request against kimi-k2-eagle3-v1", "c8"))
                .containsSequence("c8", "slower", "400", "0.81×", "0.78–0.84")
                .endsWith("3.90", "3.05");
        assertThat(row(html, "Paired per request against kimi-k2-eagle3-v1", "single"))
                .containsExactly("single", "—", "4", "0.99×", "—", "—", "—", "—", "—", "3.30", "3.21");
        assertThat(row(html, "Stages of kimi-k2-eagle3", "single")).endsWith("3.21");
        assertThat(row(html, "Stages of kimi-k2-eagle3", "c16")).endsWith("—");
    }

    @Test
    void withTheBaselineRunGivenThePairedFiguresOfTheStatusStillShow() throws IOException {
        Document html = Jsoup.parse(HtmlReport.render(load(), Optional.of(load(ReportTest.BASELINE))));

        assertThat(row(html, "Paired per request against kimi-k2-autoregressive", "c8"))
                .containsSequence("c8", "faster", "400", "1.74×", "1.70–1.78");
        assertThat(row(html, "Compared with kimi-k2-autoregressive", "c8")).containsSequence("c8", "8", "402.5");
        assertThat(html.select("svg.chart[data-title=\"" + BASELINE_CHART + "\"] g.interval"))
                .hasSize(3);
    }

    @Test
    void htmlDrawsEachIntervalAroundItsEstimateAgainstALineAtOne() throws IOException {
        Document html = html();

        Element chart = html.selectFirst("svg.chart[data-title=\"" + BASELINE_CHART + "\"]");
        assertThat(chart).isNotNull();
        assertThat(chart.select("g.interval"))
                .extracting(g -> String.join(
                        " ",
                        g.attr("data-stage"),
                        g.attr("data-estimate"),
                        g.attr("data-low"),
                        g.attr("data-high"),
                        g.attr("data-verdict")))
                .containsExactly(
                        "single 1.93 1.81 2.07 Faster",
                        "c8 1.744 1.702 1.781 Faster",
                        "c16 1 0.97 1.03 NoSignificantDifference");
        double parity = Double.parseDouble(chart.selectFirst("line.parity").attr("y1"));
        for (Element bar : chart.select("g.interval")) {
            double estimate = Double.parseDouble(bar.selectFirst("circle.point").attr("cy"));
            List<Double> ends = bar.select("line").stream()
                    .limit(1)
                    .flatMap(l -> Stream.of(l.attr("y1"), l.attr("y2")))
                    .map(Double::parseDouble)
                    .toList();
            assertThat(estimate).as("the estimate lies on its bar").isBetween(ends.get(1), ends.get(0));
            if (bar.attr("data-verdict").equals("Faster")) {
                assertThat(ends.get(0)).as("a faster stage's bar lies above 1").isLessThan(parity);
            } else {
                assertThat(estimate).as("a speedup of 1 sits on the line").isCloseTo(parity, within(0.11));
                assertThat(parity).isBetween(ends.get(1), ends.get(0));
            }
        }
        assertThat(html.select(
                        "svg.chart[data-title=\"Paired per-stream speedup over kimi-k2-eagle3-v1 (95 % interval)\"]"
                                + " g.interval"))
                .extracting(g -> g.attr("data-stage"))
                .as("a stage without an interval has no bar")
                .containsExactly("c8");
    }

    @Test
    void htmlShowsAgreementWhyIntervalsAreMissingAndTheVerdictConditions() throws IOException {
        Document html = html();

        assertThat(html.text())
                .contains("Greedy outputs of 5 prompts: 80.0 % identical, mean shared prefix 241.2 tokens, "
                        + "prefix agreement 98.4 %.")
                .contains("stage single has 4 paired requests, fewer than 5: no interval or verdict");
        assertThat(html.select("h2")).extracting(Element::text).contains("Compared with reference kimi-k2-eagle3-v1");
        assertThat(ReportTest.rows(html, "Verdicts of kimi-k2-eagle3"))
                .extracting(r -> r.child(0).text() + " / " + r.child(1).text())
                .containsExactly(
                        "Regressed True / Regressed",
                        "Improved False / Regressed",
                        "QualitySuspect False / OutputsAgree");
    }

    @Test
    void markdownHasTheSameFiguresAsTables() throws IOException {
        String md = MarkdownReport.render(load(), Optional.empty());

        assertThat(md)
                .contains("| Stage | Verdict | Pairs | Paired per-stream speedup | 95 % interval | TPOT p50 speedup | "
                        + "95 % interval | TTFT p50 speedup | 95 % interval | Acceptance baseline | "
                        + "Acceptance candidate |")
                .contains("| c8 | faster | 400 | 1.74× | 1.70–1.78 | 1.75× | 1.71–1.79 | 0.96× | 0.93–0.99 | "
                        + "— | 3.05 |")
                .contains("| c8 | slower | 400 | 0.81× | 0.78–0.84 | 0.80× | 0.77–0.83 | 0.97× | 0.94–1.00 | "
                        + "3.90 | 3.05 |")
                .contains("Against reference `kimi-k2-eagle3-v1`: single-stream tok/s ratio 0.99×,"
                        + " aggregate throughput ratio (peak tok/s) 0.83×")
                .contains("⚠ stage single has 4 paired requests, fewer than 5: no interval or verdict")
                .contains("Greedy outputs of 5 prompts: 80.0 % identical")
                .contains("#### Verdicts\n\n- **Regressed True** (Regressed): stage c8: throughput 0.81x");
        assertThat(md.indexOf("Regressed True")).isLessThan(md.indexOf("QualitySuspect False"));
    }

    @Test
    void markdownOfARunWithoutComparisonShowsItsAcceptancePerStage() throws IOException {
        BenchmarkRun run = load();
        run.getStatus().comparison = null;
        run.getStatus().referenceComparison = null;

        String md = MarkdownReport.render(run, Optional.empty());

        assertThat(md)
                .contains("| Failed | Acceptance length |")
                .contains("| single | 1 | 118.4 |")
                .contains(" | 3.21 |");
        assertThat(MarkdownReport.render(load(ReportTest.BASELINE), Optional.empty()))
                .doesNotContain("Acceptance");
    }

    @Test
    void aReportWithoutPairedFiguresHasNoPairedTableOrChart() throws IOException {
        Document html = Jsoup.parse(HtmlReport.render(load(ReportTest.CANDIDATE), Optional.empty()));

        assertThat(html.select("h2")).extracting(Element::text).noneMatch(h -> h.startsWith("Paired"));
        assertThat(html.select("svg.chart[data-title^=\"Paired per-stream speedup\"]"))
                .isEmpty();
    }

    private static Document html() throws IOException {
        return Jsoup.parse(HtmlReport.render(load(), Optional.empty()));
    }

    private static BenchmarkRun load() throws IOException {
        return load(PAIRED);
    }

    private static BenchmarkRun load(Path file) throws IOException {
        return new RunLoader().load(Files.readString(file), file.toString());
    }

    private static List<String> row(Document html, String heading, String stage) {
        return ReportTest.rows(html, heading).stream()
                .filter(r -> r.child(0).text().equals(stage))
                .findFirst()
                .orElseThrow()
                .select("td")
                .eachText();
    }
}
