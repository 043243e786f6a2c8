package dev.llmops.serving.operator.modelserver;

import dev.llmops.serving.api.v1alpha1.ConditionReasons;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerSpec;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelSpec;
import dev.llmops.serving.api.v1alpha1.modelserver.ParallelismSpec;
import dev.llmops.serving.operator.compatibility.CompatibilityCheck;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds spec mistakes the CRD schema cannot catch (or that slipped past an older CRD) before anything is deployed,
 * so they end as a Stalled condition naming the field instead of a pod that crash-loops or never schedules.
 */
public final class SpecValidator {

    private static final String NODE_SELECTOR_TERMS =
            "spec.scheduling.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";

    /** One mistake: a CamelCase reason, the field at fault, and what to change. */
    public record Problem(String reason, String field, String message) {}

    private SpecValidator() {}

    public static List<Problem> validate(ModelServerSpec spec) {
        List<Problem> problems = new ArrayList<>();
        checkRemoteCodeRevision(spec, problems);
        checkGpuCounts(spec, problems);
        checkExtraArgs(spec, problems);
        checkNodeSelector(spec, problems);
        checkAffinity(spec, problems);
        return problems;
    }

    /** One problem per compatibility rule the server breaks on its GPUs, at the field that carries the match. */
    public static List<Problem> incompatibilities(List<CompatibilityCheck.Breach> breaches) {
        return breaches.stream()
                .map(breach -> new Problem(
                        ConditionReasons.INCOMPATIBLE_WITH_ACCELERATOR,
                        breach.rule().flags().isEmpty() ? "spec.speculativeDecoding.algorithm" : "spec.extraArgs",
                        breach.describe()))
                .toList();
    }

    private static void checkRemoteCodeRevision(ModelServerSpec spec, List<Problem> problems) {
        if (Boolean.TRUE.equals(spec.model.trustRemoteCode) && spec.model.revision == null) {
            problems.add(new Problem("RemoteCodeRevisionMissing", "spec.model.revision", ModelSpec.REVISION_REQUIRED));
        }
    }

    private static void checkGpuCounts(ModelServerSpec spec, List<Problem> problems) {
        ParallelismSpec parallelism = spec.parallelism;
        int gpus = spec.accelerator.gpusPerReplica;
        int needed = parallelism.tp * (Boolean.TRUE.equals(parallelism.enableDpAttention) ? 1 : parallelism.dp);
        if (needed > gpus) {
            problems.add(new Problem(
                    "TensorParallelExceedsGpus",
                    "spec.parallelism.tp",
                    ("spec.parallelism.tp=%d%s needs %d GPUs but spec.accelerator.gpusPerReplica is %d: raise "
                                    + "gpusPerReplica or lower tp")
                            .formatted(
                                    parallelism.tp,
                                    needed == parallelism.tp ? "" : " × dp=" + parallelism.dp,
                                    needed,
                                    gpus)));
        }
        if (gpus % parallelism.nodes != 0) {
            problems.add(new Problem(
                    "GpusPerReplicaNotDivisibleByNodes",
                    "spec.accelerator.gpusPerReplica",
                    "spec.accelerator.gpusPerReplica=%d cannot be split evenly over spec.parallelism.nodes=%d"
                            .formatted(gpus, parallelism.nodes)));
        }
        if (parallelism.nodes > 1 && spec.port == SglangCommand.DIST_INIT_PORT) {
            problems.add(new Problem(
                    "PortCollidesWithDistInitPort",
                    "spec.port",
                    "spec.port=%d is the port multi-node replicas use for their process-group rendezvous: choose "
                            + "another port".formatted(spec.port)));
        }
    }

    private static void checkExtraArgs(ModelServerSpec spec, List<Problem> problems) {
        for (int i = 0; i < spec.extraArgs.size(); i++) {
            String arg = spec.extraArgs.get(i);
            int index = i;
            SglangCommand.derivedFlagOf(arg)
                    .ifPresent(flag -> problems.add(new Problem(
                            "ExtraArgsRepeatDerivedFlag",
                            "spec.extraArgs[%d]".formatted(index),
                            ("spec.extraArgs[%d] repeats %s, which the operator derives from %s: remove it from "
                                            + "extraArgs and set that field instead")
                                    .formatted(index, arg.split("=", 2)[0], flag.field()))));
        }
    }

    private static void checkNodeSelector(ModelServerSpec spec, List<Problem> problems) {
        for (GpuPlacement.PinnedLabel pinned : GpuPlacement.pinnedLabels(spec.accelerator)) {
            String requested = spec.scheduling.nodeSelector.get(pinned.key());
            if (requested != null && !requested.equals(pinned.value())) {
                problems.add(new Problem(
                        "NodeSelectorConflictsWithAccelerator",
                        "spec.scheduling.nodeSelector",
                        ("spec.scheduling.nodeSelector asks for %s=%s but %s asks for %s: no node can have both; "
                                        + "remove the selector entry")
                                .formatted(pinned.key(), requested, pinned.field(), pinned.value())));
            }
        }
    }

    private static void checkAffinity(ModelServerSpec spec, List<Problem> problems) {
        var affinity = spec.scheduling.affinity;
        if (affinity == null
                || affinity.getNodeAffinity() == null
                || affinity.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() == null) {
            return;
        }
        List<NodeSelectorTerm> terms = affinity.getNodeAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution()
                .getNodeSelectorTerms();
        for (GpuPlacement.PinnedLabel pinned : GpuPlacement.pinnedLabels(spec.accelerator)) {
            for (int t = 0; t < terms.size(); t++) {
                for (NodeSelectorRequirement requirement : terms.get(t).getMatchExpressions()) {
                    if (pinned.key().equals(requirement.getKey()) && excludes(requirement, pinned.value())) {
                        problems.add(new Problem(
                                "AffinityConflictsWithAccelerator",
                                NODE_SELECTOR_TERMS + "[" + t + "]",
                                "spec.scheduling.affinity node term %d requires %s %s %s, which excludes %s=%s from %s"
                                        .formatted(
                                                t,
                                                requirement.getKey(),
                                                requirement.getOperator(),
                                                requirement.getValues(),
                                                pinned.key(),
                                                pinned.value(),
                                                pinned.field())));
                    }
                }
            }
        }
    }

    private static boolean excludes(NodeSelectorRequirement requirement, String value) {
        return switch (requirement.getOperator()) {
            case "In" -> !requirement.getValues().contains(value);
            case "NotIn" -> requirement.getValues().contains(value);
            case "DoesNotExist" -> true;
            default -> false;
        };
    }
}
