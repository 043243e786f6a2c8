package dev.llmops.serving.modelserver;

import dev.llmops.serving.api.v1alpha1.ModelServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.DependentResource;
import io.javaoperatorsdk.operator.processing.dependent.workflow.Condition;

/** Replicas that span several nodes run as a LeaderWorkerSet. */
public class MultiNodeReplicas implements Condition<GenericKubernetesResource, ModelServer> {
    @Override
    public boolean isMet(DependentResource<GenericKubernetesResource, ModelServer> dependent, ModelServer server, Context<ModelServer> context) {
        return server.getSpec().parallelism.nodes > 1;
    }
}
