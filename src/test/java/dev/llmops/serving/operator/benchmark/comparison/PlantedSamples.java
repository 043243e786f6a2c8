package dev.llmops.serving.operator.benchmark.comparison;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.Base64;

/** A samples ConfigMap written by someone other than the operator, with a controller reference to the run. */
public final class PlantedSamples {

    private PlantedSamples() {}

    /** ConfigMap {@code name} in the run's namespace, holding {@code gzip} under the operator's key. */
    public static ConfigMap configMap(String name, BenchmarkRun owner, byte[] gzip) {
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(owner.getMetadata().getNamespace())
                .addNewOwnerReference()
                .withApiVersion(owner.getApiVersion())
                .withKind(owner.getKind())
                .withName(owner.getMetadata().getName())
                .withUid(owner.getMetadata().getUid())
                .withController(true)
                .endOwnerReference()
                .endMetadata()
                .addToBinaryData(SampleStore.KEY, Base64.getEncoder().encodeToString(gzip))
                .build();
    }
}
