package dev.llmops.serving.operator.experiment;

import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantPhase;
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
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The variants' BenchmarkRuns: created when a variant's server is ready, kept with their results once the variant is
 * done (never created again, so no variant is benchmarked twice), deleted only when the budget stops one midway. Every
 * run but the baseline's names the baseline's run, so it carries the paired comparison.
 */
@KubernetesDependent(informer = @Informer(labelSelector = Labels.EXPERIMENT))
public class VariantRunsDependent extends KubernetesDependentResource<BenchmarkRun, ServingExperiment>
        implements KubernetesBulkDependentResource<BenchmarkRun, ServingExperiment>,
                CRUDKubernetesBulkDependentResource<BenchmarkRun, ServingExperiment>,
                GarbageCollected<ServingExperiment> {

    public VariantRunsDependent() {
        super(BenchmarkRun.class);
    }

    @Override
    public Map<ResourceID, BenchmarkRun> desiredResources(
            ServingExperiment experiment, Context<ServingExperiment> context) {
        ExperimentStatusReport.Report report = ExperimentStatusReport.Report.of(context);
        Optional<String> baselineRun = baselineRun(experiment, report);
        return Stream.concat(report.benchmarking().stream(), report.keptRuns().stream())
                .map(name -> VariantObjects.variant(experiment, name).orElseThrow())
                .map(variant -> VariantObjects.run(
                        experiment,
                        variant,
                        variant.name.equals(VariantObjects.baseline(experiment)) ? Optional.empty() : baselineRun))
                .collect(Collectors.toMap(ResourceID::fromResource, Function.identity()));
    }

    /** The baseline's run to pair with, unless the baseline failed or was skipped and so has nothing to pair. */
    private static Optional<String> baselineRun(ServingExperiment experiment, ExperimentStatusReport.Report report) {
        String baseline = VariantObjects.baseline(experiment);
        return report.status().variants.stream()
                .filter(v -> v.name.equals(baseline))
                .filter(v -> v.phase != VariantPhase.Failed && v.phase != VariantPhase.Skipped)
                .findFirst()
                .map(v -> VariantObjects.childName(experiment, baseline));
    }

    /** What exists is what was desired: a variant's BenchmarkRun is created once and never changed. */
    @Override
    public Matcher.Result<BenchmarkRun> match(
            BenchmarkRun actual,
            BenchmarkRun desired,
            ServingExperiment experiment,
            Context<ServingExperiment> context) {
        return Matcher.Result.nonComputed(true);
    }
}
