package dev.llmops.serving.operator.modelserver;

import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.DependentResource;
import io.javaoperatorsdk.operator.processing.dependent.workflow.Condition;

/** A server's own NetworkPolicy exists only while its replicas span nodes; it is deleted when they go back to one. */
public class ReplicaNetworkPolicyWanted implements Condition<NetworkPolicy, ModelServer> {
    @Override
    public boolean isMet(
            DependentResource<NetworkPolicy, ModelServer> dependent, ModelServer server, Context<ModelServer> context) {
        return server.getSpec().parallelism.nodes > 1;
    }
}
