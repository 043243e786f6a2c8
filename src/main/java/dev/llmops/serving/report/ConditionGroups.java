package dev.llmops.serving.report;

import dev.llmops.serving.api.v1alpha1.BenchmarkRun;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A run's conditions with each distinct message once: Ready, Succeeded, Reconciling and Stalled often say the same thing,
 * and a report that repeats it four times buries the one line that explains a failure.
 */
final class ConditionGroups {

    /**
     * The conditions that share one message.
     *
     * @param conditions each condition's type and status, e.g. "Ready False, Stalled True"
     * @param reasons    their distinct reasons
     * @param message    the message they share, empty when they have none
     */
    record Group(String conditions, String reasons, String message) {
    }

    private ConditionGroups() {
    }

    /** One group per distinct message, in the order the messages first appear. */
    static List<Group> of(BenchmarkRun run) {
        Map<String, List<Condition>> byMessage = new LinkedHashMap<>();
        for (Condition c : run.getStatus().conditions) {
            byMessage.computeIfAbsent(Objects.requireNonNullElse(c.getMessage(), "").strip(), m -> new ArrayList<>()).add(c);
        }
        List<Group> groups = new ArrayList<>();
        byMessage.forEach((message, conditions) -> groups.add(new Group(
                String.join(", ", conditions.stream().map(c -> Format.orMissing(c.getType()) + " " + Format.orMissing(c.getStatus())).toList()),
                String.join(", ", new LinkedHashSet<>(conditions.stream().map(c -> Format.orMissing(c.getReason())).toList())),
                message)));
        return groups;
    }
}
