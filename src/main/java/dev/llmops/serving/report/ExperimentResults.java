package dev.llmops.serving.report;

import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BaselineComparison;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageSpeedup;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ObjectiveType;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperimentSpec;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantPhase;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantResult;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantSpec;
import dev.llmops.serving.llmd.LlmdReport;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A saved ServingExperiment with the saved BenchmarkRuns of its variants, matched by the labels the operator puts on
 * them: what every experiment report renders from. A run of another experiment or namespace is refused, so a report
 * never shows one experiment's figures under another's name.
 *
 * @param runs each variant's run, by variant name
 * @param runsGiven whether runs were given at all; without them only the experiment's status is shown
 */
public record ExperimentResults(ServingExperiment experiment, Map<String, BenchmarkRun> runs, boolean runsGiven) {

    private static final Pattern CONCURRENCY_STAGE = Pattern.compile("c([0-9]{1,9})");
    private static final Pattern RATE_STAGE = Pattern.compile("r([0-9]{1,9}(\\.[0-9]{1,9})?)");

    /**
     * @param runs the runs saved with the experiment, if any
     * @throws IllegalArgumentException when a run is not labelled for one of this experiment's variants, is of
     *     another namespace, or is the second run of a variant
     */
    public static ExperimentResults of(ServingExperiment experiment, Optional<List<BenchmarkRun>> runs) {
        String name = experiment.getMetadata().getName();
        List<String> variants = variantNames(experiment);
        Map<String, BenchmarkRun> byVariant = new LinkedHashMap<>();
        String selector = "kubectl get benchmarkruns -l " + Labels.EXPERIMENT + "=" + name + " -o yaml";
        for (BenchmarkRun run : runs.orElse(List.of())) {
            String runName = HtmlReport.name(run);
            Map<String, String> labels =
                    Optional.ofNullable(run.getMetadata().getLabels()).orElse(Map.of());
            if (!name.equals(labels.get(Labels.EXPERIMENT))) {
                throw new IllegalArgumentException("BenchmarkRun " + runName + " is not a run of ServingExperiment "
                        + name + " (its label " + Labels.EXPERIMENT + " is "
                        + Optional.ofNullable(labels.get(Labels.EXPERIMENT)).orElse("absent")
                        + "): pass only this experiment's runs, e.g. " + selector);
            }
            String namespace = experiment.getMetadata().getNamespace();
            String runNamespace = run.getMetadata().getNamespace();
            if (namespace != null && runNamespace != null && !namespace.equals(runNamespace)) {
                throw new IllegalArgumentException("BenchmarkRun " + runName + " is in namespace " + runNamespace
                        + ", ServingExperiment " + name + " in " + namespace + ": pass the runs of its namespace, "
                        + "e.g. " + selector + " -n " + namespace);
            }
            String variant = labels.get(Labels.VARIANT);
            if (variant == null || !variants.contains(variant)) {
                throw new IllegalArgumentException("BenchmarkRun " + runName + " is labelled for variant "
                        + Optional.ofNullable(variant).orElse("(none)") + ", which ServingExperiment " + name
                        + " does not have (its variants: " + String.join(", ", variants) + ")");
            }
            BenchmarkRun earlier = byVariant.putIfAbsent(variant, run);
            if (earlier != null) {
                throw new IllegalArgumentException("BenchmarkRuns " + HtmlReport.name(earlier) + " and " + runName
                        + " are both labelled for variant " + variant + ": pass one run per variant");
            }
        }
        return new ExperimentResults(experiment, Map.copyOf(byVariant), runs.isPresent());
    }

    String name() {
        return experiment.getMetadata().getName();
    }

    /** The variants' results in the order they were tried; before the operator wrote any, each variant pending. */
    List<VariantResult> variants() {
        if (!experiment.getStatus().variants.isEmpty()) {
            return experiment.getStatus().variants;
        }
        return spec().variants.stream()
                .filter(Objects::nonNull)
                .map(v -> {
                    VariantResult pending = new VariantResult();
                    pending.name = v.name;
                    pending.phase = VariantPhase.Pending;
                    return pending;
                })
                .toList();
    }

