package dev.llmops.serving.operator.experiment;

import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.DependentResource;
import io.javaoperatorsdk.operator.processing.dependent.workflow.Condition;

/** The experiment makes the cache claim only when spec.server asks the operator for one of a size. */
public class SharedModelCacheRequested implements Condition<PersistentVolumeClaim, ServingExperiment> {

    @Override
    public boolean isMet(
            DependentResource<PersistentVolumeClaim, ServingExperiment> dependent,
            ServingExperiment experiment,
            Context<ServingExperiment> context) {
        return VariantObjects.sharesCreatedCache(experiment);
    }
}
