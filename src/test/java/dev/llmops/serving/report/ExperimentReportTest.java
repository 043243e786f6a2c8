package dev.llmops.serving.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantResult;
import dev.llmops.serving.llmd.LlmdReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

/**
 * An experiment of four variants (the autoregressive baseline, EAGLE3, DFlash and one whose server failed on SM120) in
 * every format: its variants table, winner, curves, failed variants, CSV rows and llm-d reports.
 */
class ExperimentReportTest {

    static final Path EXPERIMENT = Path.of("src/test/resources/report/experiment-kimi.yaml");
    static final Path RUNS = Path.of("src/test/resources/report/experiment-kimi-runs.yaml");

    private static final String CURVES = "Latency–throughput of each variant: tok/s per user vs total tok/s";

    private final RunLoader loader = new RunLoader();

    @Test
    void htmlTableHasOneRowPerVariantWithItsFiguresSpeedupAndVerdict() throws IOException {
        Document html = Jsoup.parse(ExperimentHtmlReport.render(withRuns()));

        assertThat(html.title()).isEqualTo("ServingExperiment kimi");
        assertThat(html.select("h2").get(0).nextElementSibling().select("th").eachText())
                .containsExactly(
                        "Variant",
                        "Phase",
                        "Ready after (s)",
                        "Single-stream tok/s",
                        "Peak tok/s",
                        "Capacity",
                        "Paired per-stream speedup at c32",
                        "95 % interval",
                        "Acceptance length",
                        "Outputs identical",
                        "Verdict");
        List<List<String>> rows = ReportTest.rows(html, "Variants").stream()
                .map(row -> row.select("td").eachText())
                .toList();
        assertThat(rows)
                .containsExactly(
                        List.of(
                                "autoregressive",
                                "Succeeded",
                                "612.4",
                                "62.0",
                                "1051.8",
                                "—",
                                "—",
                                "—",
                                "—",
                                "—",
                                "baseline"),
                        List.of(
                                "eagle3",
                                "Succeeded",
                                "655.0",
                                "118.4",
                                "1480.0",
                                "—",
                                "1.41×",
                                "1.37–1.45",
                                "3.05",
                                "100.0 %",
                                "faster"),
                        List.of(
                                "dflash-b8",
                                "Succeeded",
                                "701.9",
                                "150.2",
                                "2010.0",
                                "—",
                                "1.91×",
                                "1.84–1.98",
                                "4.62",
                                "80.0 %",
                                "winner, faster"),
                        List.of(
                                "flashinfer-cu128",
                                "Failed",
                                "—",
                                "—",
                                "—",
                                "—",
                                "—",
                                "—",
                                "—",
                                "—",
                                "failed: FlashInferNvccTooOld"));
    }

    @Test
    void htmlNamesTheWinnerAndWhyTheFailedVariantFailed() throws IOException {
        Document html = Jsoup.parse(ExperimentHtmlReport.render(withRuns()));

        assertThat(html.selectFirst("p.winner").text())
                .isEqualTo("Winner dflash-b8: 2010.0 output tok/s at c32, 1.91× the baseline autoregressive (95 %"
                        + " interval 1.84–1.98). dflash-b8: 1.91x [1.84, 1.98] throughput at c32 over autoregressive;"
                        + " outputs agree 96 %");
        assertThat(html.selectFirst("p.meta").text())
                .contains(
                        "Namespace llm",
                        "phase Succeeded",
                        "progress 4/4",
                        "objective Throughput at c32",
                        "baseline autoregressive");
        List<Element> failed = ReportTest.rows(html, "Failed variants");
        assertThat(failed).hasSize(1);
        assertThat(failed.get(0).select("td").eachText())
                .containsExactly(
                        "flashinfer-cu128",
                        "FlashInferNvccTooOld",
                        "FlashInfer's JIT cannot build for SM120 GPUs with this CUDA toolkit (it needs nvcc 12.9 or"
                                + " newer): No supported CUDA architectures found for major versions [12]",
                        "Use the CUDA 13 SGLang image, with CUDA_HOME pointing at its toolkit.");
    }

    @Test
    void oneChartHoldsTheCurveOfEverySucceededVariant() throws IOException {
        Document html = Jsoup.parse(ExperimentHtmlReport.render(withRuns()));

        assertThat(html.select("svg.chart")).hasSize(1);
        Element chart = html.selectFirst("svg.chart[data-title=\"" + CURVES + "\"]");
        assertThat(chart).isNotNull();
        assertThat(chart.select("g.series").eachAttr("data-series"))
                .containsExactly("autoregressive", "eagle3", "dflash-b8");
        Element dflash = chart.selectFirst("g.series[data-series=dflash-b8]");
        assertThat(dflash.select("circle.point").eachAttr("data-stage")).containsExactly("single", "c8", "c32");
        Element c32 = dflash.selectFirst("circle.point[data-stage=c32]");
        assertThat(c32.attr("data-x")).isEqualTo("6900.8");
        assertThat(c32.attr("data-y")).isEqualTo("68.5");
        assertThat(chart.select("g.series polyline").eachAttr("stroke")).doesNotHaveDuplicates();
    }

