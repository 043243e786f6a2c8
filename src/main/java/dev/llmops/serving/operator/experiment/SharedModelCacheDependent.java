package dev.llmops.serving.operator.experiment;

import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.GarbageCollected;
import io.javaoperatorsdk.operator.processing.dependent.Creator;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependentResource;

/**
 * The model cache claim every variant mounts when spec.server asks for a cache of a size: owned by the experiment, not
 * by a variant's server, so the weights downloaded for the first variant are there for the next.
 */
@KubernetesDependent(informer = @Informer(labelSelector = Labels.EXPERIMENT))
public class SharedModelCacheDependent extends KubernetesDependentResource<PersistentVolumeClaim, ServingExperiment>
        implements Creator<PersistentVolumeClaim, ServingExperiment>, GarbageCollected<ServingExperiment> {

    public SharedModelCacheDependent() {
        super(PersistentVolumeClaim.class);
    }

    @Override
    protected PersistentVolumeClaim desired(ServingExperiment experiment, Context<ServingExperiment> context) {
        return VariantObjects.modelCacheClaim(experiment);
    }
}
