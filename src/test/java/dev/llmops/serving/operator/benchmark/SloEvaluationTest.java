package dev.llmops.serving.operator.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.contract.PlainNumber;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.LatencyStats;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.SloSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

class SloEvaluationTest {

    @Test
    void metWhenEveryLevelIsWithinBothLimits() {
        SloEvaluation result = SloEvaluation.evaluate(slo(5000, 100), List.of(stage(8, 900, 40), stage(16, 1500, 60)));

        assertThat(result.verdict()).isEqualTo(SloEvaluation.Verdict.MET);
        assertThat(result.brokenAtConcurrency()).isNull();
        assertThat(result.message()).contains("up to concurrency 16");
    }

    @Test
    void brokenAtTheLowestLevelThatExceedsALimitWhateverTheStageOrder() {
        SloEvaluation result = SloEvaluation.evaluate(
                slo(5000, 100),
                List.of(stage(64, 9000, 150), stage(8, 900, 40), stage(48, 4000, 120), stage(32, 6000, 90)));

        assertThat(result.verdict()).isEqualTo(SloEvaluation.Verdict.BROKEN);
        assertThat(result.brokenAtConcurrency()).isEqualTo(32);
        assertThat(result.message()).contains("p99 TTFT 6000.0 ms > 5000 ms");
    }

    @Test
    void onlyTheLimitsThatAreSetAreJudged() {
        SloEvaluation result =
                SloEvaluation.evaluate(slo(null, 100), List.of(stage(8, 90000, 40), stage(16, 90000, 101)));

        assertThat(result.brokenAtConcurrency()).isEqualTo(16);
        assertThat(result.message()).contains("TPOT");
    }

    @Test
    void aLevelWhereEveryRequestFailedBreaksTheSlo() {
        StageResult allFailed = stage(16, 0, 0);
        allFailed.completed = 0;
        allFailed.ttftMillis = null;
        allFailed.tpotMillis = null;

        SloEvaluation result = SloEvaluation.evaluate(slo(5000, 100), List.of(stage(8, 900, 40), allFailed));

        assertThat(result.brokenAtConcurrency()).isEqualTo(16);
        assertThat(result.message()).contains("every request");
    }

    @Test
    void unknownWhenTheSummaryDroppedAPercentileBeforeAnyBreak() {
        StageResult noPercentiles = stage(16, 0, 0);
        noPercentiles.ttftMillis = null;

        SloEvaluation result =
                SloEvaluation.evaluate(slo(5000, 100), List.of(stage(8, 900, 40), noPercentiles, stage(32, 9000, 40)));

        assertThat(result.verdict()).isEqualTo(SloEvaluation.Verdict.UNKNOWN);
        assertThat(result.message()).contains("c16");
    }

    @Test
    void stagesCarryingAttainmentAreJudgedByItAgainstTheTarget() {
        SloSpec slo = slo(500, 50);
        slo.attainment = 0.9;
        StageResult c8 = stage(8, 9000, 900);
        c8.sloAttainment = 0.95;
        StageResult c16 = stage(16, 400, 40);
        c16.sloAttainment = 0.85;

        SloEvaluation result = SloEvaluation.evaluate(slo, List.of(c16, c8));

        assertThat(result.verdict())
                .as("c8's p99s exceed the limits, but 95 % of its requests met them")
                .isEqualTo(SloEvaluation.Verdict.BROKEN);
        assertThat(result.brokenAtConcurrency()).isEqualTo(16);
        assertThat(result.message()).contains("attainment 0.850 < 0.9");
    }

    @Test
    void theDefaultAttainmentTargetIsNinetyFivePercent() {
        StageResult c8 = stage(8, 400, 40);
        c8.sloAttainment = 0.95;
        StageResult c16 = stage(16, 400, 40);
        c16.sloAttainment = 0.949;

        assertThat(SloEvaluation.evaluate(slo(500, null), List.of(c8)).verdict())
                .isEqualTo(SloEvaluation.Verdict.MET);
        assertThat(SloEvaluation.evaluate(slo(500, null), List.of(c8)).message())
                .startsWith("Attainment >= 0.95 of TTFT <= 500 ms");
        assertThat(SloEvaluation.evaluate(slo(500, null), List.of(c8, c16)).brokenAtConcurrency())
                .isEqualTo(16);
    }

