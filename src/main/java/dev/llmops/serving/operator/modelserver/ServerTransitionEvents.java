package dev.llmops.serving.operator.modelserver;

import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerPhase;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerStatus;
import dev.llmops.serving.operator.toolkit.Conditions;
import dev.llmops.serving.operator.toolkit.EventRecorder;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.EnumSet;
import java.util.Set;

/** The Kubernetes Events a ModelServer's change of phase deserves, recorded once its status is written. */
final class ServerTransitionEvents {

    private static final Set<ModelServerPhase> MOMENTARY =
            EnumSet.of(ModelServerPhase.Pending, ModelServerPhase.Scheduling, ModelServerPhase.Loading);

    private final EventRecorder events;

    ServerTransitionEvents(EventRecorder events) {
        this.events = events;
    }

    /** An Event when the phase changed and {@link #worthAnEvent} says so, a warning into Failed or Degraded. */
    void record(ModelServer server, ModelServerPhase before, ModelServerStatus after) {
        if (after.phase == before || !worthAnEvent(before, after)) {
            return;
        }
        String message = Conditions.find(after.conditions, ConditionTypes.READY)
                .map(Condition::getMessage)
                .orElse("");
        boolean bad = after.phase == ModelServerPhase.Failed || after.phase == ModelServerPhase.Degraded;
        events.record(
                server,
                bad ? EventRecorder.WARNING : EventRecorder.NORMAL,
                after.phase.name(),
                "Phase " + after.phase + (message.isEmpty() ? "" : ": " + message));
    }

    /**
     * Phases a healthy server only passes through on its way up (Pending, Scheduling, Loading, with nothing diagnosed)
     * get no Event: they say nothing the status does not, and each is an API write per server. Arriving
     * at Ready, Degraded or Failed, a diagnosis, and leaving one of those phases are recorded.
     */
    static boolean worthAnEvent(ModelServerPhase before, ModelServerStatus status) {
        return status.diagnosis != null
                || !MOMENTARY.contains(status.phase)
                || before != null && !MOMENTARY.contains(before);
    }
}