    @Test
    void markdownHasTheTableTheWinnerTheCurvePointsAndTheDiagnosis() throws IOException {
        String md = ExperimentMarkdownReport.render(withRuns());

        assertThat(md)
                .startsWith("### ServingExperiment `kimi`\n\nPhase **Succeeded** · progress 4/4 · objective Throughput"
                        + " at c32 · baseline `autoregressive`\n\n**Winner dflash-b8: 2010.0 output tok/s at c32")
                .contains("| Variant | Phase | Ready after (s) |")
                .contains("| dflash-b8 | Succeeded | 701.9 | 150.2 | 2010.0 | — | 1.91× | 1.84–1.98 | 4.62 | 80.0 % |"
                        + " winner, faster |\n")
                .contains("| autoregressive | Succeeded | 612.4 | 62.0 | 1051.8 | — | — | — | — | — | baseline |\n")
                .contains("| flashinfer-cu128 | Failed | — |")
                .contains("#### Latency–throughput")
                .contains("| dflash-b8 | c32 | 6900.8 | 68.5 |\n")
                .contains("| autoregressive | single | 70.1 | 63.3 |\n")
                .contains("#### Failed variants\n\n- `flashinfer-cu128` **FlashInferNvccTooOld**: FlashInfer's JIT")
                .contains("Hint: Use the CUDA 13 SGLang image");
    }

    @Test
    void csvHasOneRowPerVariantAndStageWithTheVariantsColumns() throws IOException {
        List<List<String>> rows = CsvReportTest.parse(ExperimentCsvReport.render(withRuns()));

        List<String> header = rows.get(0);
        assertThat(header)
                .startsWith("experiment", "variant", "phase", "winner", "time_to_ready_s")
                .contains("stage", "output_tokens_per_s", "tpot_p50_ms", "throughput_speedup_low", "verdict");
        assertThat(rows.subList(1, rows.size()).stream()
                        .map(r -> r.get(header.indexOf("variant")) + "/" + r.get(header.indexOf("stage")))
                        .toList())
                .containsExactly(
                        "autoregressive/single",
                        "autoregressive/c8",
                        "autoregressive/c32",
                        "eagle3/single",
                        "eagle3/c8",
                        "eagle3/c32",
                        "dflash-b8/single",
                        "dflash-b8/c8",
                        "dflash-b8/c32",
                        "flashinfer-cu128/");
        List<String> c32 = rows.get(9);
        assertThat(cell(header, c32, "experiment")).isEqualTo("kimi");
        assertThat(cell(header, c32, "winner")).isEqualTo("true");
        assertThat(cell(header, c32, "time_to_ready_s")).isEqualTo("701.9");
        assertThat(cell(header, c32, "output_tokens_per_s")).isEqualTo("2010.0");
        assertThat(cell(header, c32, "spec_accept_length")).isEqualTo("4.62");
        assertThat(cell(header, c32, "throughput_speedup")).isEqualTo("1.911");
        assertThat(cell(header, c32, "throughput_speedup_low")).isEqualTo("1.84");
        assertThat(cell(header, c32, "throughput_speedup_high")).isEqualTo("1.98");
        assertThat(cell(header, c32, "verdict")).isEqualTo("Faster");
        List<String> failed = rows.get(10);
        assertThat(cell(header, failed, "phase")).isEqualTo("Failed");
        assertThat(cell(header, failed, "winner")).isEqualTo("false");
        assertThat(cell(header, failed, "time_to_failure_s")).isEqualTo("1902.3");
        assertThat(cell(header, failed, "diagnosis_reason")).isEqualTo("FlashInferNvccTooOld");
        assertThat(failed).hasSameSizeAs(header);
    }

    @Test
    void llmdHasOneReportPerVariantAndStage() throws IOException {
        List<ExperimentResults.VariantStages> variants = withRuns().llmdReports();

        assertThat(variants)
                .extracting(ExperimentResults.VariantStages::variant)
                .containsExactly("autoregressive", "eagle3", "dflash-b8");
        for (ExperimentResults.VariantStages variant : variants) {
            assertThat(variant.stages()).extracting(LlmdReport.Stage::name).containsExactly("single", "c8", "c32");
            assertThat(variant.stages().get(0).report().get("run").toString())
                    .contains("description=llm/kimi-" + variant.variant());
        }
    }

