package dev.llmops.serving.operator.modelserver;

import dev.llmops.serving.api.v1alpha1.modelserver.AcceleratorSpec;
import dev.llmops.serving.api.v1alpha1.modelserver.SchedulingSpec;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.NodeAffinity;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.NodeSelectorTermBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Keeps SGLang pods on the GPU nodes the spec asks for, using NVIDIA GPU Feature Discovery labels, and merges the
 * user's own scheduling settings into that placement instead of letting them replace it.
 */
public final class GpuPlacement {

    public static final String GPU_RESOURCE = "nvidia.com/gpu";
    public static final String FAMILY_LABEL = "nvidia.com/gpu.family";
    public static final String COMPUTE_MAJOR_LABEL = "nvidia.com/gpu.compute.major";
    public static final String PRODUCT_LABEL = "nvidia.com/gpu.product";
    public static final String DRIVER_MAJOR_LABEL = "nvidia.com/cuda.driver-version.major";

    /** A node label the accelerator spec pins to one value, with the field that pins it. */
    public record PinnedLabel(String key, String value, String field) {}

    private GpuPlacement() {}

    /** The GPU labels the accelerator spec pins: family always, compute major and product when given. */
    public static List<PinnedLabel> pinnedLabels(AcceleratorSpec accelerator) {
        List<PinnedLabel> pinned = new ArrayList<>();
        pinned.add(new PinnedLabel(FAMILY_LABEL, accelerator.family, "spec.accelerator.family"));
        if (accelerator.computeMajor != null) {
            pinned.add(new PinnedLabel(
                    COMPUTE_MAJOR_LABEL, String.valueOf(accelerator.computeMajor), "spec.accelerator.computeMajor"));
        }
        if (accelerator.product != null) {
            pinned.add(new PinnedLabel(PRODUCT_LABEL, accelerator.product, "spec.accelerator.product"));
        }
        return pinned;
    }

    /** Node requirements every placement term carries; CUDA 13 images also need a driver of minDriverMajor or newer. */
    static List<NodeSelectorRequirement> gpuRequirements(AcceleratorSpec accelerator, boolean cuda13Image) {
        List<NodeSelectorRequirement> requirements = new ArrayList<>();
        for (PinnedLabel label : pinnedLabels(accelerator)) {
            requirements.add(new NodeSelectorRequirement(label.key(), "In", List.of(label.value())));
        }
        if (cuda13Image) {
            requirements.add(new NodeSelectorRequirement(
                    DRIVER_MAJOR_LABEL, "Gt", List.of(String.valueOf(accelerator.minDriverMajor - 1))));
        }
        return requirements;
    }

    /**
     * Applies node affinity, tolerations, node selector, priority and runtime class to a pod spec under construction.
     */
    public static void apply(
            PodSpecBuilder pod,
            AcceleratorSpec accelerator,
            boolean cuda13Image,
            SchedulingSpec user,
            Optional<String> defaultRuntimeClass) {
        pod.withAffinity(affinity(gpuRequirements(accelerator, cuda13Image), user.affinity));
        pod.withTolerations(tolerations(user.tolerations));
        if (!user.nodeSelector.isEmpty()) {
            pod.withNodeSelector(new LinkedHashMap<>(user.nodeSelector));
        }
        pod.withPriorityClassName(user.priorityClassName);
        pod.withRuntimeClassName(Optional.ofNullable(user.runtimeClassName)
                .or(() -> defaultRuntimeClass)
                .orElse(null));
    }

    /**
     * Our requirements are ANDed into each of the user's required node terms; everything else of the user's is kept.
     */
    static Affinity affinity(List<NodeSelectorRequirement> gpuRequirements, Affinity user) {
        NodeAffinity userNodeAffinity = user == null ? null : user.getNodeAffinity();
        List<NodeSelectorTerm> userTerms =
                userNodeAffinity == null || userNodeAffinity.getRequiredDuringSchedulingIgnoredDuringExecution() == null
                        ? List.of()
                        : userNodeAffinity
                                .getRequiredDuringSchedulingIgnoredDuringExecution()
                                .getNodeSelectorTerms();
        List<NodeSelectorTerm> terms = userTerms.isEmpty()
                ? List.of(new NodeSelectorTermBuilder()
                        .withMatchExpressions(gpuRequirements)
                        .build())
                : userTerms.stream()
                        .map(term -> new NodeSelectorTermBuilder()
                                .withMatchExpressions(
                                        Stream.concat(gpuRequirements.stream(), term.getMatchExpressions().stream())
                                                .toList())
                                .withMatchFields(term.getMatchFields())
                                .build())
                        .toList();
        return new AffinityBuilder()
                .withNewNodeAffinity()
                .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                .withNodeSelectorTerms(terms)
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .withPreferredDuringSchedulingIgnoredDuringExecution(
                        userNodeAffinity == null
                                ? List.of()
                                : userNodeAffinity.getPreferredDuringSchedulingIgnoredDuringExecution())
                .endNodeAffinity()
                .withPodAffinity(user == null ? null : user.getPodAffinity())
                .withPodAntiAffinity(user == null ? null : user.getPodAntiAffinity())
                .build();
    }

    /** The usual GPU node taint is tolerated; the user's tolerations are added once each. */
    static List<Toleration> tolerations(List<Toleration> user) {
        Toleration gpuTaint = new TolerationBuilder()
                .withKey(GPU_RESOURCE)
                .withOperator("Exists")
                .withEffect("NoSchedule")
                .build();
        return Stream.concat(Stream.of(gpuTaint), user.stream()).distinct().toList();
    }
}
