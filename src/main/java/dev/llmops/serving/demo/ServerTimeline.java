package dev.llmops.serving.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * When each server held the demo's one simulated GPU node: from the first look that found its ModelServer or one of
 * its pods to the first that found neither. The demo has no scheduler to refuse a second server, so this is what
 * shows that an experiment's variants took the node one after another.
 */
final class ServerTimeline {

    /** One server's time on the node, in seconds since the demo started; until is null while it is still there. */
    record Stay(String server, double from, Double until) {

        boolean overlaps(Stay other) {
            return from < other.endOr(Double.MAX_VALUE) && other.from < endOr(Double.MAX_VALUE);
        }

        private double endOr(double open) {
            return until == null ? open : until;
        }
    }

    private final List<Stay> stays = new ArrayList<>();

    /** Records who is on the node now; returns a line for each server that left or arrived since the last look. */
    List<String> observe(Set<String> onNode, double now) {
        List<String> changes = new ArrayList<>();
        for (int i = 0; i < stays.size(); i++) {
            Stay stay = stays.get(i);
            if (stay.until() == null && !onNode.contains(stay.server())) {
                stays.set(i, new Stay(stay.server(), stay.from(), now));
                changes.add(change(stay.server(), "stopped"));
            }
        }
        for (String server : onNode.stream().sorted().toList()) {
            if (stays.stream().noneMatch(s -> s.until() == null && s.server().equals(server))) {
                stays.add(new Stay(server, now, null));
                changes.add(change(server, "started"));
            }
        }
        return changes;
    }

    List<Stay> stays() {
        return List.copyOf(stays);
    }

    boolean empty() {
        return stays.stream().allMatch(s -> s.until() != null);
    }

    /** The most servers that were on the node at the same time. */
    int mostAtOnce() {
        int most = 0;
        for (Stay stay : stays) {
            most = (int) Math.max(
                    most,
                    stays.stream()
                            .filter(s -> s.from() <= stay.from() && s.overlaps(stay))
                            .count());
        }
        return most;
    }

    private String change(String server, String what) {
        long there = stays.stream().filter(s -> s.until() == null).count();
        return String.format(
                Locale.ROOT, "node: %s %s (%d server%s on the node)", server, what, there, there == 1 ? "" : "s");
    }
}
