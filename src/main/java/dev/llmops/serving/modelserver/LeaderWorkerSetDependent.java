package dev.llmops.serving.modelserver;

import dev.llmops.serving.api.v1alpha1.ModelServer;
import dev.llmops.serving.config.OperatorConfig;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.GarbageCollected;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;
import io.javaoperatorsdk.operator.processing.dependent.Creator;
import io.javaoperatorsdk.operator.processing.dependent.Updater;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.GenericKubernetesDependentResource;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The LeaderWorkerSet of multi-node replicas: each group is one leader that serves HTTP and nodes-1 workers that join
 * its process group. Kept as a generic resource so the operator builds and runs where the CRD is not installed.
 */
public class LeaderWorkerSetDependent extends GenericKubernetesDependentResource<ModelServer>
        implements Creator<GenericKubernetesResource, ModelServer>, Updater<GenericKubernetesResource, ModelServer>,
        GarbageCollected<ModelServer> {

    public static final String GROUP = "leaderworkerset.x-k8s.io";
    public static final String API_VERSION = GROUP + "/v1";
    public static final String KIND = "LeaderWorkerSet";
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    @Inject
    OperatorConfig config;

    public LeaderWorkerSetDependent() {
        super(new GroupVersionKind(GROUP, "v1", KIND));
    }

    @Override
    protected GenericKubernetesResource desired(ModelServer server, Context<ModelServer> context) {
        return desired(server, config);
    }

    static GenericKubernetesResource desired(ModelServer server, OperatorConfig config) {
        Map<String, Object> template = new LinkedHashMap<>();
        template.put("size", server.getSpec().parallelism.nodes);
        template.put("restartPolicy", "RecreateGroupOnPodRestart");
        template.put("leaderTemplate", asMap(SglangPodTemplate.build(server, ModelServerLabels.SERVER, config)));
        template.put("workerTemplate", asMap(SglangPodTemplate.build(server, ModelServerLabels.WORKER, config)));
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("replicas", server.getSpec().replicas);
        spec.put("startupPolicy", "LeaderCreated");
        spec.put("leaderWorkerTemplate", template);
        return new GenericKubernetesResourceBuilder()
                .withApiVersion(API_VERSION)
                .withKind(KIND)
                .withNewMetadata()
                    .withName(server.getMetadata().getName())
                    .withNamespace(server.getMetadata().getNamespace())
                    .withLabels(ModelServerLabels.common(server))
                .endMetadata()
                .withAdditionalProperties(Map.of("spec", spec))
                .build();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object value) {
        return SERIALIZATION.convertValue(value, Map.class);
    }
}