    @Test
    void withoutRunsTheTableComesFromTheStatusAndTheReportSaysTheCurvesNeedTheRuns() throws IOException {
        ExperimentResults results = ExperimentResults.of(experiment(), Optional.empty());

        Document html = Jsoup.parse(ExperimentHtmlReport.render(results));
        assertThat(ReportTest.rows(html, "Variants")).hasSize(4);
        assertThat(html.select("svg")).isEmpty();
        assertThat(html.selectFirst("p.warning").text())
                .isEqualTo("The latency–throughput curves need the variants' BenchmarkRuns, which hold every stage:"
                        + " save them with kubectl get benchmarkruns -l serving.llmops.dev/experiment=kimi -o yaml and"
                        + " pass them with --runs.");
        assertThat(ExperimentMarkdownReport.render(results))
                .contains("| dflash-b8 | Succeeded | 701.9 | 150.2 | 2010.0 | — | 1.91× |")
                .contains("The latency–throughput curves need the variants' BenchmarkRuns");
        List<List<String>> csv = CsvReportTest.parse(ExperimentCsvReport.render(results));
        List<String> header = csv.get(0);
        assertThat(csv.subList(1, csv.size()).stream()
                        .map(r -> r.get(header.indexOf("variant")) + "/" + r.get(header.indexOf("stage")) + "/"
                                + r.get(header.indexOf("throughput_speedup")))
                        .toList())
                .containsExactly(
                        "autoregressive//",
                        "eagle3/single/1.91",
                        "eagle3/c8/1.671",
                        "eagle3/c32/1.407",
                        "dflash-b8/single/2.42",
                        "dflash-b8/c8/2.048",
                        "dflash-b8/c32/1.911",
                        "flashinfer-cu128//");
        assertThat(results.llmdReports()).isEmpty();
    }

