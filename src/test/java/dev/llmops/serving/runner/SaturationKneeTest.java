package dev.llmops.serving.runner;

import static dev.llmops.serving.runner.Reports.closedLoop;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
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
    void theSingleRequestPhaseAndRatesAreNotLevels() {
        StageReport single = Reports.stage("single", StagePlan.Mode.SINGLE, 1, 100, 50, java.util.Map.of(), List.of());
        assertThat(SaturationKnee.find(List.of(single, closedLoop(8, 100, 400))))
                .isNull();
    }
}
