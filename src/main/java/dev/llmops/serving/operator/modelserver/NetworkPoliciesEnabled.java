package dev.llmops.serving.operator.modelserver;

import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.DependentResource;
import io.javaoperatorsdk.operator.processing.dependent.workflow.Condition;

/**
 * Whether the platform enabled NetworkPolicies (Helm value networkPolicy.enabled). As an activation condition it keeps
 * the operator from watching NetworkPolicies at all where it never renders one.
 */
public class NetworkPoliciesEnabled implements Condition<NetworkPolicy, ModelServer> {
    @Override
    public boolean isMet(
            DependentResource<NetworkPolicy, ModelServer> dependent, ModelServer server, Context<ModelServer> context) {
        return ((ReplicaNetworkPolicyDependent) dependent).networkPoliciesEnabled();
    }
}
