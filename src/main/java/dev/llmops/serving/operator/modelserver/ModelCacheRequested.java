package dev.llmops.serving.operator.modelserver;

import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.DependentResource;
import io.javaoperatorsdk.operator.processing.dependent.workflow.Condition;

/** The operator owns a model cache claim only when the spec asks for a new one by size. */
public class ModelCacheRequested implements Condition<PersistentVolumeClaim, ModelServer> {
    @Override
    public boolean isMet(
            DependentResource<PersistentVolumeClaim, ModelServer> dependent,
            ModelServer server,
            Context<ModelServer> context) {
        return server.getSpec().modelCache != null && server.getSpec().modelCache.size != null;
    }
}
