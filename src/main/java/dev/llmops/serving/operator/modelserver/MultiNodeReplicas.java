package dev.llmops.serving.operator.modelserver;

import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.DependentResource;
import io.javaoperatorsdk.operator.processing.dependent.workflow.Condition;

/** Replicas that span several nodes run as a LeaderWorkerSet. */
public class MultiNodeReplicas implements Condition<LeaderWorkerSet, ModelServer> {
    @Override
    public boolean isMet(
            DependentResource<LeaderWorkerSet, ModelServer> dependent,
            ModelServer server,
            Context<ModelServer> context) {
        return server.getSpec().parallelism.nodes > 1;
    }
}
