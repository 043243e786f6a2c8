package dev.llmops.serving.api.v1alpha1.benchmarkrun;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;

/** A 95 % paired bootstrap confidence interval of a ratio. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class ConfidenceInterval {

    @JsonPropertyDescription("Lower bound (2.5th percentile of the resampled ratio).")
    public Double low;

    @JsonPropertyDescription("Upper bound (97.5th percentile of the resampled ratio).")
    public Double high;
}
