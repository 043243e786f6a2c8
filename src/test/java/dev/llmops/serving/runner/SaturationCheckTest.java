package dev.llmops.serving.runner;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** When a capacity probe may stop early, from snapshots of its progress. */
class SaturationCheckTest {

    private static StageRecorder.Progress progress(int issued, int done, int bad, double ttftSum, int ttftCount) {
        return new StageRecorder.Progress(issued, done, bad, ttftSum, ttftCount);
    }

    @Test
    void stopsOnceTheAttainmentIsOutOfReach() {
        SaturationCheck check = new SaturationCheck(false, 100, 0.95);

        assertThat(check.shouldStop(progress(10, 10, 5, 0, 0))).isFalse();
        assertThat(check.shouldStop(progress(20, 20, 6, 0, 0))).isTrue();
    }

    @Test
    void stopsARateProbeWhoseBacklogGrowsWhileItMissesTheSlo() {
        SaturationCheck check = new SaturationCheck(true, 0, 0.95);

        assertThat(check.shouldStop(progress(10, 8, 4, 0, 0))).isFalse();
        assertThat(check.shouldStop(progress(20, 14, 8, 0, 0))).isFalse();
        assertThat(check.shouldStop(progress(30, 20, 12, 0, 0))).isFalse();
        assertThat(check.shouldStop(progress(40, 26, 16, 0, 0))).isTrue();
    }

    @Test
    void aGrowingBacklogOfGoodRequestsIsNoReasonToStop() {
        SaturationCheck check = new SaturationCheck(true, 0, 0.95);

        for (int i = 1; i <= 6; i++) {
            assertThat(check.shouldStop(progress(10 * i, 8 * i, 0, 0, 0))).isFalse();
        }
    }

    @Test
    void stopsAConcurrencyProbeWhoseTtftKeepsRisingWhileItMissesTheSlo() {
        SaturationCheck rising = new SaturationCheck(false, 0, 0.9);
        SaturationCheck steady = new SaturationCheck(false, 0, 0.9);
        double[] ttftSums = {0, 100, 300, 600};
        boolean stopped = false;
        boolean steadyStopped = false;
        for (int i = 0; i < ttftSums.length; i++) {
            stopped = rising.shouldStop(progress(4, 10 * i, 5 * i, ttftSums[i], 10 * i));
            steadyStopped = steady.shouldStop(progress(4, 10 * i, 5 * i, 100.0 * i, 10 * i));
        }
        assertThat(stopped).isTrue();
        assertThat(steadyStopped).isFalse();
    }
}
