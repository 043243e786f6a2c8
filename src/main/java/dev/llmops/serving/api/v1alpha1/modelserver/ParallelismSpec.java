package dev.llmops.serving.api.v1alpha1.modelserver;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.EqualsAndHashCode;

/** How SGLang splits the model across GPUs and nodes. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value = "self.tp % self.ep == 0",
        message = "spec.parallelism.ep must divide spec.parallelism.tp",
        reason = "FieldValueInvalid",
        fieldPath = ".ep")
@ValidationRule(
        value = "!self.enableDpAttention || self.tp % self.dp == 0",
        message = "spec.parallelism.dp must divide spec.parallelism.tp when enableDpAttention is true",
        reason = "FieldValueInvalid",
        fieldPath = ".dp")
@ValidationRule(
        value = "self.tp % self.nodes == 0",
        message = "spec.parallelism.tp must be a multiple of spec.parallelism.nodes",
        reason = "FieldValueInvalid",
        fieldPath = ".nodes")
@EqualsAndHashCode
public class ParallelismSpec {

    @Default("1")
    @Min(1)
    @Max(64)
    @JsonPropertyDescription("Tensor parallel size (--tp-size).")
    public Integer tp = 1;

    @Default("1")
    @Min(1)
    @Max(64)
    @JsonPropertyDescription("Data parallel size (--dp-size).")
    public Integer dp = 1;

    @Default("1")
    @Min(1)
    @Max(64)
    @JsonPropertyDescription("Expert parallel size for MoE models (--ep-size).")
    public Integer ep = 1;

    @Default("false")
    @JsonPropertyDescription("Data-parallel attention (--enable-dp-attention): dp attention groups inside the tp GPUs.")
    public Boolean enableDpAttention = false;

    @Default("1")
    @Min(1)
    @Max(32)
    @JsonPropertyDescription("Nodes per replica. More than one deploys a LeaderWorkerSet (its CRD must be installed).")
    public Integer nodes = 1;
}
