package dev.llmops.serving.benchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmops.serving.api.v1alpha1.BenchmarkRunStatus;
import dev.llmops.serving.runner.CompactSummary;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SummaryParserTest {

    static String fixture() {
        try (InputStream in = SummaryParserTest.class.getResourceAsStream("summary.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aValidSummaryFillsStagesSingleRequestsHeadlineAndWarnings() throws InvalidSummaryException {
        CompactSummary summary = SummaryParser.parse(fixture());
        BenchmarkRunStatus status = new BenchmarkRunStatus();

        BenchmarkResults.apply(summary, status);

        assertThat(status.stages).extracting(s -> s.name).containsExactly("single", "c8", "c16");
        assertThat(status.stages.get(2).ttftMillis.p99).isEqualTo(6200.0);
        assertThat(status.stages.get(2).ttftMillis.mean).isEqualTo(900.0);
        assertThat(status.stages.get(2).e2eMillis.max).isEqualTo(13100.0);
        assertThat(status.stages.get(1).concurrency).isEqualTo(8);
        assertThat(status.singleRequests).hasSize(3);
        assertThat(status.summary.peakTokensPerSecond).isEqualTo(1450.2);
        assertThat(status.summary.peakConcurrency).isEqualTo(16);
        assertThat(status.summary.failedRequests).isEqualTo(1);
        assertThat(status.warnings).containsExactly("client event-loop lag p99 12 ms", "Failed requests by class: timeout=1");
    }

    @Test
    void aTruncatedSummaryWithoutHeadlineStillCountsFailuresAndSaysItWasShortened() throws InvalidSummaryException {
        CompactSummary summary = SummaryParser.parse("""
                {"v":1,"stages":[{"n":"c8","c":8,"ok":30,"fail":2},{"n":"c16","c":16,"ok":60,"fail":3}],"trunc":true}""");
        BenchmarkRunStatus status = new BenchmarkRunStatus();

        BenchmarkResults.apply(summary, status);

        assertThat(status.summary.failedRequests).isEqualTo(5);
        assertThat(status.summary.peakTokensPerSecond).isNull();
        assertThat(status.warnings).containsExactly(BenchmarkResults.TRUNCATED_WARNING);
    }

    @Test
    void rejectsAMissingSummary() {
        assertThatThrownBy(() -> SummaryParser.parse("  ")).isInstanceOf(InvalidSummaryException.class)
                .hasMessageContaining("no summary");
    }

    @Test
    void rejectsASummaryCutOffMidway() {
        String full = fixture();
        assertThatThrownBy(() -> SummaryParser.parse(full.substring(0, 700))).isInstanceOf(InvalidSummaryException.class)
                .hasMessageContaining("cut off after 700 bytes");
    }

    @Test
    void rejectsTextThatIsNotJson() {
        assertThatThrownBy(() -> SummaryParser.parse("Exception in thread main java.lang.OutOfMemoryError"))
                .isInstanceOf(InvalidSummaryException.class)
                .hasMessageContaining("not valid JSON").hasMessageContaining("OutOfMemoryError");
    }

    @Test
    void rejectsAnUnknownFormatVersion() {
        assertThatThrownBy(() -> SummaryParser.parse("{\"v\":2,\"stages\":[{\"n\":\"c8\",\"c\":8,\"ok\":1,\"fail\":0}]}"))
                .hasMessageContaining("format version 2");
    }

    @Test
    void rejectsASummaryWithoutStages() {
        assertThatThrownBy(() -> SummaryParser.parse("{\"v\":1,\"stages\":[]}")).hasMessageContaining("no stages");
    }

    @Test
    void rejectsNegativeFigures() {
        assertThatThrownBy(() -> SummaryParser.parse("{\"v\":1,\"stages\":[{\"n\":\"c8\",\"c\":8,\"ok\":1,\"fail\":0,\"otps\":-3.5}]}"))
                .hasMessageContaining("stages[0].otps is -3.5");
    }

    @Test
    void rejectsLatencyArraysOfTheWrongLength() {
        assertThatThrownBy(() -> SummaryParser.parse("{\"v\":1,\"stages\":[{\"n\":\"c8\",\"c\":8,\"ok\":1,\"fail\":0,\"ttft\":[1,2,3]}]}"))
                .hasMessageContaining("stages[0].ttft has 3 figures");
    }

    @Test
    void rejectsAStageWithoutName() {
        assertThatThrownBy(() -> SummaryParser.parse("{\"v\":1,\"stages\":[{\"c\":8,\"ok\":1,\"fail\":0}]}"))
                .hasMessageContaining("stages[0] has no name");
    }

    @Test
    void rejectsNegativeCountsInTheHeadline() {
        assertThatThrownBy(() -> SummaryParser.parse("{\"v\":1,\"stages\":[{\"n\":\"c8\",\"c\":8,\"ok\":1,\"fail\":0}],\"sum\":{\"fail\":-1}}"))
                .hasMessageContaining("sum.fail is -1");
    }
}
