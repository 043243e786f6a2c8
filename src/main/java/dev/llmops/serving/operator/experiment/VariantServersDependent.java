package dev.llmops.serving.operator.experiment;

import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.GarbageCollected;
import io.javaoperatorsdk.operator.processing.dependent.CRUDKubernetesBulkDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.KubernetesBulkDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.Matcher;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The ModelServers of the variants deploying or benchmarking now, and the winner's once the experiment ends with
 * spec.keepWinner; a variant's server is deleted as soon as the variant is done, which frees the pool for the next.
 * Created once and never updated: a variant's server is spec.server with the variant laid over it, and both are
 * immutable.
 */
@KubernetesDependent(informer = @Informer(labelSelector = Labels.EXPERIMENT))
public class VariantServersDependent extends KubernetesDependentResource<ModelServer, ServingExperiment>
        implements KubernetesBulkDependentResource<ModelServer, ServingExperiment>,
                CRUDKubernetesBulkDependentResource<ModelServer, ServingExperiment>,
                GarbageCollected<ServingExperiment> {

    public VariantServersDependent() {
        super(ModelServer.class);
    }

    @Override
    public Map<ResourceID, ModelServer> desiredResources(
            ServingExperiment experiment, Context<ServingExperiment> context) {
        ExperimentStatusReport.Report report = ExperimentStatusReport.Report.of(context);
        Stream<ModelServer> variants = report.serving().stream()
                .map(name -> VariantObjects.server(
                        experiment,
                        VariantObjects.variant(experiment, name).orElseThrow(),
                        VariantObjects.childName(experiment, name)));
        Stream<ModelServer> winner = report.keptWinner().stream()
                .map(name -> VariantObjects.server(
                        experiment,
                        VariantObjects.variant(experiment, name).orElseThrow(),
                        VariantObjects.winnerServerName(experiment)));
        return Stream.concat(variants, winner).collect(Collectors.toMap(ResourceID::fromResource, Function.identity()));
    }

    /** What exists is what was desired: a variant's ModelServer is created once and never changed. */
    @Override
    public Matcher.Result<ModelServer> match(
            ModelServer actual, ModelServer desired, ServingExperiment experiment, Context<ServingExperiment> context) {
        return Matcher.Result.nonComputed(true);
    }
}
