package dev.llmops.serving.operator.experiment;

import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import dev.llmops.serving.operator.toolkit.ConditionMetrics;
import io.fabric8.kubernetes.api.model.Pod;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What wakes an experiment beyond its own objects: the serving pods of its variants' ModelServers, whose going away
 * frees the pool for the next variant. A pod names its ModelServer in a label; an index of the experiment cache by
 * each variant's ModelServer name finds the experiment.
 */
final class ExperimentEventSources {

    static final String PODS_SOURCE = "experiment-variant-pods";
    private static final String BY_VARIANT_SERVER = "servingexperiment-by-variant-server";

    private ExperimentEventSources() {}

    static List<EventSource<?, ServingExperiment>> of(
            EventSourceContext<ServingExperiment> context, ConditionMetrics conditionMetrics) {
        IndexerResourceCache<ServingExperiment> experiments = context.getPrimaryCache();
        experiments.addIndexer(
                BY_VARIANT_SERVER,
                experiment -> experiment.getSpec().variants.stream()
                        .map(v -> key(
                                experiment.getMetadata().getNamespace(), VariantObjects.childName(experiment, v.name)))
                        .toList());
        var pods = new InformerEventSource<>(
                InformerEventSourceConfiguration.from(Pod.class, ServingExperiment.class)
                        .withName(PODS_SOURCE)
                        .withLabelSelector(Labels.MODEL_SERVER)
                        .withSecondaryToPrimaryMapper(pod -> experiments
                                .byIndex(
                                        BY_VARIANT_SERVER,
                                        key(
                                                pod.getMetadata().getNamespace(),
                                                pod.getMetadata().getLabels().get(Labels.MODEL_SERVER)))
                                .stream()
                                .map(ResourceID::fromResource)
                                .collect(Collectors.toSet()))
                        .build(),
                context);
        return List.of(
                pods,
                conditionMetrics.eventSource(
                        ServingExperiment.class,
                        experiment -> experiment.getStatus() == null ? null : experiment.getStatus().conditions));
    }

    private static String key(String namespace, String name) {
        return namespace + "/" + name;
    }
}
