package dev.llmops.serving.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.cli.Cli;
import dev.llmops.serving.simulator.SglangSimulator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code bench} writes, read by {@code report} and {@code report compare}: the results come from the real runner
 * against simulators on loopback, one twice as fast per token as the other.
 */
class BenchResultReportTest {

    @TempDir
    static Path dir;

    static Path slow;
    static Path slowSamples;
    static Path fast;
    static Path fastSamples;
    static Path shorter;
    static Path shorterSamples;

    @BeforeAll
    static void benchTwoSimulators() {
        try (SglangSimulator slowServer = simulator(4);
                SglangSimulator fastServer = simulator(2)) {
            slow = dir.resolve("slow.json");
            slowSamples = dir.resolve("slow.samples");
            fast = dir.resolve("fast.json");
            fastSamples = dir.resolve("fast.samples");
            shorter = dir.resolve("shorter.json");
            shorterSamples = dir.resolve("shorter.samples");
            bench(slowServer, slow, slowSamples, "32");
            bench(fastServer, fast, fastSamples, "32");
            bench(slowServer, shorter, shorterSamples, "16");
        }
    }

    private static SglangSimulator simulator(int tokenDelayMillis) {
        return SglangSimulator.builder()
                .ttft(Duration.ofMillis(5L * tokenDelayMillis))
                .tokenDelay(Duration.ofMillis(tokenDelayMillis))
                .start();
    }

