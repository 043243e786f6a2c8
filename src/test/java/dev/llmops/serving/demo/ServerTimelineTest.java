package dev.llmops.serving.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** The node's timeline says when each server arrived and left, and counts the servers that were there together. */
class ServerTimelineTest {

    private final ServerTimeline timeline = new ServerTimeline();

    @Test
    void serversInTurnAreNeverTogether() {
        assertThat(timeline.observe(Set.of("sx-a"), 1.0)).containsExactly("node: sx-a started (1 server on the node)");
        assertThat(timeline.observe(Set.of("sx-a"), 2.0)).isEmpty();
        assertThat(timeline.observe(Set.of("sx-b"), 3.0))
                .containsExactly(
                        "node: sx-a stopped (0 servers on the node)", "node: sx-b started (1 server on the node)");
        assertThat(timeline.empty()).isFalse();
        timeline.observe(Set.of(), 4.0);

        assertThat(timeline.empty()).isTrue();
        assertThat(timeline.mostAtOnce()).isEqualTo(1);
        assertThat(timeline.stays())
                .containsExactly(new ServerTimeline.Stay("sx-a", 1.0, 3.0), new ServerTimeline.Stay("sx-b", 3.0, 4.0));
    }

    @Test
    void aServerArrivingBeforeTheLastLeftIsCounted() {
        timeline.observe(Set.of("sx-a"), 1.0);
        assertThat(timeline.observe(Set.of("sx-a", "sx-b"), 2.0))
                .containsExactly("node: sx-b started (2 servers on the node)");
        timeline.observe(Set.of("sx-b"), 3.0);
        timeline.observe(Set.of("sx-b", "sx-c"), 4.0);

        assertThat(timeline.mostAtOnce()).isEqualTo(2);
    }
}
