package dev.llmops.serving.operator.modelserver;

import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelCacheSpec;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.GarbageCollected;
import io.javaoperatorsdk.operator.processing.dependent.Creator;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependentResource;
import java.util.Map;

/**
 * The model cache claim the operator creates when the spec gives a size. Created once and then left alone: a claim's
 * spec is immutable, and recreating it would throw away terabytes of downloaded weights. Only the operator's own claims
 * are cached, not every claim of the cluster.
 */
@KubernetesDependent(informer = @Informer(labelSelector = Labels.OWNED))
public class ModelCacheClaimDependent extends KubernetesDependentResource<PersistentVolumeClaim, ModelServer>
        implements Creator<PersistentVolumeClaim, ModelServer>, GarbageCollected<ModelServer> {

    public ModelCacheClaimDependent() {
        super(PersistentVolumeClaim.class);
    }

    @Override
    protected PersistentVolumeClaim desired(ModelServer server, Context<ModelServer> context) {
        return desired(server);
    }

    /** One pod reads and writes it when there is one single-node replica; otherwise pods on several nodes share it. */
    static PersistentVolumeClaim desired(ModelServer server) {
        ModelCacheSpec cache = server.getSpec().modelCache;
        boolean onePod = server.getSpec().replicas <= 1 && server.getSpec().parallelism.nodes == 1;
        return new PersistentVolumeClaimBuilder()
                .withNewMetadata()
                .withName(ModelServerLabels.modelCacheClaimName(server))
                .withNamespace(server.getMetadata().getNamespace())
                .withLabels(ModelServerLabels.common(server))
                .endMetadata()
                .withNewSpec()
                .withAccessModes(onePod ? "ReadWriteOnce" : "ReadWriteMany")
                .withStorageClassName(cache.storageClassName)
                .withNewResources()
                .withRequests(Map.of("storage", new Quantity(cache.size)))
                .endResources()
                .endSpec()
                .build();
    }
}
