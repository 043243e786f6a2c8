package dev.llmops.serving.operator.toolkit;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import java.util.Optional;

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
                && controllerOf(owned.getMetadata())
                        .filter(ref -> uid.equals(ref.getUid()))
                        .isPresent();
    }

    /** The owner reference that marks its object's controller, if it has one. */
    public static Optional<OwnerReference> controllerOf(ObjectMeta metadata) {
        return metadata.getOwnerReferences().stream()
                .filter(ref -> Boolean.TRUE.equals(ref.getController()))
                .findFirst();
    }

    /**
     * A reference that makes {@code owner} the controller of the object that carries it: garbage collection deletes
     * the object with its owner, and a foreground deletion of the owner waits for it.
     */
    public static OwnerReference controllerReference(HasMetadata owner) {
        return new OwnerReferenceBuilder()
                .withApiVersion(owner.getApiVersion())
                .withKind(owner.getKind())
                .withName(owner.getMetadata().getName())
                .withUid(owner.getMetadata().getUid())
                .withController(true)
                .withBlockOwnerDeletion(true)
                .build();
    }
}
