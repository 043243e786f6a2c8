package dev.llmops.serving.operator.experiment;

import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperimentPhase;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperimentStatus;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantPhase;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantResult;
import dev.llmops.serving.operator.toolkit.Conditions;
import dev.llmops.serving.operator.toolkit.EventRecorder;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** The Kubernetes Events an experiment's change of status deserves, recorded once its status is written. */
final class ExperimentTransitionEvents {

    private static final Set<VariantPhase> WARNINGS = EnumSet.of(VariantPhase.Failed, VariantPhase.Skipped);
    private static final Set<ServingExperimentPhase> ENDS = EnumSet.of(
            ServingExperimentPhase.Succeeded, ServingExperimentPhase.Incomplete, ServingExperimentPhase.Failed);

    private final EventRecorder events;

    ExperimentTransitionEvents(EventRecorder events) {
        this.events = events;
    }

    /**
     * One event per variant that changed phase (Variant + its new phase: VariantDeploying, VariantBenchmarking,
     * VariantSucceeded, and warnings VariantFailed and VariantSkipped), and one when the experiment ends, with the
     * winner or what stopped it.
     */
    void record(ServingExperiment experiment, ServingExperimentStatus before, ServingExperimentStatus after) {
        Map<String, VariantPhase> phasesBefore = before == null
                ? Map.of()
                : before.variants.stream().collect(Collectors.toMap(v -> v.name, v -> v.phase, (a, b) -> a));
        for (VariantResult variant : after.variants) {
            if (variant.phase != VariantPhase.Pending && variant.phase != phasesBefore.get(variant.name)) {
                events.record(
                        experiment,
                        WARNINGS.contains(variant.phase) ? EventRecorder.WARNING : EventRecorder.NORMAL,
                        "Variant" + variant.phase.name(),
                        variant.name + ": " + variant.message);
            }
        }
        boolean ended = ENDS.contains(after.phase) && (before == null || before.phase != after.phase);
        if (ended) {
            String type =
                    after.phase == ServingExperimentPhase.Succeeded ? ConditionTypes.READY : ConditionTypes.STALLED;
            Conditions.find(after.conditions, type)
                    .ifPresent(c -> events.record(
                            experiment,
                            after.phase == ServingExperimentPhase.Succeeded
                                    ? EventRecorder.NORMAL
                                    : EventRecorder.WARNING,
                            "Experiment" + after.phase.name(),
                            c.getMessage()));
        }
    }
}
