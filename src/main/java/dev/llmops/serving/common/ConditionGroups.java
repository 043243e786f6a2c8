package dev.llmops.serving.common;

import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Conditions with each distinct message once: Ready, Succeeded, Reconciling and Stalled often say the same thing, and
 * a page that repeats it four times buries the one line that explains a failure.
 */
public final class ConditionGroups {

    /**
     * The conditions that share one message.
     *
     * @param conditions each condition's type and status, e.g. "Ready False, Stalled True"
     * @param reasons    their distinct reasons
     * @param message    the message they share, empty when they have none
     */
    public record Group(String conditions, String reasons, String message) {}

    private ConditionGroups() {}

    /** One group per distinct message, in the order the messages first appear. */
    public static List<Group> of(List<Condition> all) {
        Map<String, List<Condition>> byMessage = new LinkedHashMap<>();
        for (Condition c : all) {
            byMessage
                    .computeIfAbsent(
                            Objects.requireNonNullElse(c.getMessage(), "").strip(), m -> new ArrayList<>())
                    .add(c);
        }
        List<Group> groups = new ArrayList<>();
        byMessage.forEach((message, conditions) -> groups.add(new Group(
                String.join(
                        ", ",
                        conditions.stream()
                                .map(c -> text(c.getType()) + " " + text(c.getStatus()))
                                .toList()),
                String.join(
                        ", ",
                        new LinkedHashSet<>(conditions.stream()
                                .map(c -> text(c.getReason()))
                                .toList())),
                message)));
        return groups;
    }

    private static String text(String value) {
        return value == null || value.isBlank() ? "—" : value;
    }
}
