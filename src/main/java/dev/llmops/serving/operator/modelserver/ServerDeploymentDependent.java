package dev.llmops.serving.operator.modelserver;

import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.operator.config.OperatorConfig;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import jakarta.inject.Inject;

/**
 * The Deployment of single-node replicas. Rolling updates surge one pod and keep every old pod until the new one has
 * generated, so an upgrade never leaves the model unserved. Only the operator's own Deployments are cached.
 */
@KubernetesDependent(informer = @Informer(labelSelector = Labels.OWNED, onUpdateFilter = DeploymentSpecChanged.class))
public class ServerDeploymentDependent extends CRUDKubernetesDependentResource<Deployment, ModelServer> {

    @Inject
    OperatorConfig config;

    public ServerDeploymentDependent() {
        super(Deployment.class);
    }

    @Override
    protected Deployment desired(ModelServer server, Context<ModelServer> context) {
        return desired(server, config);
    }

    public static Deployment desired(ModelServer server, OperatorConfig config) {
        return new DeploymentBuilder()
                .withNewMetadata()
                .withName(server.getMetadata().getName())
                .withNamespace(server.getMetadata().getNamespace())
                .withLabels(ModelServerLabels.common(server))
                .endMetadata()
                .withNewSpec()
                .withReplicas(server.getSpec().replicas)
                .withNewSelector()
                .withMatchLabels(ModelServerLabels.serverSelector(server))
                .endSelector()
                .withNewStrategy()
                .withType("RollingUpdate")
                .withNewRollingUpdate()
                .withMaxSurge(new IntOrString(1))
                .withMaxUnavailable(new IntOrString(0))
                .endRollingUpdate()
                .endStrategy()
                .withTemplate(SglangPodTemplate.build(server, Labels.SERVER, config))
                .endSpec()
                .build();
    }
}
