package dev.llmops.serving.operator.benchmark.archive;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** How long a failed archive waits before the next attempt. */
class RunArchiverTest {

    @Test
    void theWaitDoublesFromTenSecondsUpToTenMinutes() {
        assertThat(RunArchiver.waitAfter(1)).isEqualTo(Duration.ofSeconds(10));
        assertThat(RunArchiver.waitAfter(2)).isEqualTo(Duration.ofSeconds(20));
        assertThat(RunArchiver.waitAfter(6)).isEqualTo(Duration.ofSeconds(320));
        assertThat(RunArchiver.waitAfter(7)).isEqualTo(Duration.ofMinutes(10));
        assertThat(RunArchiver.waitAfter(1000)).isEqualTo(Duration.ofMinutes(10));
    }
}
