package dev.llmops.serving.demo.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A watch from a resourceVersion gets every later change once; one from a version no longer kept gets 410 Gone. */
class ChangeFeedTest {

    private static final AttributeSet KEY = new AttributeSet(new Attribute("plural", "configmaps"));

    @Test
    void aSubscriberGetsTheRetainedChangesAfterItsVersionThenNewOnes() throws ChangeFeed.Expired {
        ChangeFeed feed = new ChangeFeed();
        feed.publish(change(1, "{}"));
        feed.publish(change(2, "{}"));
        List<Long> seen = new ArrayList<>();

        feed.subscribe(1, change -> seen.add(change.resourceVersion()));
        feed.publish(change(3, "{}"));

        assertThat(seen).containsExactly(2L, 3L);
    }

    @Test
    void aVersionOlderThanWhatIsKeptHasExpired() {
        ChangeFeed feed = new ChangeFeed();
        for (long version = 1; version <= ChangeFeed.RETAINED + 1; version++) {
            feed.publish(change(version, "{}"));
        }

        assertThatThrownBy(() -> feed.subscribe(0, change -> {}))
                .isInstanceOf(ChangeFeed.Expired.class)
                .hasMessage("too old resource version: 0 (1)");
    }

    @Test
    void largeChangesAreKeptUpToTheCharacterBound() {
        ChangeFeed feed = new ChangeFeed();
        String large = "x".repeat((int) (ChangeFeed.RETAINED_CHARS / 2) + 1);
        feed.publish(change(1, large));
        feed.publish(change(2, large));

        assertThatThrownBy(() -> feed.subscribe(0, change -> {})).isInstanceOf(ChangeFeed.Expired.class);
    }

    private static ChangeFeed.Change change(long version, String object) {
        return new ChangeFeed.Change(version, null, KEY, object);
    }
}
