package dev.llmops.serving.operator.toolkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Text from servers and logs is cut to about 1 KiB before it reaches a condition. */
class StatusTextTest {

    @Test
    void shortTextIsKeptAndLongTextCutWithAnEllipsis() {
        String fits = "a".repeat(StatusText.MAX_CHARS);

        assertThat(StatusText.bounded(null)).isNull();
        assertThat(StatusText.bounded(fits)).isSameAs(fits);
        assertThat(StatusText.bounded(fits + "b"))
                .hasSize(StatusText.MAX_CHARS)
                .startsWith("aaa")
                .endsWith("a…");
    }

    @Test
    void aCutNeverSplitsACharacterOutsideTheBasicPlane() {
        String emoji = "a".repeat(StatusText.MAX_CHARS - 2) + "😀" + "tail";

        assertThat(StatusText.bounded(emoji)).isEqualTo("a".repeat(StatusText.MAX_CHARS - 2) + "…");
    }

    @Test
    void aConditionMessageQuotingAServerIsCut() {
        List<Condition> conditions = new ArrayList<>();
        new Conditions(Clock.fixed(Instant.EPOCH, ZoneOffset.UTC))
                .set(conditions, "InferenceReady", "False", "GenerationFailed", "http_500: " + "x".repeat(1 << 20), 1L);

        assertThat(conditions.get(0).getMessage()).hasSize(StatusText.MAX_CHARS).startsWith("http_500: xxx");
    }
}
