package dev.llmops.serving.operator.modelserver;

import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.DependentResource;
import io.javaoperatorsdk.operator.processing.dependent.workflow.Condition;

/** Replicas that fit on one node run as a Deployment. */
public class SingleNodeReplicas implements Condition<Deployment, ModelServer> {
    @Override
    public boolean isMet(
            DependentResource<Deployment, ModelServer> dependent, ModelServer server, Context<ModelServer> context) {
        return server.getSpec().parallelism.nodes == 1;
    }
}
