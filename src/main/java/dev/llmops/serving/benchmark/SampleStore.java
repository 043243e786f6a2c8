package dev.llmops.serving.benchmark;

import dev.llmops.serving.api.v1alpha1.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.DerivedNames;
import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.runner.SampleSet;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * Keeps a run's per-request samples in a ConfigMap it owns, and reads another run's back for a comparison. Not a
 * dependent resource: its content exists once, when the finished Job's log is read, and is never reconciled again.
 */
public class SampleStore {

    public static final String KEY = "samples.json.gz";
    private static final String SUFFIX = "-samples";

    private final KubernetesClient client;

    public SampleStore(KubernetesClient client) {
        this.client = client;
    }

    /** {@code <run>-samples}; a name too long for a ConfigMap is shortened and made unique with a hash. */
    public static String name(String runName) {
        return DerivedNames.fit(runName, SUFFIX, DerivedNames.SUBDOMAIN_MAX);
    }

    /**
     * Creates the run's ConfigMap; one left by an earlier attempt of the same reconcile holds the same Job's samples
     * and is kept. One that belongs to something else is not overwritten.
     */
    public void store(BenchmarkRun run, SampleSet samples) {
        Map<String, String> labels = new HashMap<>();
        if (run.getMetadata().getLabels() != null) {
            labels.putAll(run.getMetadata().getLabels());
        }
        labels.put(Labels.MANAGED_BY, Labels.OPERATOR);
        ConfigMap configMap = new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name(run.getMetadata().getName()))
                .withNamespace(run.getMetadata().getNamespace())
                .withLabels(labels)
                .addNewOwnerReference()
                .withApiVersion(run.getApiVersion())
                .withKind(run.getKind())
                .withName(run.getMetadata().getName())
                .withUid(run.getMetadata().getUid())
                .withController(true)
                .withBlockOwnerDeletion(true)
                .endOwnerReference()
                .endMetadata()
                .withImmutable(true)
                .addToBinaryData(KEY, Base64.getEncoder().encodeToString(samples.toGzip()))
                .build();
        try {
            client.resource(configMap).create();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
            ConfigMap existing = configMap(
                    run.getMetadata().getNamespace(), configMap.getMetadata().getName());
            boolean ours = existing != null
                    && existing.getMetadata().getOwnerReferences().stream()
                            .anyMatch(ref -> run.getMetadata().getUid().equals(ref.getUid()));
            if (!ours) {
                throw new IllegalStateException(
                        "ConfigMap " + configMap.getMetadata().getName()
                                + " already exists and does not belong to this BenchmarkRun; delete it or rename the"
                                + " run",
                        e);
            }
        }
    }

    /**
     * The samples in a run's ConfigMap, or why they cannot be used. A missing or unreadable ConfigMap is an answer;
     * any other API error is thrown, so the reconcile is retried instead of comparing without samples for good.
     */
    public SamplesRead read(String namespace, String name) {
        ConfigMap configMap = configMap(namespace, name);
        if (configMap == null) {
            return SamplesRead.missing("ConfigMap " + name + " does not exist");
        }
        String encoded = configMap.getBinaryData() == null
                ? null
                : configMap.getBinaryData().get(KEY);
        if (encoded == null) {
            return SamplesRead.missing("ConfigMap " + name + " has no binaryData key " + KEY);
        }
        try {
            return SamplesRead.of(SampleSet.fromGzip(Base64.getDecoder().decode(encoded)));
        } catch (IllegalArgumentException e) {
            return SamplesRead.missing("ConfigMap " + name + " holds unreadable samples: " + e.getMessage());
        }
    }

    private ConfigMap configMap(String namespace, String name) {
        return client.configMaps().inNamespace(namespace).withName(name).get();
    }
}
