package dev.llmops.serving.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BaselineComparison;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.ConfidenceInterval;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.SpeedVerdict;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageSpeedup;
import dev.llmops.serving.cli.Cli;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * report history draws one target's runs over time from saved runs: lines per stage in finishing order, a regressed
 * run marked, the image change drawn where it happened, the paired speedups with their intervals in the table, and CSV
 * with a row per run and stage; runs of several targets need --target.
 */
class HistoryReportTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @TempDir
    Path dir;

    @Test
    void drawsTheRunsInFinishingOrderWithTheRegressionAndTheImageChangeThatCameBeforeIt() throws IOException {
        writeNightlies();

        Cli.Run run = Cli.run("report", "history", dir.toString(), "--target", "kimi-k2-autoregressive");

        assertThat(run.exitCode()).as(run.err()).isZero();
        Document page = Jsoup.parse(run.out());
        Element throughput = page.selectFirst("svg[data-title=Output throughput]");
        assertThat(throughput).isNotNull();
        assertThat(throughput.select("g[data-series=c64] title").eachText())
                .as("one point per run, oldest first, whatever the files' order")
                .containsExactly(
                        "nightly-1 (2026-12-01 02:00), c64: 1195 tok/s",
                        "nightly-2 (2026-12-02 02:00), c64: 1195 tok/s",
                        "nightly-3 (2026-12-03 02:00), c64: 1076 tok/s, Regressed");
        assertThat(throughput.select("polygon.regressed"))
                .as("each stage of nightly-3")
                .hasSize(6);
        assertThat(throughput.select("line.change title").eachText())
                .containsExactly("image lmsysorg/sglang:v0.5.18-cu130 → lmsysorg/sglang:v0.5.19-cu130");
        assertThat(page.select("table tbody tr")).hasSize(3);
        assertThat(page.select("table tbody tr").get(2).text())
                .contains("nightly-3")
                .contains("Regressed")
                .contains("image lmsysorg/sglang:v0.5.18-cu130 → lmsysorg/sglang:v0.5.19-cu130")
                .contains("1076 (0.90× [0.88, 0.92])");
        assertThat(page.select("p.warning").text())
                .isEqualTo("Left out: 1 runs of other targets; nightly-failed: Failed");
    }

    @Test
    void writesARowPerRunAndStageAsCsv() throws IOException {
        writeNightlies();

        Cli.Run run =
                Cli.run("report", "history", dir.toString(), "--target", "kimi-k2-autoregressive", "--format", "csv");

        assertThat(run.exitCode()).as(run.err()).isZero();
        List<String> lines = run.out().lines().toList();
        assertThat(lines.get(0)).startsWith("finished,run,target,image,verdict,changes,stage,concurrency,");
        assertThat(lines).as("a header, 3 runs of 6 stages").hasSize(1 + 3 * 6);
        assertThat(lines.get(18))
                .startsWith("2026-12-03T02:00:00Z,nightly-3,kimi-k2-autoregressive,lmsysorg/sglang:v0.5.19-cu130,"
                        + "Regressed,image lmsysorg/sglang:v0.5.18-cu130 → lmsysorg/sglang:v0.5.19-cu130,c64,64,")
                .endsWith(",0.9,0.88,0.92,Slower");
    }

    @Test
    void runsOfSeveralTargetsNeedATargetAndUnreadableInputIsRefused() throws IOException {
        writeNightlies();
        Files.writeString(dir.resolve("broken.yaml"), "kind: [");

        Cli.Run several = Cli.run(
                "report",
                "history",
                dir.resolve("nightly-1.yaml").toString(),
                dir.resolve("other.yaml").toString());
        Cli.Run broken = Cli.run("report", "history", dir.toString(), "--target", "kimi-k2-autoregressive");

        assertThat(several.exitCode()).isEqualTo(2);
        assertThat(several.err())
                .isEqualTo("report history: The runs measured 2 targets (kimi-k2-autoregressive, kimi-k2-eagle3):"
                        + " choose one with --target\n");
        assertThat(broken.exitCode()).isEqualTo(2);
        assertThat(broken.err()).startsWith("report history: " + dir.resolve("broken.yaml") + " is not YAML or JSON");
    }

    /**
     * Three nightly runs of the recorded autoregressive run, the third on a new image and 10 % slower at every stage,
     * Regressed against the first; a failed one; and the recorded EAGLE3 run, of another target.
     */
    private void writeNightlies() throws IOException {
        RunLoader loader = new RunLoader();
        for (int night = 1; night <= 3; night++) {
            BenchmarkRun run = loader.load(Files.readString(ReportTest.BASELINE), "baseline");
            run.getMetadata().setName("nightly-" + night);
            run.getStatus().completionTime = "2026-12-0" + night + "T02:00:00Z";
            if (night == 3) {
                run.getStatus().provenance.image = "lmsysorg/sglang:v0.5.19-cu130";
                run.getStatus()
                        .stages
                        .forEach(stage -> stage.outputTokensPerSecond =
                                Math.round(stage.outputTokensPerSecond * 0.9 * 10) / 10.0);
                run.getStatus()
                        .conditions
                        .add(new ConditionBuilder()
                                .withType(ConditionTypes.REGRESSED)
                                .withStatus("True")
                                .withReason("Slower")
                                .build());
                run.getStatus().referenceComparison = new BaselineComparison();
                run.getStatus().stages.forEach(stage -> {
                    StageSpeedup speedup = new StageSpeedup();
                    speedup.name = stage.name;
                    speedup.throughputSpeedup = 0.9;
                    speedup.throughputSpeedupInterval = new ConfidenceInterval();
                    speedup.throughputSpeedupInterval.low = 0.88;
                    speedup.throughputSpeedupInterval.high = 0.92;
                    speedup.verdict = SpeedVerdict.Slower;
                    run.getStatus().referenceComparison.stages.add(speedup);
                });
            }
            YAML.writeValue(dir.resolve("nightly-" + (4 - night) + ".yaml").toFile(), run);
        }
        BenchmarkRun failed = loader.load(Files.readString(ReportTest.BASELINE), "baseline");
        failed.getMetadata().setName("nightly-failed");
        failed.getStatus().phase = BenchmarkRunPhase.Failed;
        YAML.writeValue(dir.resolve("nightly-failed.yaml").toFile(), failed);
        YAML.writeValue(
                dir.resolve("other.yaml").toFile(),
                Map.of(
                        "apiVersion",
                        "v1",
                        "kind",
                        "List",
                        "items",
                        List.of(YAML.readValue(Files.readString(ReportTest.CANDIDATE), Map.class))));
    }
}
