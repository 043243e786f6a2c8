package dev.llmops.serving.operator.toolkit;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Ownership as Kubernetes' own controllers decide it: by the controller reference's UID. Labels and names can be
 * copied by anyone who may create objects in the namespace; a UID names one object.
 */
public final class Owners {

    private Owners() {}

    /** Whether {@code owned}'s controller reference names {@code owner} by UID. */
    public static boolean isControlledBy(HasMetadata owned, HasMetadata owner) {
        String uid = owner.getMetadata().getUid();
        return uid != null
                && owned.getMetadata().getOwnerReferences().stream()
                        .anyMatch(ref -> Boolean.TRUE.equals(ref.getController()) && uid.equals(ref.getUid()));
    }
}
