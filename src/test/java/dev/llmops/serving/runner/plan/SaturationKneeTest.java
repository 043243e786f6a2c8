package dev.llmops.serving.runner.plan;

import static dev.llmops.serving.runner.output.Reports.closedLoop;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.contract.RunPlan;
import dev.llmops.serving.runner.output.Reports;
import dev.llmops.serving.runner.output.StageReport;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SaturationKneeTest {

    @Test
    void theKneeIsTheLastLevelBeforeThroughputStopsRisingWhileLatencyGrows() {
        assertThat(SaturationKnee.find(List.of(
                        closedLoop(8, 1000, 100),
                        closedLoop(16, 1900, 105),
                        closedLoop(32, 1950, 200),
                        closedLoop(64, 1960, 400))))
                .isEqualTo(16);
    }

    @Test
    void levelsAreComparedInConcurrencyOrderWhateverOrderTheyRanIn() {
        assertThat(SaturationKnee.find(
                        List.of(closedLoop(32, 1950, 200), closedLoop(8, 1000, 100), closedLoop(16, 1900, 105))))
                .isEqualTo(16);
    }

    @Test
    void requestsQueueingForABatchSlotMakeAKneeWhereTheMedianLatencyHasNotMovedYet() {
        // The demo's autoregressive server batches 32: at c48 a third of the requests wait a whole generation.
        assertThat(SaturationKnee.find(List.of(
                        Reports.queueing(16, 765.7, 2670, 128.7),
                        Reports.queueing(32, 1522.0, 2670, 128.8),
                        Reports.queueing(48, 1281.0, 2680, 2780),
                        Reports.queueing(64, 1537.0, 5300, 2780))))
                .isEqualTo(32);
    }

    @Test
    void noKneeWhileThroughputKeepsRising() {
        assertThat(SaturationKnee.find(
                        List.of(closedLoop(8, 1000, 100), closedLoop(16, 1900, 110), closedLoop(32, 3500, 130))))
                .isNull();
    }

    @Test
    void flatThroughputWithFlatLatencyIsNoKnee() {
        assertThat(SaturationKnee.find(List.of(closedLoop(8, 1000, 100), closedLoop(16, 1010, 101))))
                .isNull();
    }

    @Test
    void theSingleRequestPhaseIsNotALevel() {
        StageReport single = Reports.stage("single", RunPlan.Mode.SINGLE, 1, 100, 50, Map.of(), List.of());
        assertThat(SaturationKnee.find(List.of(single, closedLoop(8, 100, 400))))
                .isNull();
    }

    @Test
    void aRateIsNotALevel() {
        // Taken as a level at its peak concurrency of 4, the rate would make a knee at 4 with the level at 8.
        StageReport rate = Reports.stage("r20", RunPlan.Mode.OPEN_LOOP, 4, 100, 50, Map.of(), List.of());
        assertThat(SaturationKnee.find(List.of(rate, closedLoop(8, 100, 400)))).isNull();
    }
}
