package dev.llmops.serving.api.v1alpha1.benchmarkrun;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;
import lombok.EqualsAndHashCode;

/** What exactly was measured, so results can be compared and reproduced. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class Provenance {

    @JsonPropertyDescription("Model the server served.")
    public String model;

    @JsonPropertyDescription("Server image.")
    public String image;

    @JsonPropertyDescription("Server command line.")
    public List<String> serverArgs = new ArrayList<>();

    @JsonPropertyDescription("GPU product from the node's nvidia.com/gpu.product label.")
    public String gpuProduct;

    @JsonPropertyDescription("GPUs per replica.")
    public Integer gpuCount;

    @JsonPropertyDescription("NVIDIA driver version from the node's nvidia.com/cuda.driver-version.full label.")
    public String driverVersion;

    @JsonPropertyDescription(
            "Image of the benchmark runner that measured the run; its tag or digest is the runner's version.")
    public String runnerVersion;
}
