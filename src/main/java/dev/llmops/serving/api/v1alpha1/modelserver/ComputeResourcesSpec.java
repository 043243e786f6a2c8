package dev.llmops.serving.api.v1alpha1.modelserver;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.llmops.serving.api.v1alpha1.QuantityPattern;
import io.fabric8.generator.annotation.Pattern;
import lombok.EqualsAndHashCode;

/** CPU and memory of a pod, requested and limited alike so a loading model is never evicted for memory. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class ComputeResourcesSpec {

    @Pattern(QuantityPattern.VALUE)
    @JsonPropertyDescription("CPU request, e.g. 16. Unset leaves it to the namespace defaults.")
    public String cpu;

    @Pattern(QuantityPattern.VALUE)
    @JsonPropertyDescription(
            "Memory request and limit, e.g. 256Gi. Loading a large model needs host memory well above its shard size.")
    public String memory;
}