    Optional<BenchmarkRun> run(String variant) {
        return Optional.ofNullable(variant == null ? null : runs.get(variant));
    }

    /** The variant the others were compared with: spec.baseline, else the first variant. */
    Optional<String> baseline() {
        if (spec().baseline != null) {
            return Optional.of(spec().baseline);
        }
        return variantNames(experiment).stream().findFirst();
    }

    ObjectiveType objective() {
        ObjectiveType type = spec().objective == null ? null : spec().objective.type;
        return type == null ? ObjectiveType.Throughput : type;
    }

    /**
     * The stage the variants are judged at: the winner's, else spec.objective.stage, else the highest concurrency
     * level (or rate, for a rate sweep) any comparison holds; empty for Capacity, which is no stage's figure.
     */
    Optional<String> judgedStage() {
        if (objective() == ObjectiveType.Capacity) {
            return Optional.empty();
        }
        if (experiment.getStatus().winner != null && experiment.getStatus().winner.stage != null) {
            return Optional.of(experiment.getStatus().winner.stage);
        }
        if (spec().objective != null && spec().objective.stage != null) {
            return Optional.of(spec().objective.stage);
        }
        List<String> stages = variants().stream()
                .map(v -> v.comparison)
                .filter(Objects::nonNull)
                .flatMap(c -> c.stages.stream())
                .map(s -> s.name)
                .filter(Objects::nonNull)
                .toList();
        return highest(stages, CONCURRENCY_STAGE).or(() -> highest(stages, RATE_STAGE));
    }

    /** The variant's comparison with the baseline: the experiment's copy, else the one its run's status holds. */
    Optional<BaselineComparison> comparison(VariantResult variant) {
        if (variant.comparison != null) {
            return Optional.of(variant.comparison);
        }
        return run(variant.name).map(r -> r.getStatus().comparison);
    }

    Optional<StageSpeedup> speedupAt(VariantResult variant, Optional<String> stage) {
        return comparison(variant)
                .flatMap(c -> c.stages.stream()
                        .filter(s -> s.name != null && stage.isPresent() && s.name.equals(stage.get()))
                        .findFirst());
    }

    private ServingExperimentSpec spec() {
        return experiment.getSpec() == null ? new ServingExperimentSpec() : experiment.getSpec();
    }

    private static List<String> variantNames(ServingExperiment experiment) {
        List<String> names = experiment.getStatus().variants.stream()
                .map(v -> v.name)
                .filter(Objects::nonNull)
                .toList();
        if (!names.isEmpty() || experiment.getSpec() == null) {
            return names;
        }
        return experiment.getSpec().variants.stream()
                .filter(Objects::nonNull)
                .map((VariantSpec v) -> v.name)
                .filter(Objects::nonNull)
                .toList();
    }

    private static Optional<String> highest(List<String> stages, Pattern pattern) {
        return stages.stream().filter(s -> pattern.matcher(s).matches()).max(Comparator.comparingDouble(s -> {
            Matcher m = pattern.matcher(s);
            return m.matches() ? Double.parseDouble(m.group(1)) : 0;
        }));
    }

    /** A variant of the experiment with one llm-d report per stage its run finished. */
    public record VariantStages(String variant, List<LlmdReport.Stage> stages) {}

    /**
     * One entry per variant whose run finished a stage, in the order the variants were tried; each report is the
     * variant's run's, so it names the run (the experiment and the variant) in its description.
     */
    public List<VariantStages> llmdReports() {
        List<VariantStages> reports = new ArrayList<>();
        for (var variant : variants()) {
            run(variant.name)
                    .map(LlmdReport::render)
                    .filter(stages -> !stages.isEmpty())
                    .ifPresent(stages -> reports.add(new VariantStages(variant.name, stages)));
        }
        return reports;
    }
}