    @Test
    void aRunOfAnotherExperimentIsRefused() throws IOException {
        List<BenchmarkRun> runs = runs();
        runs.get(1).getMetadata().getLabels().put(Labels.EXPERIMENT, "glm");

        assertThatThrownBy(() -> ExperimentResults.of(experiment(), Optional.of(runs)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("BenchmarkRun kimi-eagle3 is not a run of ServingExperiment kimi (its label"
                        + " serving.llmops.dev/experiment is glm): pass only this experiment's runs, e.g. kubectl get"
                        + " benchmarkruns -l serving.llmops.dev/experiment=kimi -o yaml");

        runs.get(1).getMetadata().setLabels(null);
        assertThatThrownBy(() -> ExperimentResults.of(experiment(), Optional.of(runs)))
                .hasMessageContaining("its label serving.llmops.dev/experiment is absent");
    }

    @Test
    void aRunOfAnUnknownVariantAnotherNamespaceOrASecondRunOfAVariantIsRefused() throws IOException {
        List<BenchmarkRun> unknown = runs();
        unknown.get(0).getMetadata().getLabels().put(Labels.VARIANT, "medusa");
        assertThatThrownBy(() -> ExperimentResults.of(experiment(), Optional.of(unknown)))
                .hasMessage("BenchmarkRun kimi-autoregressive is labelled for variant medusa, which ServingExperiment"
                        + " kimi does not have (its variants: autoregressive, eagle3, dflash-b8, flashinfer-cu128)");

        List<BenchmarkRun> elsewhere = runs();
        elsewhere.get(2).getMetadata().setNamespace("staging");
        assertThatThrownBy(() -> ExperimentResults.of(experiment(), Optional.of(elsewhere)))
                .hasMessageStartingWith(
                        "BenchmarkRun kimi-dflash-b8 is in namespace staging, ServingExperiment kimi" + " in llm");

        List<BenchmarkRun> twice = runs();
        twice.get(1).getMetadata().getLabels().put(Labels.VARIANT, "autoregressive");
        assertThatThrownBy(() -> ExperimentResults.of(experiment(), Optional.of(twice)))
                .hasMessage("BenchmarkRuns kimi-autoregressive and kimi-eagle3 are both labelled for variant"
                        + " autoregressive: pass one run per variant");
    }

    @Test
    void hostileNamesAndDiagnosesAreShownAsWrittenInEveryFormat() throws IOException {
        ServingExperiment experiment = experiment();
        VariantResult failed = experiment.getStatus().variants.get(3);
        failed.name = "<script>alert(1)</script>";
        failed.diagnosis.reason = "=HYPERLINK(\"http://evil\")";
        failed.diagnosis.message = "<img src=x onerror=alert(1)> | **bold** [link](http://evil)\n# heading";
        failed.diagnosis.hint = "x".repeat(5000);
        ExperimentResults results = ExperimentResults.of(experiment, Optional.empty());

        Document html = Jsoup.parse(ExperimentHtmlReport.render(results));
        assertThat(html.select("script, img")).isEmpty();
        Element row = ReportTest.rows(html, "Failed variants").get(0);
        assertThat(row.child(0).text()).isEqualTo("<script>alert(1)</script>");
        assertThat(row.child(2).text()).startsWith("<img src=x onerror=alert(1)>");
        assertThat(row.child(3).text()).hasSizeLessThan(1100).endsWith("(4000 more characters)");

        String md = ExperimentMarkdownReport.render(results);
        assertThat(md)
                .contains("| &lt;script>alert(1)&lt;/script> | Failed |")
                .contains("- `<script>alert(1)</script>` **=HYPERLINK(\"http://evil\")**: &lt;img src=x"
                        + " onerror=alert(1)> \\| \\*\\*bold\\*\\* \\[link\\](http://evil) # heading Hint:")
                .doesNotContain("<img", "\n# heading");

        List<List<String>> csv = CsvReportTest.parse(ExperimentCsvReport.render(results));
        List<String> header = csv.get(0);
        List<String> last = csv.get(csv.size() - 1);
        assertThat(cell(header, last, "variant")).isEqualTo("<script>alert(1)</script>");
        assertThat(cell(header, last, "diagnosis_reason")).isEqualTo("'=HYPERLINK(\"http://evil\")");
    }

    @Test
    void runsAreReadFromAListOrFromDocumentsOneAfterAnother() throws IOException {
        List<BenchmarkRun> fromList = runs();
        assertThat(fromList)
                .extracting(r -> r.getMetadata().getName())
                .containsExactly("kimi-autoregressive", "kimi-eagle3", "kimi-dflash-b8", "kimi-flashinfer-cu128");

        String documents = """
                apiVersion: serving.llmops.dev/v1alpha1
                kind: BenchmarkRun
                metadata: {name: kimi-eagle3}
                ---
                apiVersion: serving.llmops.dev/v1alpha1
                kind: BenchmarkRun
                metadata: {name: kimi-dflash-b8}
                """;
        assertThat(loader.loadRuns(documents, "runs.yaml"))
                .extracting(r -> r.getMetadata().getName())
                .containsExactly("kimi-eagle3", "kimi-dflash-b8");

        assertThatThrownBy(() -> loader.loadRuns("kind: List\nitems:\n- kind: ConfigMap\n", "runs.yaml"))
                .hasMessageStartingWith("runs.yaml item 1 holds a ConfigMap, not one BenchmarkRun");
        String many = "kind: List\nitems:\n" + "- {kind: BenchmarkRun, metadata: {name: r}}\n".repeat(17);
        assertThatThrownBy(() -> loader.loadRuns(many, "runs.yaml"))
                .hasMessageStartingWith(
                        "runs.yaml holds more than 16 objects, more runs than an experiment has" + " variants");
    }

    @Test
    void aChartOfManyVariantsGrowsToHoldItsLegend() {
        List<SvgCurveChart.Curve> curves = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            curves.add(new SvgCurveChart.Curve("v" + i, i, List.of(new SvgCurveChart.Point("c1", 10, 10))));
        }

        Element seven = Jsoup.parse(SvgCurveChart.render("t", "x", "y", curves)).selectFirst("svg");
        Element six = Jsoup.parse(SvgCurveChart.render("t", "x", "y", curves.subList(0, 6)))
                .selectFirst("svg");

        assertThat(six.attr("height")).isEqualTo(String.valueOf(SvgFrame.HEIGHT));
        assertThat(seven.attr("height")).isEqualTo(String.valueOf(SvgFrame.HEIGHT + SvgFrame.LEGEND_ROW));
        assertThat(seven.attr("viewBox")).endsWith(" " + (SvgFrame.HEIGHT + SvgFrame.LEGEND_ROW));
    }

    static ExperimentResults withRuns() throws IOException {
        return ExperimentResults.of(experiment(), Optional.of(runs()));
    }

    private static ServingExperiment experiment() throws IOException {
        return new RunLoader().loadExperiment(Files.readString(EXPERIMENT), EXPERIMENT.toString());
    }

    private static List<BenchmarkRun> runs() throws IOException {
        return new RunLoader().loadRuns(Files.readString(RUNS), RUNS.toString());
    }

    private static String cell(List<String> header, List<String> row, String column) {
        return row.get(header.indexOf(column));
    }
}
