package dev.llmops.serving.api.contract;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What the runner writes is what the controller reads back, also for stage names longer than a reader accepts. */
class ProgressLineTest {

    @Test
    void aStartedStageAndTheEndReadBack() {
        assertThat(ProgressLine.running(2, 5, "c16")).isEqualTo("PROGRESS 2/5 c16");
        assertThat(ProgressLine.parse(ProgressLine.running(2, 5, "c16"))).contains("2/5 c16");
        assertThat(ProgressLine.finished(5)).isEqualTo("PROGRESS 5/5");
        assertThat(ProgressLine.parse(ProgressLine.finished(5))).contains("5/5");
    }

    @Test
    void aLongStageNameIsCutToWhatAReaderAccepts() {
        String rate = "r0." + "0".repeat(299) + "1";

        assertThat(ProgressLine.parse(ProgressLine.running(0, 1, rate)))
                .contains("0/1 " + rate.substring(0, ProgressLine.MAX_STAGE_CHARS));
    }
}
