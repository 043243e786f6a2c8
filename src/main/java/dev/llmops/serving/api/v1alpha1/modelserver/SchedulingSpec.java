package dev.llmops.serving.api.v1alpha1.modelserver;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lombok.EqualsAndHashCode;

/** Pod scheduling settings; merged with, never replacing, the GPU placement the operator derives. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class SchedulingSpec {

    @JsonPropertyDescription("Node labels the pod additionally requires.")
    public Map<String, String> nodeSelector = new LinkedHashMap<>();

    @Size(max = 64)
    @JsonPropertyDescription("Tolerations added to the operator's nvidia.com/gpu toleration.")
    public List<Toleration> tolerations = new ArrayList<>();

    @JsonPropertyDescription(
            "Affinity merged with the operator's GPU node affinity (node terms are combined, pod (anti-)affinity is "
                    + "added).")
    public Affinity affinity;

    @Size(max = 253)
    @JsonPropertyDescription("Priority class of the SGLang pods.")
    public String priorityClassName;

    @Size(max = 253)
    @JsonPropertyDescription(
            "Runtime class of the SGLang pods, e.g. nvidia. Defaults to the operator's configured runtime class, if "
                    + "any.")
    public String runtimeClassName;
}
