package dev.llmops.serving.api.v1alpha1.servingexperiment;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.ConfidenceInterval;
import io.fabric8.generator.annotation.Size;
import lombok.EqualsAndHashCode;

/** The variant best by the experiment's objective, by how much, and why. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class Winner {

    @Size(max = 63)
    @JsonPropertyDescription("The winning variant.")
    public String name;

    @Size(max = 32)
    @JsonPropertyDescription("The stage the objective was judged at (c32, r7.5, single); absent for Capacity.")
    public String stage;

    @JsonPropertyDescription("The winner's figure for the objective: output tokens/s (Throughput), p50 milliseconds "
            + "per output token (TPOT), or concurrent streams or requests/s (Capacity).")
    public Double value;

    @JsonPropertyDescription("The winner's figure against the baseline's, above 1 meaning better (for TPOT the "
            + "baseline's divided by the winner's); absent when the baseline has no result.")
    public Double speedup;

    @JsonPropertyDescription("95 % paired confidence interval of speedup; absent without both runs' samples or for "
            + "Capacity, which is a search result.")
    public ConfidenceInterval speedupInterval;

    @Size(max = 512)
    @JsonPropertyDescription("Why it won, in one line: dflash-b8: 1.9x [1.8, 2.0] throughput at c32 over "
            + "autoregressive; outputs agree 100 %.")
    public String reason;

    @Size(max = 253)
    @JsonPropertyDescription("The winner's ModelServer, left serving with spec.keepWinner.")
    public String modelServer;
}
