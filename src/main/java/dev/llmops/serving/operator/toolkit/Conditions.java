package dev.llmops.serving.operator.toolkit;

import dev.llmops.serving.api.v1alpha1.ConditionReasons;
import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * Writes conditions in the Kubernetes shape: lastTransitionTime moves only when the status flips, and every
 * condition carries the generation it was computed for, so kubectl wait, kstatus and Argo CD read them right.
 */
public final class Conditions {

    public static final String TRUE = "True";
    public static final String FALSE = "False";
    public static final String UNKNOWN = "Unknown";

    private final Clock clock;

    public Conditions(Clock clock) {
        this.clock = clock;
    }

    public static Conditions systemUtc() {
        return new Conditions(Clock.systemUTC());
    }

    /**
     * Sets (adds or updates) the condition of the given type, keeping lastTransitionTime unless the status changed; the
     * message is cut to {@link StatusText#MAX_CHARS}, since it often quotes a server or a log.
     */
    public void set(
            List<Condition> conditions, String type, String status, String reason, String message, Long generation) {
        Optional<Condition> existing = find(conditions, type);
        String transitionTime = existing.filter(c -> status.equals(c.getStatus()))
                .map(Condition::getLastTransitionTime)
                .orElseGet(this::now);
        Condition updated = new ConditionBuilder()
                .withType(type)
                .withStatus(status)
                .withReason(reason)
                .withMessage(message == null ? "" : StatusText.bounded(message))
                .withObservedGeneration(generation)
                .withLastTransitionTime(transitionTime)
                .build();
        existing.ifPresentOrElse(c -> conditions.set(conditions.indexOf(c), updated), () -> conditions.add(updated));
    }

    /**
     * Reconciling=True with the error while it is retried; once the retries are used up, or at once when the API
     * server refused an object as invalid ({@link ReconcileErrors#isPermanent}), Stalled=True with the API server's
     * message and Reconciling=False; a stall that is not permanent says that it is tried again after {@code recheck}.
     * Returns whether it stalled.
     */
    public boolean reconcileFailed(
            List<Condition> conditions, Exception error, boolean lastAttempt, Long generation, Duration recheck) {
        String description = ReconcileErrors.describe(error);
        boolean permanent = ReconcileErrors.isPermanent(error);
        if (!lastAttempt && !permanent) {
            set(
                    conditions,
                    ConditionTypes.RECONCILING,
                    TRUE,
                    ConditionReasons.RECONCILE_ERROR,
                    "Reconciliation failed, retrying: " + description,
                    generation);
            return false;
        }
        set(conditions, ConditionTypes.RECONCILING, FALSE, ConditionReasons.RECONCILE_ERROR, "", generation);
        set(
                conditions,
                ConditionTypes.STALLED,
                TRUE,
                ConditionReasons.RECONCILE_ERROR,
                (permanent
                                ? "The API server refused a change and will refuse it until the spec changes: "
                                : "Reconciliation failed and the retries are used up; tried again every "
                                        + recheck.toSeconds() + " s and on any change: ")
                        + description,
                generation);
        return true;
    }

    public static String of(boolean value) {
        return value ? TRUE : FALSE;
    }

    public static Optional<Condition> find(List<Condition> conditions, String type) {
        return conditions == null
                ? Optional.empty()
                : conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
    }

    public static boolean isTrue(List<Condition> conditions, String type) {
        return find(conditions, type).map(c -> TRUE.equals(c.getStatus())).orElse(false);
    }

    /** RFC 3339 with second precision, as metav1.Time serialises. */
    public String now() {
        return Instant.now(clock).truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
