package dev.llmops.serving.api.v1alpha1.benchmarkrun;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;

/** How far the greedy outputs of the two runs' quality stages agree, over the prompts both answered. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class QualityComparison {

    @JsonPropertyDescription("Prompts both runs answered.")
    public Integer prompts;

    @JsonPropertyDescription("Share of prompts whose outputs are equal token for token.")
    public Double exactMatchShare;

    @JsonPropertyDescription("Mean length, in tokens, of the outputs' common prefix.")
    public Double meanSharedPrefixTokens;

    @JsonPropertyDescription("Mean over prompts of the common prefix divided by the longer output (1 = identical); "
            + "compared with spec.quality.minAgreement.")
    public Double prefixAgreement;
}
