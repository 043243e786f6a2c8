package dev.llmops.serving.demo.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Ages print as kubectl prints them: precise while young, coarser with time. */
class HumanAgeTest {

    @Test
    void agesAtEachStepOfPrecision() {
        assertThat(HumanAge.of(Duration.ofSeconds(-5))).isEqualTo("<invalid>");
        assertThat(HumanAge.of(Duration.ofMillis(-500))).isEqualTo("0s");
        assertThat(HumanAge.of(Duration.ofSeconds(119))).isEqualTo("119s");
        assertThat(HumanAge.of(Duration.ofSeconds(125))).isEqualTo("2m5s");
        assertThat(HumanAge.of(Duration.ofMinutes(3))).isEqualTo("3m");
        assertThat(HumanAge.of(Duration.ofMinutes(179))).isEqualTo("179m");
        assertThat(HumanAge.of(Duration.ofMinutes(190))).isEqualTo("3h10m");
        assertThat(HumanAge.of(Duration.ofHours(5))).isEqualTo("5h");
        assertThat(HumanAge.of(Duration.ofHours(47))).isEqualTo("47h");
        assertThat(HumanAge.of(Duration.ofHours(50))).isEqualTo("2d2h");
        assertThat(HumanAge.of(Duration.ofDays(3))).isEqualTo("3d");
        assertThat(HumanAge.of(Duration.ofDays(400))).isEqualTo("400d");
        assertThat(HumanAge.of(Duration.ofDays(365 * 3 + 10))).isEqualTo("3y10d");
        assertThat(HumanAge.of(Duration.ofDays(365 * 9))).isEqualTo("9y");
    }
}
