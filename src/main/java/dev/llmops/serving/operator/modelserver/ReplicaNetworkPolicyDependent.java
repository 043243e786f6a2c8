package dev.llmops.serving.operator.modelserver;

import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.operator.config.OperatorConfig;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import jakarta.inject.Inject;
import java.util.Map;

/**
 * Lets the pods of one multi-node ModelServer reach each other on every port (process-group rendezvous, NCCL) and
 * nothing else reach its workers: the chart's namespace-wide policy opens the leaders' HTTP port only, and a
 * NetworkPolicy cannot say "pods of the same server as the selected pod", so each server gets its own.
 */
@KubernetesDependent(informer = @Informer(labelSelector = Labels.OWNED))
public class ReplicaNetworkPolicyDependent extends CRUDKubernetesDependentResource<NetworkPolicy, ModelServer> {

    @Inject
    OperatorConfig config;

    public ReplicaNetworkPolicyDependent() {
        super(NetworkPolicy.class);
    }

    /** Whether the platform enabled NetworkPolicies (Helm value networkPolicy.enabled). */
    boolean networkPoliciesEnabled() {
        return config.networkPolicy().enabled();
    }

    @Override
    protected NetworkPolicy desired(ModelServer server, Context<ModelServer> context) {
        return desired(server);
    }

    static NetworkPolicy desired(ModelServer server) {
        Map<String, String> replicaPods = replicaPodSelector(server);
        return new NetworkPolicyBuilder()
                .withNewMetadata()
                .withName(ModelServerLabels.replicaNetworkPolicyName(server))
                .withNamespace(server.getMetadata().getNamespace())
                .withLabels(ModelServerLabels.common(server))
                .endMetadata()
                .withNewSpec()
                .withNewPodSelector()
                .withMatchLabels(replicaPods)
                .endPodSelector()
                .withPolicyTypes("Ingress")
                .addNewIngress()
                .addNewFrom()
                .withNewPodSelector()
                .withMatchLabels(replicaPods)
                .endPodSelector()
                .endFrom()
                .endIngress()
                .endSpec()
                .build();
    }

    /** Every pod of this server, leaders and workers, and no pod of another server. */
    static Map<String, String> replicaPodSelector(ModelServer server) {
        return Map.of(
                Labels.NAME,
                ModelServerLabels.APP_NAME,
                Labels.MANAGED_BY,
                Labels.OPERATOR,
                Labels.MODEL_SERVER,
                server.getMetadata().getName());
    }
}
