package dev.llmops.serving.runner.output;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.runner.plan.BenchmarkConfig;
import dev.llmops.serving.runner.plan.StagePlan;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The table {@code bench} prints: a header with units, and each stage's figures under it. */
class ConsoleProgressTest {

    private static final StagePlan C8 = StagePlan.of(BenchmarkConfig.builder(URI.create("http://server:30000"), "m")
                    .singleRequests(false)
                    .concurrency(List.of(8))
                    .build())
            .get(0);

    @Test
    void theTableShowsUnitsTheServersAcceptanceLengthAndCacheHitRate() {
        StageReport report = Reports.closedLoop(8, 1234.5, 2000).withServer(server(2.85, 0.625));
        List<String> table = table(false, report);

        assertThat(table.get(0))
                .contains("out tok/s", "req/s", "TTFT ms p50/p99", "TPOT ms p50/p99", "ITL ms p50/p99", "E2E ms p50")
                .contains("lag ms p99", "accept len", "cache hit")
                .as("no SLO, no goodput columns")
                .doesNotContain("SLO att", "good req/s");
        assertThat(cells(table)).containsEntry("accept len", "2.85").containsEntry("cache hit", "62.5%");
        assertThat(cells(table(false, Reports.closedLoop(8, 1234.5, 2000))))
                .as("a server that reports neither")
                .containsEntry("accept len", "-")
                .containsEntry("cache hit", "-");
    }

    @Test
    void theTableShowsTheCachedShareOfPromptTokensWhereTheServersUsageReportedIt() {
        StageReport reported = Reports.withCachedTokens(Reports.closedLoop(8, 1234.5, 2000), 1000, 0.8125);

        assertThat(cells(table(false, reported))).containsEntry("cached", "81.3%");
        assertThat(cells(table(false, Reports.closedLoop(8, 1234.5, 2000))))
                .as("usage without cached tokens")
                .containsEntry("cached", "-");
    }

    @Test
    void withAnSloTheTableShowsAttainmentAndGoodput() {
        Map<String, String> cells = cells(table(true, Reports.rate("r2", 2, 0.5)));

        assertThat(cells)
                .containsEntry("SLO att", "0.500")
                .containsEntry("good req/s", "6.17")
                .containsEntry("good tok/s", "617");
    }

    private static ServerStageReport server(double acceptLength, double cacheHitRate) {
        return new ServerStageReport(
                acceptLength, 100.0, 8.0, 8.0, 0.0, 0.5, cacheHitRate, "counters", 1000.0, 350.0, 10, 10, 1);
    }

    private static List<String> table(boolean slo, StageReport report) {
        StringWriter table = new StringWriter();
        ConsoleProgress progress =
                new ConsoleProgress(new PrintWriter(table), new PrintWriter(new StringWriter()), slo);
        progress.stageStarted(C8, 0, 1);
        progress.stageFinished(report, 1, 1);
        return table.toString().lines().toList();
    }

    /** Each header's cell of the row under it, read by the header's position (cells are right-aligned to it). */
    private static Map<String, String> cells(List<String> table) {
        String header = table.get(0);
        String row = table.get(1);
        Map<String, String> cells = new LinkedHashMap<>();
        for (String name : List.of("accept len", "cache hit", "cached", "SLO att", "good req/s", "good tok/s")) {
            int end = header.indexOf(name);
            if (end >= 0) {
                end += name.length();
                int start = row.lastIndexOf(' ', end - 1) + 1;
                cells.put(name, row.substring(start, end));
            }
        }
        return cells;
    }
}