    @Test
    void rateStagesComeAfterTheLevelsAndProbesAreLeftToTheCapacity() {
        StageResult single = stage(1, 100, 10);
        single.sloAttainment = 1.0;
        StageResult r8 = rate(8, 0.5);
        StageResult r2 = rate(2, 0.99);
        StageResult r4 = rate(4, 0.7);
        StageResult probe = stage(64, 100, 10);
        probe.name = "probe5-c64";
        probe.sloAttainment = 0.1;

        SloEvaluation result = SloEvaluation.evaluate(slo(500, 50), List.of(r8, probe, single, r4, r2));

        assertThat(result.verdict()).isEqualTo(SloEvaluation.Verdict.BROKEN);
        assertThat(result.brokenAtConcurrency()).as("no concurrency for a rate").isNull();
        assertThat(result.message()).startsWith("The SLO broke at 4 req/s: attainment 0.700");
        assertThat(SloEvaluation.evaluate(slo(500, 50), List.of(single, probe)).verdict())
                .isEqualTo(SloEvaluation.Verdict.MET);
    }

    @Test
    void itlAndE2eLimitsAreJudgedByTheStagePercentilesOfAVersionOneSummary() {
        SloSpec slo = new SloSpec();
        slo.itlP99Millis = 50;
        slo.e2eP99Millis = 10000;
        StageResult c2 = withItlAndE2e(2, 30, 5000);
        StageResult c4 = withItlAndE2e(4, 80, 9000);
        StageResult c8 = withItlAndE2e(8, 40, 12000);

        SloEvaluation itlBroken = SloEvaluation.evaluate(slo, List.of(c8, c4, c2));
        SloEvaluation e2eBroken = SloEvaluation.evaluate(slo, List.of(c8, c2));
        SloEvaluation met = SloEvaluation.evaluate(slo, List.of(c2));

        assertThat(itlBroken.brokenAtConcurrency()).isEqualTo(4);
        assertThat(itlBroken.message()).contains("p99 ITL 80.0 ms > 50 ms");
        assertThat(e2eBroken.brokenAtConcurrency()).isEqualTo(8);
        assertThat(e2eBroken.message()).contains("p99 E2E 12000.0 ms > 10000 ms");
        assertThat(met.verdict()).isEqualTo(SloEvaluation.Verdict.MET);
        assertThat(met.message())
                .isEqualTo("p99 ITL <= 50 ms and E2E <= 10000 ms held at every level up to concurrency 2.");
    }

    /** A stage of a version-1 summary (p99s, no attainment) with the ITL and E2E p99s given. */
    private static StageResult withItlAndE2e(int concurrency, double itlP99, double e2eP99) {
        StageResult stage = stage(concurrency, 100, 10);
        stage.itlMillis = new LatencyStats();
        stage.itlMillis.p99 = itlP99;
        stage.e2eMillis = new LatencyStats();
        stage.e2eMillis.p99 = e2eP99;
        return stage;
    }

    private static StageResult rate(double rate, double attainment) {
        StageResult stage = stage(1, 100, 10);
        stage.name = "r" + PlainNumber.text(rate);
        stage.concurrency = null;
        stage.requestRate = rate;
        stage.sloAttainment = attainment;
        return stage;
    }

    private static SloSpec slo(Integer ttft, Integer tpot) {
        SloSpec slo = new SloSpec();
        slo.ttftP99Millis = ttft;
        slo.tpotP99Millis = tpot;
        return slo;
    }

    private static StageResult stage(int concurrency, double ttftP99, double tpotP99) {
        StageResult stage = new StageResult();
        stage.name = "c" + concurrency;
        stage.concurrency = concurrency;
        stage.completed = 10;
        stage.ttftMillis = new LatencyStats();
        stage.ttftMillis.p99 = ttftP99;
        stage.tpotMillis = new LatencyStats();
        stage.tpotMillis.p99 = tpotP99;
        return stage;
    }
}
