package dev.llmops.serving.benchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmops.serving.api.v1alpha1.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.StageResult;
import dev.llmops.serving.runner.CompactSummary;
import org.junit.jupiter.api.Test;

/** The runner's summary read, checked and copied into the status; the valid one comes from a real runner run. */
class SummaryParserTest {

    @Test
    void aRealRunnerSummaryFillsStagesSingleRequestsAndHeadline() throws InvalidSummaryException {
        CompactSummary summary = SummaryParser.parse(RunnerRuns.standardSummary());
        BenchmarkRunStatus status = new BenchmarkRunStatus();

        BenchmarkResults.apply(summary, status);

        assertThat(status.stages).extracting(s -> s.name).containsExactly("single", "c2", "c4");
        assertThat(status.stages).extracting(s -> s.concurrency).containsExactly(1, 2, 4);
        for (int i = 0; i < summary.stages().size(); i++) {
            CompactSummary.Stage stage = summary.stages().get(i);
            StageResult result = status.stages.get(i);
            assertThat(result.completed).isEqualTo(stage.completed()).isPositive();
            assertThat(result.outputTokensPerSecond)
                    .isEqualTo(stage.outputTokensPerSecond())
                    .isPositive();
            assertThat(result.ttftMillis.mean).isEqualTo(stage.ttftMillis()[0]);
            assertThat(result.ttftMillis.p50).isEqualTo(stage.ttftMillis()[1]);
            assertThat(result.ttftMillis.p90).isEqualTo(stage.ttftMillis()[2]);
            assertThat(result.ttftMillis.p99)
                    .isEqualTo(stage.ttftMillis()[3])
                    .isGreaterThanOrEqualTo(result.ttftMillis.p50);
            assertThat(result.ttftMillis.max).isEqualTo(stage.ttftMillis()[4]);
            assertThat(result.tpotMillis.p99).isEqualTo(stage.tpotMillis()[3]);
        }
        assertThat(status.singleRequests)
                .hasSize(3)
                .allSatisfy(r -> assertThat(r.outputTokens).isPositive());
        assertThat(status.summary.singleStreamTokensPerSecond)
                .isEqualTo(summary.headline().singleStreamTokensPerSecond())
                .isPositive();
        assertThat(status.summary.peakTokensPerSecond)
                .isEqualTo(status.stages.stream()
                        .filter(s -> s.concurrency > 1)
                        .mapToDouble(s -> s.outputTokensPerSecond)
                        .max()
                        .orElseThrow());
        assertThat(status.summary.peakConcurrency).isIn(2, 4);
        assertThat(status.summary.failedRequests).isZero();
    }

    @Test
    void failuresByClassAndTheRunnersWarningsBecomeStatusWarnings() throws InvalidSummaryException {
        CompactSummary summary = SummaryParser.parse("""
                {"v":1,"stages":[{"n":"c8","c":8,"ok":30,"fail":2}],\
                "fails":{"timeout":2},"warn":["client lag p99 12 ms"]}""");
        BenchmarkRunStatus status = new BenchmarkRunStatus();

        BenchmarkResults.apply(summary, status);

        assertThat(status.warnings).containsExactly("client lag p99 12 ms", "Failed requests by class: timeout=2");
    }

    @Test
    void aTruncatedSummaryWithoutHeadlineStillCountsFailuresAndSaysItWasShortened() throws InvalidSummaryException {
        CompactSummary summary = SummaryParser.parse("""
                {"v":1,"stages":[{"n":"c8","c":8,"ok":30,"fail":2},\
                {"n":"c16","c":16,"ok":60,"fail":3}],"trunc":true}""");
        BenchmarkRunStatus status = new BenchmarkRunStatus();

        BenchmarkResults.apply(summary, status);

        assertThat(status.summary.failedRequests).isEqualTo(5);
        assertThat(status.summary.peakTokensPerSecond).isNull();
        assertThat(status.warnings).containsExactly(BenchmarkResults.TRUNCATED_WARNING);
    }

    @Test
    void rejectsAMissingSummary() {
        assertThatThrownBy(() -> SummaryParser.parse("  "))
                .isInstanceOf(InvalidSummaryException.class)
                .hasMessageContaining("no summary");
    }

    @Test
    void rejectsASummaryCutOffMidway() {
        String full = RunnerRuns.standardSummary();
        for (int length : new int[] {full.length() / 3, full.length() / 2, full.length() - 1}) {
            assertThatThrownBy(() -> SummaryParser.parse(full.substring(0, length)))
                    .isInstanceOf(InvalidSummaryException.class)
                    .hasMessageContaining("cut off after " + length + " bytes");
        }
    }

    @Test
    void readsTheSummaryTheRunnerLeavesWhenItGivesUp() {
        assertThat(SummaryParser.readFailure("{\"v\":1,\"stages\":[],\"warn\":[\"connection refused\"]}"))
                .hasValueSatisfying(s -> assertThat(s.warnings()).containsExactly("connection refused"));
        assertThat(SummaryParser.readFailure("bench: --concurrency: invalid value"))
                .isEmpty();
    }

    @Test
    void rejectsTextThatIsNotJson() {
        assertThatThrownBy(() -> SummaryParser.parse("Exception in thread main java.lang.OutOfMemoryError"))
                .isInstanceOf(InvalidSummaryException.class)
                .hasMessageContaining("not valid JSON")
                .hasMessageContaining("OutOfMemoryError");
    }

    @Test
    void rejectsAnUnknownFormatVersion() {
        assertThatThrownBy(
                        () -> SummaryParser.parse("{\"v\":2,\"stages\":[{\"n\":\"c8\",\"c\":8,\"ok\":1,\"fail\":0}]}"))
                .hasMessageContaining("format version 2");
    }

    @Test
    void rejectsASummaryWithoutStages() {
        assertThatThrownBy(() -> SummaryParser.parse("{\"v\":1,\"stages\":[]}")).hasMessageContaining("no stages");
    }

    @Test
    void rejectsNegativeFigures() {
        assertThatThrownBy(() -> SummaryParser.parse(
                        "{\"v\":1,\"stages\":[{\"n\":\"c8\",\"c\":8,\"ok\":1,\"fail\":0,\"otps\":-3.5}]}"))
                .hasMessageContaining("stages[0].otps is -3.5");
    }

    @Test
    void rejectsLatencyArraysOfTheWrongLength() {
        assertThatThrownBy(() -> SummaryParser.parse(
                        "{\"v\":1,\"stages\":[{\"n\":\"c8\",\"c\":8,\"ok\":1,\"fail\":0,\"ttft\":[1,2,3]}]}"))
                .hasMessageContaining("stages[0].ttft has 3 figures");
    }

    @Test
    void rejectsAStageWithoutName() {
        assertThatThrownBy(() -> SummaryParser.parse("{\"v\":1,\"stages\":[{\"c\":8,\"ok\":1,\"fail\":0}]}"))
                .hasMessageContaining("stages[0] has no name");
    }

    @Test
    void rejectsNegativeCountsInTheHeadline() {
        assertThatThrownBy(() -> SummaryParser.parse(
                        "{\"v\":1,\"stages\":[{\"n\":\"c8\",\"c\":8,\"ok\":1,\"fail\":0}],\"sum\":{\"fail\":-1}}"))
                .hasMessageContaining("sum.fail is -1");
    }
}
