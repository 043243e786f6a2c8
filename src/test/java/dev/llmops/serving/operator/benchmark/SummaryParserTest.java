package dev.llmops.serving.operator.benchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmops.serving.api.contract.CapacityMode;
import dev.llmops.serving.api.contract.CapacityOutcome;
import dev.llmops.serving.api.contract.CompactSummary;
import dev.llmops.serving.api.contract.PeakRule;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.CapacityResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import org.junit.jupiter.api.Test;

/** The runner's summary read, checked and copied into the status; the valid one comes from a real runner run. */
class SummaryParserTest {

    @Test
    void aRealRunnerSummaryFillsStagesSingleRequestsAndHeadline() throws Exception {
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
        JsonNode reported =
                new ObjectMapper().readTree(RunnerRuns.standardSummary()).get("sum");
        assertThat(status.summary.peakTokensPerSecond)
                .as("the peak the runner wrote")
                .isEqualTo(reported.get("peak").asDouble())
                .isPositive();
        assertThat(status.summary.peakConcurrency)
                .isEqualTo(reported.get("peakc").asInt())
                .isIn(2, 4);
        assertThat(status.summary.failedRequests).isZero();
    }

    @Test
    void theHeadlineAndStagesAreCopiedAsTheRunnerWroteThem() throws InvalidSummaryException {
        CompactSummary summary = SummaryParser.parse("""
                {"v":1,"model":"kimi-k2","stages":[\
                {"n":"single","c":1,"ok":3,"fail":0,"otps":48.1,"ttft":[121.0,121.7,124.9,125.4,125.6]},\
                {"n":"c8","c":8,"ok":16,"fail":0,"otps":382.6,"ttft":[125.0,124.9,127.0,128.6,129.1]},\
                {"n":"c16","c":16,"ok":31,"fail":1,"otps":765.7,"ttft":[123.5,122.6,126.2,128.7,130.3],\
                "tpot":[20.1,20.0,20.2,20.9,21.4],"acc":2.87,"chr":0.431,"cps":0.402}],\
                "sum":{"sstps":48.1,"peak":765.7,"peakc":16,"peakby":"Knee","knee":8,"fail":1}}""");
        BenchmarkRunStatus status = new BenchmarkRunStatus();

        BenchmarkResults.apply(summary, status);

        assertThat(status.stages).extracting(s -> s.name).containsExactly("single", "c8", "c16");
        assertThat(status.stages).extracting(s -> s.concurrency).containsExactly(1, 8, 16);
        assertThat(status.stages).extracting(s -> s.completed).containsExactly(3, 16, 31);
        assertThat(status.stages).extracting(s -> s.outputTokensPerSecond).containsExactly(48.1, 382.6, 765.7);
        StageResult c16 = status.stages.get(2);
        assertThat(c16.ttftMillis)
                .extracting(t -> t.mean, t -> t.p50, t -> t.p90, t -> t.p99, t -> t.max)
                .containsExactly(123.5, 122.6, 126.2, 128.7, 130.3);
        assertThat(c16.tpotMillis.p99).isEqualTo(20.9);
        assertThat(status.stages).extracting(s -> s.specAcceptLength).containsExactly(null, null, 2.87);
        assertThat(status.stages).extracting(s -> s.cacheHitRate).containsExactly(null, null, 0.431);
        assertThat(status.stages).extracting(s -> s.cachedPromptShare).containsExactly(null, null, 0.402);
        assertThat(status.summary.peakRule).isEqualTo(PeakRule.Knee);
        assertThat(status.summary.singleStreamTokensPerSecond).isEqualTo(48.1);
        assertThat(status.summary.peakTokensPerSecond).isEqualTo(765.7);
        assertThat(status.summary.peakConcurrency).isEqualTo(16);
        assertThat(status.summary.kneeConcurrency).isEqualTo(8);
        assertThat(status.summary.failedRequests).isEqualTo(1);
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
    void aVersionTwoSummaryFillsRatesGoodputAndTheCapacity() throws InvalidSummaryException {
        CompactSummary summary = SummaryParser.parse("""
                {"v":2,"stages":[{"n":"r2","c":0,"ok":60,"fail":0,"otps":510.5,"r":2,"ar":1.98,\
                "lag":[0.4,3.1,9.5],"att":0.983,"gps":1.95,"gtps":498.2},\
                {"n":"probe1-c4","c":4,"ok":16,"fail":1,"att":0.9}],\
                "cap":{"m":"concurrency","c":24,"out":"found","why":"boundary\\nconfirmed","otps":612.3,"rps":2.4,\
                "att":0.97,"gps":2.3,"gtps":590.1,"ttft99":812.5,"tpot99":41.2,"itl99":55.0,"e2e99":9120,"np":7}}""");
        BenchmarkRunStatus status = new BenchmarkRunStatus();

        BenchmarkResults.apply(summary, status);

        StageResult rate = status.stages.get(0);
        assertThat(rate.concurrency)
                .as("a rate stage without a cap has no concurrency")
                .isNull();
        assertThat(rate.requestRate).isEqualTo(2.0);
        assertThat(rate.achievedRequestRate).isEqualTo(1.98);
        assertThat(rate.scheduleLagMillis.p50).isEqualTo(0.4);
        assertThat(rate.scheduleLagMillis.p99).isEqualTo(3.1);
        assertThat(rate.scheduleLagMillis.max).isEqualTo(9.5);
        assertThat(rate.sloAttainment).isEqualTo(0.983);
        assertThat(rate.goodputRequestsPerSecond).isEqualTo(1.95);
        assertThat(rate.goodputOutputTokensPerSecond).isEqualTo(498.2);
        assertThat(status.stages.get(1).concurrency).isEqualTo(4);
        CapacityResult capacity = status.capacity;
        assertThat(capacity.mode).isEqualTo(CapacityMode.Concurrency);
        assertThat(capacity.outcome).isEqualTo(CapacityOutcome.Found);
        assertThat(capacity.concurrency).isEqualTo(24);
        assertThat(capacity.requestRate).isNull();
        assertThat(capacity.load).isEqualTo("24 streams");
        assertThat(capacity.message).as("control characters removed").isEqualTo("boundary confirmed");
        assertThat(capacity.outputTokensPerSecond).isEqualTo(612.3);
        assertThat(capacity.requestsPerSecond).isEqualTo(2.4);
        assertThat(capacity.sloAttainment).isEqualTo(0.97);
        assertThat(capacity.goodputRequestsPerSecond).isEqualTo(2.3);
        assertThat(capacity.goodputOutputTokensPerSecond).isEqualTo(590.1);
        assertThat(capacity.ttftP99Millis).isEqualTo(812.5);
        assertThat(capacity.tpotP99Millis).isEqualTo(41.2);
        assertThat(capacity.itlP99Millis).isEqualTo(55.0);
        assertThat(capacity.e2eP99Millis).isEqualTo(9120.0);
        assertThat(capacity.probes).isEqualTo(7);
    }

    @Test
    void theLoadSaysWhenTheBudgetRanOutAndWhenNoLoadMetTheSlo() throws InvalidSummaryException {
        assertThat(capacityOf("{\"m\":\"rate\",\"r\":7.5,\"out\":\"budget-exhausted\",\"np\":12}"))
                .satisfies(c -> assertThat(c.load).isEqualTo(">=7.5 req/s"))
                .satisfies(c -> assertThat(c.outcome).isEqualTo(CapacityOutcome.BudgetExhausted))
                .satisfies(c -> assertThat(c.requestRate).isEqualTo(7.5));
        assertThat(capacityOf("{\"m\":\"concurrency\",\"out\":\"never-met\",\"np\":1}"))
                .satisfies(c -> assertThat(c.load).isEqualTo("none"))
                .satisfies(c -> assertThat(c.outcome).isEqualTo(CapacityOutcome.NeverMet));
        assertThat(capacityOf("{\"m\":\"concurrency\",\"c\":1,\"out\":\"found\",\"np\":3}").load)
                .isEqualTo("1 stream");
    }

    @Test
    void rejectsUntrustedCapacityAndGoodputFigures() {
        String stage = "{\"v\":2,\"stages\":[{\"n\":\"r2\",\"c\":0,\"ok\":1,\"fail\":0,\"r\":2";
        assertThatThrownBy(() -> SummaryParser.parse(stage + ",\"att\":1.5}]}"))
                .hasMessageContaining("stages[0].att is 1.5");
        assertThatThrownBy(() -> SummaryParser.parse(stage + ",\"lag\":[1,2]}]}"))
                .hasMessageContaining("stages[0].lag has 2 figures");
        assertThatThrownBy(() -> SummaryParser.parse(stage + ",\"gtps\":-1}]}"))
                .hasMessageContaining("stages[0].gtps is -1.0");
        assertThatThrownBy(() -> SummaryParser.parse(
                        "{\"v\":2,\"stages\":[{\"n\":\"r0\",\"c\":0,\"ok\":1,\"fail\":0,\"r\":0}]}"))
                .hasMessageContaining("stages[0].r is 0.0");
        assertThatThrownBy(
                        () -> SummaryParser.parse("{\"v\":2,\"stages\":[{\"n\":\"c8\",\"c\":0,\"ok\":1,\"fail\":0}]}"))
                .as("only a rate stage may have no concurrency")
                .hasMessageContaining("stages[0].c is 0");
        assertThatThrownBy(() -> capacityOf("{\"m\":\"streams\",\"c\":4,\"out\":\"found\",\"np\":2}"))
                .hasMessageContaining("cap.m is streams");
        assertThatThrownBy(() -> capacityOf("{\"m\":\"rate\",\"r\":4,\"out\":\"great\",\"np\":2}"))
                .hasMessageContaining("cap.out is great");
        assertThatThrownBy(() -> capacityOf("{\"m\":\"rate\",\"out\":\"found\",\"np\":2}"))
                .hasMessageContaining("cap.r is missing");
        assertThatThrownBy(() -> capacityOf(
                        "{\"m\":\"rate\",\"r\":4,\"out\":\"found\",\"why\":\"" + "x".repeat(201) + "\",\"np\":2}"))
                .hasMessageContaining("cap.why has 201 characters");
        assertThatThrownBy(() -> capacityOf("{\"m\":\"rate\",\"r\":4,\"out\":\"found\",\"np\":2,\"ttft99\":-5}"))
                .hasMessageContaining("cap.ttft99 is -5.0");
    }

    private static CapacityResult capacityOf(String capacity) throws InvalidSummaryException {
        CompactSummary summary = SummaryParser.parse(
                "{\"v\":2,\"stages\":[{\"n\":\"c8\",\"c\":8,\"ok\":1,\"fail\":0}],\"cap\":" + capacity + "}");
        BenchmarkRunStatus status = new BenchmarkRunStatus();
        BenchmarkResults.apply(summary, status);
        return status.capacity;
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
                        () -> SummaryParser.parse("{\"v\":3,\"stages\":[{\"n\":\"c8\",\"c\":8,\"ok\":1,\"fail\":0}]}"))
                .hasMessageContaining("format version 3")
                .hasMessageContaining("versions 1 to 2");
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
    void rejectsACacheHitRateThatIsNotAShare() {
        assertThatThrownBy(() -> SummaryParser.parse(
                        "{\"v\":2,\"stages\":[{\"n\":\"c8\",\"c\":8,\"ok\":1,\"fail\":0,\"chr\":1.5}]}"))
                .hasMessageContaining("stages[0].chr is 1.5: a share must be between 0 and 1");
    }

    @Test
    void rejectsACachedPromptShareThatIsNotAShare() {
        assertThatThrownBy(() -> SummaryParser.parse(
                        "{\"v\":2,\"stages\":[{\"n\":\"c8\",\"c\":8,\"ok\":1,\"fail\":0,\"cps\":-0.1}]}"))
                .hasMessageContaining("stages[0].cps is -0.1: a share must be between 0 and 1");
    }

    @Test
    void sessionTurnsAreCopiedAndABadTurnIsRejectedByItsPath() throws InvalidSummaryException {
        BenchmarkRunStatus status = new BenchmarkRunStatus();
        BenchmarkResults.apply(
                SummaryParser.parse("{\"v\":2,\"stages\":[{\"n\":\"c8\",\"c\":8,\"ok\":16,\"fail\":0,"
                        + "\"trn\":[{\"t\":1,\"ok\":8,\"ttft\":[40.5,48.0],\"cps\":0.0},{\"t\":2,\"ok\":8}]}]}"),
                status);

        assertThat(status.stages.get(0).turns)
                .extracting(t -> t.turn, t -> t.completed, t -> t.ttftP50Millis, t -> t.ttftP99Millis)
                .containsExactly(tuple(1, 8, 40.5, 48.0), tuple(2, 8, null, null));
        assertThatThrownBy(() -> SummaryParser.parse("{\"v\":2,\"stages\":[{\"n\":\"c8\",\"c\":8,\"ok\":1,\"fail\":0,"
                        + "\"trn\":[{\"t\":0,\"ok\":1}]}]}"))
                .hasMessageContaining("stages[0].trn[0].t is 0, outside 1 to 64");
        assertThatThrownBy(() -> SummaryParser.parse("{\"v\":2,\"stages\":[{\"n\":\"c8\",\"c\":8,\"ok\":1,\"fail\":0,"
                        + "\"trn\":[{\"t\":1,\"ok\":1,\"ttft\":[1.0]}]}]}"))
                .hasMessageContaining("stages[0].trn[0].ttft has 1 figures, expected 2 (p50, p99)");
    }

    @Test
    void aWorkloadWithABadDigestOrTraceShapeIsRejectedByItsPath() {
        String stages = "{\"v\":2,\"stages\":[{\"n\":\"t1x\",\"c\":0,\"ok\":1,\"fail\":0,\"r\":2.0}],";
        assertThatThrownBy(() -> SummaryParser.parse(stages + "\"wl\":{\"d\":\"<script>\"}}"))
                .hasMessageContaining("wl.d is <script>, expected a workload digest of 1 to 64 lower-case hex");
        assertThatThrownBy(() -> SummaryParser.parse(stages
                        + "\"wl\":{\"d\":\"ab12\",\"tr\":{\"n\":9,\"span\":3,\"r\":3,\"in\":[1,2],\"out\":[1,2,3]}}}"))
                .hasMessageContaining("wl.tr.in has 2 figures, expected 3 (p50, p90, max)");
        assertThatThrownBy(() -> SummaryParser.parse(stages
                        + "\"wl\":{\"tr\":{\"n\":9,\"span\":3,\"r\":3,\"in\":[1,2,3],\"out\":[1,2,3],\"rbs\":2}}}"))
                .hasMessageContaining("wl.tr.rbs is 2.0: a share must be between 0 and 1");
    }

    @Test
    void rejectsAnAcceptanceLengthThatIsNotAFiniteFigure() {
        assertThatThrownBy(() -> SummaryParser.parse(
                        "{\"v\":2,\"stages\":[{\"n\":\"c8\",\"c\":8,\"ok\":1,\"fail\":0,\"acc\":-1.5}]}"))
                .hasMessageContaining("stages[0].acc is -1.5");
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
