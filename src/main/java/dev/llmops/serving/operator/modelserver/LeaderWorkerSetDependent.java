package dev.llmops.serving.operator.modelserver;

import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.operator.config.OperatorConfig;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The LeaderWorkerSet of multi-node replicas: each group is one leader that serves HTTP and nodes-1 workers that join
 * its process group. Only the leader carries the HTTP port, the probes and the inference-ready gate, so the group is
 * Ready when the leader generates.
 */
public class LeaderWorkerSetDependent extends CRUDKubernetesDependentResource<LeaderWorkerSet, ModelServer> {

    @Inject
    OperatorConfig config;

    public LeaderWorkerSetDependent() {
        super(LeaderWorkerSet.class);
    }

    @Override
    protected LeaderWorkerSet desired(ModelServer server, Context<ModelServer> context) {
        return desired(server, config);
    }

    static LeaderWorkerSet desired(ModelServer server, OperatorConfig config) {
        Map<String, Object> template = new LinkedHashMap<>();
        template.put("size", server.getSpec().parallelism.nodes);
        template.put("restartPolicy", "RecreateGroupOnPodRestart");
        template.put("leaderTemplate", asMap(SglangPodTemplate.build(server, Labels.SERVER, config)));
        template.put("workerTemplate", asMap(SglangPodTemplate.build(server, Labels.WORKER, config)));
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("replicas", server.getSpec().replicas);
        spec.put("startupPolicy", "LeaderCreated");
        spec.put("leaderWorkerTemplate", template);
        LeaderWorkerSet set = new LeaderWorkerSet();
        set.setApiVersion(LeaderWorkerSet.API_VERSION);
        set.setKind(LeaderWorkerSet.KIND);
        set.setMetadata(new ObjectMetaBuilder()
                .withName(ModelServerLabels.leaderWorkerSetName(server))
                .withNamespace(server.getMetadata().getNamespace())
                .withLabels(ModelServerLabels.common(server))
                .build());
        set.setAdditionalProperty("spec", spec);
        return set;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object value) {
        return Serialization.INSTANCE.convertValue(value, Map.class);
    }

    /**
     * Built on the first LeaderWorkerSet rather than when the operator loads this class: its scan of the model types
     * loads about 830 classes, a cost at every operator start for a resource most clusters never create.
     */
    private static final class Serialization {
        static final KubernetesSerialization INSTANCE = new KubernetesSerialization();
    }
}
