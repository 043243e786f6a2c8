package dev.llmops.serving.api.v1alpha1.benchmarkrun.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lombok.EqualsAndHashCode;

/** The benchmark Job's pod: a CPU-only client, kept off GPU nodes unless told otherwise. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class RunnerPodSpec {

    @Size(max = 512)
    @JsonPropertyDescription("Runner image. Defaults to the operator's own image.")
    public String image;

    @JsonPropertyDescription("CPU and memory of the runner. Defaults to 2 CPUs and 1Gi.")
    public ResourceRequirements resources;

    @JsonPropertyDescription("Node labels the runner pod requires.")
    public Map<String, String> nodeSelector = new LinkedHashMap<>();

    @Size(max = 64)
    @JsonPropertyDescription("Tolerations of the runner pod.")
    public List<Toleration> tolerations = new ArrayList<>();
}
