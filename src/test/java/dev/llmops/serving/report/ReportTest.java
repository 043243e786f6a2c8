package dev.llmops.serving.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmops.serving.api.contract.CapacityOutcome;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.CapacityResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.LatencyStats;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

/** The HTML and Markdown reports show exactly the figures of the runs they were given. */
class ReportTest {

    static final Path CANDIDATE = Path.of("src/test/resources/report/benchmarkrun-eagle3.yaml");
    static final Path BASELINE = Path.of("src/test/resources/report/benchmarkrun-autoregressive.yaml");
    static final Path SESSIONS = Path.of("src/test/resources/report/benchmarkrun-sessions.yaml");
    static final Path RATES = Path.of("src/test/resources/report/benchmarkrun-random-rates.yaml");

    private static final String PENDING = """
            apiVersion: serving.llmops.dev/v1alpha1
            kind: BenchmarkRun
            metadata:
              name: fresh
            status:
            """;

    private final RunLoader loader = new RunLoader();

    @Test
    void chartsPlotEveryStageOfBothRuns() throws IOException {
        BenchmarkRun candidate = load(CANDIDATE);
        BenchmarkRun baseline = load(BASELINE);
        Document html = Jsoup.parse(HtmlReport.render(candidate, Optional.of(baseline)));

        assertThat(html.select("svg.chart")).hasSize(6);
        Map<String, Function<StageResult, LatencyStats>> latencies = Map.of(
                "Time to first token vs concurrency", s -> s.ttftMillis,
                "Time per output token vs concurrency", s -> s.tpotMillis,
                "Inter-token latency vs concurrency", s -> s.itlMillis,
                "End-to-end latency vs concurrency", s -> s.e2eMillis);
        Map<String, Function<LatencyStats, Double>> percentiles =
                Map.of("p50", l -> l.p50, "p90", l -> l.p90, "p99", l -> l.p99);
        for (BenchmarkRun run : List.of(candidate, baseline)) {
            String name = run.getMetadata().getName();
            assertThat(plotted(html, "Output throughput vs concurrency", name))
                    .isEqualTo(expected(run, s -> s.outputTokensPerSecond));
            latencies.forEach((chart, latency) ->
                    percentiles.forEach((percentile, value) -> assertThat(plotted(html, chart, name + " " + percentile))
                            .isEqualTo(expected(run, s -> value.apply(latency.apply(s))))));
        }
        assertThat(plotted(html, "Output throughput vs concurrency", "kimi-k2-eagle3"))
                .containsEntry(48, 1702.3)
                .containsEntry(1, 118.4);
    }

    @Test
    void capacityGoodputAndTheLatencyThroughputCurveAreShownInBothFormats() throws IOException {
        BenchmarkRun candidate = load(CANDIDATE);
        candidate.getStatus().capacity = new CapacityResult();
        candidate.getStatus().capacity.load = "24 streams";
        candidate.getStatus().capacity.outcome = CapacityOutcome.Found;
        candidate.getStatus().capacity.goodputOutputTokensPerSecond = 590.1;
        StageResult c8 = candidate.getStatus().stages.stream()
                .filter(s -> s.name.equals("c8"))
                .findFirst()
                .orElseThrow();
        c8.sloAttainment = 0.97;
        c8.goodputRequestsPerSecond = 2.345;
        BenchmarkRun baseline = load(BASELINE);

        Document html = Jsoup.parse(HtmlReport.render(candidate, Optional.of(baseline)));

        assertThat(rowStartingWith(html, "Capacity under the SLO", "Capacity").children())
                .extracting(Element::text)
                .containsExactly("Capacity", "24 streams", "—");
        assertThat(rowStartingWith(html, "Capacity under the SLO", "Goodput tok/s")
                        .child(1)
                        .text())
                .isEqualTo("590.1");
        assertThat(rows(html, "Goodput and schedule of kimi-k2-eagle3"))
                .singleElement()
                .satisfies(row -> assertThat(row.children())
                        .extracting(Element::text)
                        .containsExactly("c8", "—", "—", "—", "97.0 %", "2.35", "—"));
        assertThat(html.select("h2"))
                .extracting(Element::text)
                .doesNotContain(
                        "Goodput and schedule of " + baseline.getMetadata().getName());
        Element curve = html.selectFirst("svg.chart[data-title^=\"Latency–throughput\"]");
        assertThat(curve).isNotNull();
        for (BenchmarkRun run : List.of(candidate, baseline)) {
            Map<String, String> expected = new LinkedHashMap<>();
            run.getStatus()
                    .stages
                    .forEach(s -> expected.put(
                            s.name, s.totalTokensPerSecond + "," + Math.round(1000 / s.tpotMillis.p50 * 10) / 10.0));
            Map<String, String> plotted = new LinkedHashMap<>();
            curve.selectFirst("g.series[data-series=\"" + run.getMetadata().getName() + "\"]")
                    .select("circle.point")
                    .forEach(p -> plotted.put(
                            p.attr("data-stage"),
                            Double.parseDouble(p.attr("data-x")) + "," + Double.parseDouble(p.attr("data-y"))));
            assertThat(plotted).as("one point per stage").isEqualTo(expected);
        }

        String md = MarkdownReport.render(candidate, Optional.of(baseline));
        assertThat(md)
                .contains("#### Capacity under the SLO")
                .contains("| Capacity | 24 streams | — |")
                .contains("| c8 | — | — | — | 97.0 % | 2.35 | — |");
    }

