package dev.llmops.serving.api.v1alpha1.benchmarkrun.spec;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lombok.EqualsAndHashCode;

/** The benchmark Job's pods: CPU-only clients, kept off GPU nodes unless told otherwise. */
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

    @Default("1")
    @Min(1)
    @Max(64)
    @JsonPropertyDescription("Runner pods that send the load together, for more streams or requests per second than"
            + " one pod can send and time: one Indexed Job, its pods spread over nodes, each sending its exact part"
            + " of the one seeded workload (its share of each level's streams, every N-th arrival of each rate or"
            + " trace), all starting each stage together (a capacity search's probes too, each decided on all pods'"
            + " figures); their results are merged into one status. Each pod gets spec.runner.resources.")
    public Integer shards = 1;

    /** {@link #shards}, 1 when unset. */
    @JsonIgnore
    public int shardCount() {
        return shards == null ? 1 : shards;
    }
}
