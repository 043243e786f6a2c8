package dev.llmops.serving.operator.modelserver;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnUpdateFilter;
import java.util.Objects;

/**
 * Wakes a ModelServer for the changes of its Deployment it must answer — the spec (generation), labels, owners, a
 * deletion under way — and not for the status and revision annotation the Deployment controller keeps writing, which
 * the reconciler never reads (it watches the pods), so a starting server is not reconciled again for each of them.
 */
public class DeploymentSpecChanged implements OnUpdateFilter<Deployment> {

    @Override
    public boolean accept(Deployment updated, Deployment old) {
        ObjectMeta now = updated.getMetadata();
        ObjectMeta before = old.getMetadata();
        return !Objects.equals(now.getGeneration(), before.getGeneration())
                || !Objects.equals(now.getLabels(), before.getLabels())
                || !Objects.equals(now.getOwnerReferences(), before.getOwnerReferences())
                || !Objects.equals(now.getDeletionTimestamp(), before.getDeletionTimestamp());
    }
}
