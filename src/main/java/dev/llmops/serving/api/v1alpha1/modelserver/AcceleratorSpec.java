package dev.llmops.serving.api.v1alpha1.modelserver;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.EqualsAndHashCode;

/** The GPUs a replica needs, matched against NVIDIA GPU Feature Discovery node labels. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class AcceleratorSpec {

    @Default("blackwell")
    @Pattern("^[a-z0-9-]+$")
    @Size(max = 63)
    @JsonPropertyDescription("GPU family (label nvidia.com/gpu.family), e.g. blackwell or hopper.")
    public String family = "blackwell";

    @ValidationRule(
            value = "self == 10 || self == 12",
            message = "spec.accelerator.computeMajor must be 10 (B200, B300, GB200: SM100/SM103) or 12 (RTX PRO 6000, "
                    + "RTX 50xx: SM120)")
    @JsonPropertyDescription(
            "CUDA compute capability major (label nvidia.com/gpu.compute.major): 10 for SM100/SM103, 12 for SM120.")
    public Integer computeMajor;

    @Size(max = 128)
    @Pattern("^[A-Za-z0-9._-]+$")
    @JsonPropertyDescription("GPU product (label nvidia.com/gpu.product), e.g. NVIDIA-B200 or "
            + "NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition.")
    public String product;

    @Default("1")
    @Min(1)
    @Max(512)
    @JsonPropertyDescription("GPUs per replica, across all of its nodes (nvidia.com/gpu per pod = gpusPerReplica / "
            + "spec.parallelism.nodes).")
    public Integer gpusPerReplica = 1;

    @Default("580")
    @Min(400)
    @Max(9999)
    @JsonPropertyDescription("Lowest NVIDIA driver major version a node must run (CUDA 13 images need 580).")
    public Integer minDriverMajor = 580;
}
