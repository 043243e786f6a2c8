package dev.llmops.serving.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.LatencyStats;
import dev.llmops.serving.api.v1alpha1.SloSpec;
import dev.llmops.serving.api.v1alpha1.StageResult;
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