    @Test
    void aSessionsRunShowsEachStagesTurnsAndThePrefixCacheInBothFormats() throws IOException {
        BenchmarkRun run = load(SESSIONS);

        Document html = Jsoup.parse(HtmlReport.render(run, Optional.empty()));

        assertThat(headers(html, "Stages of qwen3-sessions"))
                .endsWith("Req/s", "Cached prompt share", "Cache hit rate");
        assertThat(rowStartingWith(html, "Stages of qwen3-sessions", "c8")
                        .select("td")
                        .eachText())
                .endsWith("2.52", "68.4 %", "71.2 %");
        assertThat(rows(html, "Turns of c8 in qwen3-sessions"))
                .extracting(row -> row.select("td").eachText())
                .containsExactly(
                        List.of("1", "38", "182.0", "236.0", "0.0 %"),
                        List.of("2", "38", "41.0", "68.0", "84.2 %"),
                        List.of("3", "38", "42.5", "71.0", "85.8 %"),
                        List.of("4", "38", "43.0", "74.0", "87.1 %"));
        assertThat(headers(html, "Turns of c8 in qwen3-sessions"))
                .containsExactly("Turn", "Completed", "TTFT p50 (ms)", "TTFT p99 (ms)", "Cached prompt share");
        assertThat(rowStartingWith(html, "Turns of c16 in qwen3-sessions", "1")
                        .select("td")
                        .eachText())
                .containsExactly("1", "70", "258.0", "392.0", "0.0 %");

        String md = MarkdownReport.render(run, Optional.empty());
        assertThat(md)
                .contains("| Stage | Concurrency | Output tok/s | TTFT p50 (ms) | TTFT p99 (ms) | TPOT p50 (ms) | "
                        + "TPOT p99 (ms) | Failed | Cached prompt share | Cache hit rate |")
                .contains("| c16 | 16 | 1178.9 | 58.0 | 392.0 | 13.0 | 16.0 | 0 | 66.1 % | 68.8 % |")
                .contains("#### Turns of `c8` in `qwen3-sessions`\n\n"
                        + "| Turn | Completed | TTFT p50 (ms) | TTFT p99 (ms) | Cached prompt share |\n"
                        + "|---|---:|---:|---:|---:|\n"
                        + "| 1 | 38 | 182.0 | 236.0 | 0.0 % |\n"
                        + "| 2 | 38 | 41.0 | 68.0 | 84.2 % |\n")
                .contains("#### Turns of `c16` in `qwen3-sessions`")
                .contains("| 4 | 70 | 59.0 | 108.0 | 84.0 % |");
    }

    @Test
    void aRunWithoutCacheFiguresOrTurnsHasNoSuchColumnsOrSections() throws IOException {
        BenchmarkRun run = load(RATES);

        Document html = Jsoup.parse(HtmlReport.render(run, Optional.empty()));

        assertThat(headers(html, "Stages of external-rates")).last().isEqualTo("Req/s");
        assertThat(html.select("h2").eachText()).noneMatch(heading -> heading.startsWith("Turns of"));
        assertThat(html.text()).doesNotContain("Cached prompt share", "Cache hit rate");
        String md = MarkdownReport.render(run, Optional.empty());
        assertThat(md).doesNotContain("Cached prompt share", "Cache hit rate", "Turns of");
    }

    @Test
    void onlyTheCacheFigureAStageHasGetsAColumnAndAnAbsentOneADash() throws IOException {
        BenchmarkRun run = load(SESSIONS);
        run.getStatus().stages.forEach(s -> s.cacheHitRate = null);
        Stages.named(run, "c16").orElseThrow().cachedPromptShare = null;

        Document html = Jsoup.parse(HtmlReport.render(run, Optional.empty()));

        assertThat(headers(html, "Stages of qwen3-sessions")).endsWith("Req/s", "Cached prompt share");
        assertThat(rowStartingWith(html, "Stages of qwen3-sessions", "c16")
                        .select("td")
                        .eachText())
                .endsWith("4.61", "—");
        assertThat(MarkdownReport.render(run, Optional.empty()))
                .contains("| c8 | 8 | 644.2 | 43.0 | 238.0 | 11.5 | 13.8 | 0 | 68.4 % |")
                .doesNotContain("Cache hit rate");
    }