    private static void bench(SglangSimulator server, Path json, Path samples, String maxTokens) {
        Cli.Run run = Cli.run(
                "bench",
                "--url",
                server.baseUrl().toString(),
                "--model",
                server.model(),
                "--warmup",
                "1",
                "--quality",
                "--quality-max-tokens",
                "8",
                "--concurrency",
                "1,2",
                "--requests-per-level",
                "12",
                "--max-tokens",
                maxTokens,
                "--ignore-eos",
                "--json-out",
                json.toString(),
                "--samples-out",
                samples.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
    }

    private static Cli.Run compare(String... args) {
        List<String> command = new ArrayList<>(List.of("report", "compare"));
        command.addAll(List.of(args));
        return Cli.run(command.toArray(String[]::new));
    }

    @Test
    void aCandidateTwiceAsFastPerTokenIsFasterWithAnIntervalAboveOne() {
        Cli.Run run = compare(
                slow.toString(),
                fast.toString(),
                "--baseline-samples",
                slowSamples.toString(),
                "--candidate-samples",
                fastSamples.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.out())
                .startsWith("### BenchmarkRun `fast` vs `slow`")
                .contains("Paired per request against `slow`:")
                .contains("Greedy outputs of 3 prompts: 100.0 % identical");
        for (String stage : List.of("c1", "c2")) {
            Matcher row = Pattern.compile(
                            "^\\| " + stage + " \\| faster \\| 12 \\| ([0-9.]+)× \\| ([0-9.]+)–([0-9.]+) \\|",
                            Pattern.MULTILINE)
                    .matcher(run.out());
            assertThat(row.find())
                    .as("paired row of %s in%n%s", stage, run.out())
                    .isTrue();
            assertThat(Double.parseDouble(row.group(1))).as("speedup").isBetween(1.5, 2.5);
            assertThat(Double.parseDouble(row.group(2)))
                    .as("interval's low end")
                    .isGreaterThan(1.05);
        }
    }

    @Test
    void aResultComparedWithItselfShowsNoSignificantDifference() {
        Cli.Run run = compare(
                fast.toString(),
                fast.toString(),
                "--baseline-samples",
                fastSamples.toString(),
                "--candidate-samples",
                fastSamples.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out())
                .startsWith("### BenchmarkRun `candidate fast` vs `baseline fast`")
                .containsPattern(
                        "(?m)^\\| c1 \\| no significant difference \\| 12 \\| 1(\\.00)?× \\| 1(\\.00)?–1(\\.00)?")
                .containsPattern("(?m)^\\| c2 \\| no significant difference \\| 12 \\|")
                .doesNotContain("| faster |", "| slower |");
    }

    @Test
    void withoutSamplesOnlyTheRatiosAreShownSayingWhy() {
        Cli.Run run = compare(slow.toString(), fast.toString(), "--format", "md");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("| c2 | 2 |")
                .contains("No confidence intervals, verdicts or quality agreement, only the ratios of the two statuses:"
                        + " no per-request samples of this run: no --candidate-samples given.")
                .doesNotContain("Paired per request");
    }

    @Test
    void theComparisonAsHtmlDrawsTheIntervals() {
        Cli.Run run = compare(
                slow.toString(),
                fast.toString(),
                "--baseline-samples",
                slowSamples.toString(),
                "--candidate-samples",
                fastSamples.toString(),
                "--format",
                "html");

        assertThat(run.exitCode()).as(run.err()).isZero();
        Document page = Jsoup.parse(run.out());
        String fasterC2 = "c2: [0-9.]+× \\(95 % interval [0-9.]+–[0-9.]+\\), faster";
        assertThat(page.select("svg circle.point title").eachText())
                .anySatisfy(bar -> assertThat(bar).matches(fasterC2));
    }

    @Test
    void resultsOfDifferentMaxTokensAreRefusedNamingIt() {
        Cli.Run run = compare(
                shorter.toString(),
                fast.toString(),
                "--baseline-samples",
                shorterSamples.toString(),
                "--candidate-samples",
                fastSamples.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err().strip())
                .isEqualTo("report compare: " + shorter + " and " + fast + " measured different workloads (max_tokens"
                        + " 16 vs 32), so their requests cannot be paired: run bench on both servers with the same"
                        + " --dataset, --seed, --max-tokens, --temperature, --top-p, --ignore-eos and prompts");
    }

    @Test
    void samplesOfAnotherRunThanTheirResultAreRefused() {
        Cli.Run run = compare(
                slow.toString(),
                fast.toString(),
                "--baseline-samples",
                shorterSamples.toString(),
                "--candidate-samples",
                fastSamples.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .startsWith("report compare: --baseline-samples " + shorterSamples + " holds the samples of another"
                        + " workload")
                .hasLineCount(1);
    }

    @Test
    void truncatedResultsAndGarbageSamplesGetOneLineAndExitTwo() throws IOException {
        String json = Files.readString(fast);
        Path truncated = dir.resolve("truncated.json");
        Files.writeString(truncated, json.substring(0, json.length() / 2));
        Path garbage = dir.resolve("garbage.samples");
        Files.write(garbage, new byte[] {31, -117, 8, 0, 1, 2, 3, 4, 5});
        Path huge = dir.resolve("huge.json");
        Files.write(huge, new byte[9 * 1024 * 1024]);

        Cli.Run cut = compare(slow.toString(), truncated.toString());
        Cli.Run unreadable = compare(slow.toString(), fast.toString(), "--candidate-samples", garbage.toString());
        Cli.Run tooBig = compare(huge.toString(), fast.toString());
        Cli.Run notAResult = compare(ReportTest.CANDIDATE.toString(), fast.toString());
        Cli.Run noTolerance = compare(slow.toString(), fast.toString(), "--tolerance-percent", "100");

        assertThat(cut.exitCode()).isEqualTo(2);
        assertThat(cut.err())
                .startsWith("report compare: " + truncated + " is not YAML or JSON: ")
                .hasLineCount(1);
        assertThat(unreadable.exitCode()).isEqualTo(2);
        assertThat(unreadable.err())
                .startsWith("report compare: --candidate-samples " + garbage + " is not what bench --samples-out"
                        + " writes: ")
                .hasLineCount(1);
        assertThat(tooBig.exitCode()).isEqualTo(2);
        assertThat(tooBig.err())
                .isEqualTo("report compare: cannot read " + huge + ": more than 8388608 bytes, more than this command"
                        + " reads" + System.lineSeparator());
        assertThat(notAResult.exitCode()).isEqualTo(2);
        assertThat(notAResult.err())
                .startsWith("report compare: " + ReportTest.CANDIDATE + " holds a BenchmarkRun, not a result of bench"
                        + " --json-out")
                .hasLineCount(1);
        assertThat(noTolerance.exitCode()).isEqualTo(2);
        assertThat(noTolerance.err())
                .isEqualTo("report compare: --tolerance-percent must be 0 to 99, got 100" + System.lineSeparator());
        for (Cli.Run run : List.of(cut, unreadable, tooBig, notAResult, noTolerance)) {
            assertThat(run.err()).doesNotContain("Exception", "\tat ");
        }
    }

    @Test
    void aBenchResultWithAFieldBenchNeverWritesIsRefusedNamingTheField() throws IOException {
        Path hostile = dir.resolve("hostile.json");
        Files.writeString(
                hostile,
                Files.readString(fast)
                        .replaceFirst("\"output_throughput\" : [0-9.E]+", "\"output_throughput\" : \"fast\""));

        Cli.Run run = Cli.run("report", "--file", hostile.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("report: " + hostile + " stage single: output_throughput is not a number"
                        + System.lineSeparator());
    }

    @Test
    void reportRendersOneBenchResultAsItRendersARun() {
        Cli.Run html = Cli.run("report", "--file", fast.toString());
        Cli.Run md = Cli.run("report", "--file", fast.toString(), "--format", "md");
        Cli.Run csv = Cli.run("report", "--file", fast.toString(), "--format", "csv");
        Cli.Run llmd = Cli.run("report", "--file", fast.toString(), "--format", "llmd");

        assertThat(html.exitCode()).as(html.err()).isZero();
        Document page = Jsoup.parse(html.out());
        assertThat(page.select("svg")).isNotEmpty();
        assertThat(page.text()).contains("fast", "Succeeded");
        assertThat(md.exitCode()).as(md.err()).isZero();
        assertThat(md.out())
                .startsWith("### BenchmarkRun `fast`")
                .contains("Phase **Succeeded**")
                .containsPattern("(?m)^\\| c2 \\| 2 \\| [0-9]+\\.[0-9] \\| [0-9.]+ \\|");
        assertThat(csv.exitCode()).as(csv.err()).isZero();
        assertThat(csv.out()).containsPattern("(?m)^fast,c2,2,,");
        assertThat(llmd.exitCode()).as(llmd.err()).isZero();
        assertThat(llmd.out()).contains("--- # stage c2\n").containsPattern("(?m)^version: \"0.2\"$");
    }
}
