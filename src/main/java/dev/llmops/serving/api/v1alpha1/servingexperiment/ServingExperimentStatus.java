package dev.llmops.serving.api.v1alpha1.servingexperiment;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import lombok.EqualsAndHashCode;

/** Observed state of a ServingExperiment: where it is, each variant's results, and the winner. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class ServingExperimentStatus {

    @JsonPropertyDescription("metadata.generation this status describes.")
    public Long observedGeneration;

    @JsonPropertyDescription("Pending, Running, Succeeded, Incomplete (spec.maxDurationMinutes ran out) or Failed.")
    public ServingExperimentPhase phase;

    @Size(max = 16)
    @JsonPropertyDescription("Ready, Reconciling and Stalled, in the Kubernetes condition shape.")
    public List<Condition> conditions = new ArrayList<>();

    @Size(max = 96)
    @JsonPropertyDescription("Variants done out of all, then the variant in progress: 2/4 dflash-b8 while dflash-b8 "
            + "runs, 4/4 at the end.")
    public String progress;

    @Size(max = 64)
    @JsonPropertyDescription("The winner against the baseline, with the 95 % confidence interval, for kubectl get: "
            + "1.9x [1.8, 2.0].")
    public String speedup;

    @Size(max = 64)
    @JsonPropertyDescription("When the first variant's ModelServer was created (RFC 3339).")
    public String startTime;

    @Size(max = 64)
    @JsonPropertyDescription("When the experiment ended (RFC 3339).")
    public String completionTime;

    @Size(max = ServingExperimentSpec.MAX_VARIANTS)
    @JsonPropertyDescription("Each variant of spec.variants, in the same order.")
    public List<VariantResult> variants = new ArrayList<>();

    @JsonPropertyDescription("The best variant by spec.objective; absent until one succeeded.")
    public Winner winner;
}