    @Test
    void htmlNeedsNothingBesideItself() throws IOException {
        Document html = Jsoup.parse(HtmlReport.render(load(CANDIDATE), Optional.of(load(BASELINE))));

        assertThat(html.select("script, link, img, iframe, object, [src]")).isEmpty();
        assertThat(html.select("style")).hasSize(1);
        assertThat(html.title()).isEqualTo("BenchmarkRun kimi-k2-eagle3 vs kimi-k2-autoregressive");
    }

    @Test
    void comparisonTableShowsBothRunsFiguresAndTheSpeedupsOfTheStatus() throws IOException {
        Document html = Jsoup.parse(HtmlReport.render(load(CANDIDATE), Optional.of(load(BASELINE))));

        Element c8 = rowStartingWith(html, "Compared with kimi-k2-autoregressive", "c8");
        assertThat(c8.select("td").eachText())
                .containsExactly(
                        "c8", "8", "402.5", "702.0", "1.74×", "380.0", "395.0", "0.96×", "19.4", "11.1", "1.75×");
        assertThat(html.text())
                .contains("Single-stream tok/s ratio 1.94×", "aggregate throughput ratio (peak tok/s) 1.43×");
    }

    @Test
    void withoutABaselineRunTheStatusSpeedupsAreShown() throws IOException {
        Document html = Jsoup.parse(HtmlReport.render(load(CANDIDATE), Optional.empty()));

        assertThat(rowStartingWith(html, "Compared with kimi-k2-autoregressive", "c64")
                        .select("td")
                        .eachText())
                .containsExactly("c64", "64", "1688.1", "1.41×", "0.85×", "1.35×");
    }

    @Test
    void userTextIsEscaped() throws IOException {
        BenchmarkRun run = load(CANDIDATE);
        run.getStatus().singleRequests.get(0).prompt = "<script>alert(1)</script>";
        run.getStatus().warnings = List.of("<img src=x onerror=alert(1)>");

        Document html = Jsoup.parse(HtmlReport.render(run, Optional.empty()));

        assertThat(html.select("script, img")).isEmpty();
        assertThat(html.text()).contains("<script>alert(1)</script>", "<img src=x onerror=alert(1)>");
    }

    @Test
    void secretFlagsOfTheServerCommandLineAreNotShown() throws IOException {
        BenchmarkRun run = load(CANDIDATE);
        run.getStatus().provenance.serverArgs = List.of("--tp-size", "8", "--api-key", "sk-live-1", "--hf-token=hf_2");

        String html = HtmlReport.render(run, Optional.empty());

        assertThat(html).contains("--tp-size 8 --api-key &lt;redacted&gt; --hf-token=&lt;redacted&gt;");
        assertThat(html).doesNotContain("sk-live-1").doesNotContain("hf_2");
    }

    @Test
    void stagesTruncatedToCountsShowDashesAndNoPoints() throws IOException {
        BenchmarkRun run = load(CANDIDATE);
        StageResult c64 = Stages.named(run, "c64").orElseThrow();
        c64.outputTokensPerSecond = null;
        c64.ttftMillis = null;

        Document html = Jsoup.parse(HtmlReport.render(run, Optional.empty()));

        assertThat(plotted(html, "Output throughput vs concurrency", "kimi-k2-eagle3"))
                .doesNotContainKey(64)
                .containsKey(48);
        assertThat(plotted(html, "Time to first token vs concurrency", "kimi-k2-eagle3 p50"))
                .doesNotContainKey(64);
        assertThat(rowStartingWith(html, "Stages of kimi-k2-eagle3", "c64")
                        .select("td")
                        .get(5)
                        .text())
                .isEqualTo("—");
    }

    @Test
    void markdownWithBaselineHasOneRowPerSharedStage() throws IOException {
        String md = MarkdownReport.render(load(CANDIDATE), Optional.of(load(BASELINE)));

        List<String> rows = md.lines()
                .filter(l -> l.startsWith("| c") || l.startsWith("| single"))
                .toList();
        assertThat(rows).hasSize(6);
        assertThat(rows)
                .contains(
                        "| single | 1 | 61.2 | 118.4 | 1.94× | 210.0 → 205.0 | 1.02× | 16.1 → 8.3 | 1.94× |",
                        "| c48 | 48 | 1180.4 | 1702.3 | 1.44× | 1650.0 → 1890.0 | 0.87× | 38.8 → 27.4 | 1.42× |");
        assertThat(md)
                .contains("Against `kimi-k2-autoregressive`: single-stream tok/s ratio 1.94×,"
                        + " aggregate throughput ratio (peak tok/s) 1.43×");
    }

