package dev.llmops.serving.operator.modelserver;

import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;

/**
 * The in-cluster endpoint of the OpenAI-compatible API; it selects serving pods only (never multi-node workers). Only
 * the operator's own Services are cached, not every Service of the cluster.
 */
@KubernetesDependent(informer = @Informer(labelSelector = Labels.OWNED))
public class ServerServiceDependent extends CRUDKubernetesDependentResource<Service, ModelServer> {

    public ServerServiceDependent() {
        super(Service.class);
    }

    @Override
    protected Service desired(ModelServer server, Context<ModelServer> context) {
        return desired(server);
    }

    public static Service desired(ModelServer server) {
        return new ServiceBuilder()
                .withNewMetadata()
                .withName(ModelServerLabels.serviceName(server))
                .withNamespace(server.getMetadata().getNamespace())
                .withLabels(ModelServerLabels.common(server))
                .endMetadata()
                .withNewSpec()
                .withType("ClusterIP")
                .withSelector(ModelServerLabels.serverSelector(server))
                .addNewPort()
                .withName(SglangPodTemplate.PORT_NAME)
                .withProtocol("TCP")
                .withPort(server.getSpec().port)
                .withTargetPort(new IntOrString(SglangPodTemplate.PORT_NAME))
                .endPort()
                .endSpec()
                .build();
    }

    /** The URL clients in the cluster use. */
    public static String endpoint(ModelServer server) {
        return "http://%s.%s.svc:%d"
                .formatted(
                        ModelServerLabels.serviceName(server),
                        server.getMetadata().getNamespace(),
                        server.getSpec().port);
    }
}
