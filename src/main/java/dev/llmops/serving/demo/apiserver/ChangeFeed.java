package dev.llmops.serving.demo.apiserver;

import io.fabric8.mockwebserver.crud.AttributeSet;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.function.Consumer;

/**
 * The store's changes in resource-version order, with the last {@value #RETAINED} (and at most
 * {@value #RETAINED_CHARS} characters of them) kept, so that an HTTP watch from a list's resourceVersion sees every
 * change after that list, as kube-apiserver's watch cache replays them; an older resourceVersion is answered with 410
 * Gone, as there.
 */
final class ChangeFeed {

    static final int RETAINED = 4096;
    static final long RETAINED_CHARS = 32L << 20;

    /** One change: the object's key before (null when created) and after (null when removed), and its JSON. */
    record Change(long resourceVersion, AttributeSet before, AttributeSet after, String object) {

        /** ADDED, MODIFIED or DELETED as seen by a watch of the query; empty when the watch does not see it. */
        String typeFor(AttributeSet query) {
            boolean matchedBefore = before != null && before.matches(query);
            boolean matchesAfter = after != null && after.matches(query);
            if (matchedBefore && matchesAfter) {
                return "MODIFIED";
            }
            if (matchedBefore) {
                return "DELETED";
            }
            return matchesAfter ? "ADDED" : "";
        }
    }

    /** A watch that resourceVersion is too old for, as kube-apiserver says it. */
    static final class Expired extends Exception {
        private static final long serialVersionUID = 1L;

        Expired(long requested, long oldestKept) {
            super("too old resource version: " + requested + " (" + oldestKept + ")");
        }
    }

    private final Deque<Change> recent = new ArrayDeque<>();
    private final Set<Consumer<Change>> subscribers = new CopyOnWriteArraySet<>();
    private long newestDropped;
    private long retainedChars;

    synchronized void publish(Change change) {
        recent.addLast(change);
        retainedChars += change.object().length();
        while (recent.size() > RETAINED || retainedChars > RETAINED_CHARS && recent.size() > 1) {
            Change dropped = recent.removeFirst();
            retainedChars -= dropped.object().length();
            newestDropped = dropped.resourceVersion();
        }
        subscribers.forEach(subscriber -> subscriber.accept(change));
    }

    /**
     * Hands the subscriber every retained change after the resourceVersion, then each new one as it is published,
     * with nothing lost or repeated in between; throws when changes after it are no longer retained.
     */
    synchronized void subscribe(long afterResourceVersion, Consumer<Change> subscriber) throws Expired {
        if (afterResourceVersion < newestDropped) {
            throw new Expired(afterResourceVersion, newestDropped);
        }
        List<Change> missed = new ArrayList<>();
        recent.stream()
                .filter(change -> change.resourceVersion() > afterResourceVersion)
                .forEach(missed::add);
        missed.forEach(subscriber);
        subscribers.add(subscriber);
    }

    void unsubscribe(Consumer<Change> subscriber) {
        subscribers.remove(subscriber);
    }
}