    @Test
    void markdownWithoutBaselineUsesTheComparisonInStatus() throws IOException {
        String md = MarkdownReport.render(load(CANDIDATE), Optional.empty());

        assertThat(md)
                .contains(
                        "| Stage | Concurrency | Output tok/s | Aggregate throughput ratio | TTFT p50 speedup |"
                                + " TPOT p50 speedup |",
                        "| c16 | 16 | 1121.6 | 1.63× | 0.93× | 1.63× |");
    }

    @Test
    void markdownOfARunWithoutComparisonListsItsStages() throws IOException {
        String md = MarkdownReport.render(load(BASELINE), Optional.empty());

        assertThat(md)
                .contains(
                        "| Stage | Concurrency | Output tok/s | TTFT p50 (ms) | TTFT p99 (ms) | TPOT p50 (ms) | "
                                + "TPOT p99 (ms) | Failed |",
                        "| c64 | 64 | 1195.0 | 2900.0 | 6670.0 | 51.2 | 117.8 | 2 |");
    }

    @Test
    void refusesOnlyWhatIsNotABenchmarkRun() {
        assertThatThrownBy(() -> loader.load("", "run.yaml")).hasMessageContaining("run.yaml is empty");
        assertThatThrownBy(() -> loader.load("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n", "cm.yaml"))
                .hasMessageContaining("cm.yaml holds a ConfigMap, not one BenchmarkRun");
        assertThatThrownBy(() -> loader.load("{not: [valid", "broken.yaml"))
                .hasMessageContaining("broken.yaml is not YAML or JSON");
        assertThatThrownBy(() -> loader.load(
                        "apiVersion: serving.llmops.dev/v1alpha1\nkind: BenchmarkRun\nstatus: {}\n", "anon.yaml"))
                .hasMessageContaining("anon.yaml holds a BenchmarkRun without metadata.name");
        assertThatThrownBy(() -> loader.load(PENDING + "  phase: Exploded\n", "odd.yaml"))
                .hasMessageContaining("odd.yaml: BenchmarkRun fresh does not match its schema");
    }

    @Test
    void loadsARunInAnyPhaseWithEmptyListsForNulls() {
        BenchmarkRun pending =
                loader.load(PENDING + "  phase: Pending\n  stages: null\n  conditions: [null]\n", "fresh.yaml");

        assertThat(pending.getStatus().phase).hasToString("Pending");
        assertThat(pending.getStatus().stages).isEmpty();
        assertThat(pending.getStatus().conditions).isEmpty();
        assertThat(loader.load(PENDING.replace("status:\n", ""), "new.yaml").getStatus().stages)
                .isEmpty();
    }

    private BenchmarkRun load(Path file) throws IOException {
        return loader.load(Files.readString(file), file.toString());
    }

    private static Map<Integer, Double> expected(BenchmarkRun run, Function<StageResult, Double> value) {
        Map<Integer, Double> values = new LinkedHashMap<>();
        run.getStatus().stages.forEach(s -> values.put(s.concurrency, value.apply(s)));
        return values;
    }

    /** The points of one series of one chart, read back from the SVG. */
    static Map<Integer, Double> plotted(Document html, String chart, String series) {
        Element svg = html.selectFirst("svg.chart[data-title=\"" + chart + "\"]");
        assertThat(svg).as(chart).isNotNull();
        Element group = svg.selectFirst("g.series[data-series=\"" + series + "\"]");
        assertThat(group).as(chart + " / " + series).isNotNull();
        Map<Integer, Double> values = new LinkedHashMap<>();
        for (Element point : group.select("circle.point")) {
            values.put(Integer.parseInt(point.attr("data-concurrency")), Double.parseDouble(point.attr("data-value")));
        }
        return values;
    }

    private static Element rowStartingWith(Document html, String heading, String firstCell) {
        return rows(html, heading).stream()
                .filter(r -> r.child(0).text().equals(firstCell))
                .findFirst()
                .orElseThrow();
    }

    /** The body rows of the first table under a heading. */
    static List<Element> rows(Document html, String heading) {
        return table(html, heading).select("tbody tr");
    }

    /** The column headers of the first table under a heading. */
    private static List<String> headers(Document html, String heading) {
        return table(html, heading).select("thead th").eachText();
    }

    private static Element table(Document html, String heading) {
        Element h2 = html.select("h2").stream()
                .filter(h -> h.text().equals(heading))
                .findFirst()
                .orElseThrow();
        return h2.nextElementSiblings().select("table").first();
    }
}
