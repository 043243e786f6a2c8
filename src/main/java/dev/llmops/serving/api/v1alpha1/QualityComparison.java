package dev.llmops.serving.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** How far two servers' greedy outputs agree: a speedup that changes what the model says is no speedup. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class QualityComparison {

    @JsonPropertyDescription("Single-request prompts both runs answered greedily.")
    public Integer prompts;

    @JsonPropertyDescription("Share of those prompts whose outputs are identical token by token.")
    public Double exactMatchShare;

    @JsonPropertyDescription("Mean length of the outputs' common prefix, in tokens.")
    public Double meanSharedPrefixTokens;

    @JsonPropertyDescription("Mean over prompts of the common prefix divided by the longer output (1 = identical).")
    public Double prefixAgreement;

    @Override
    public boolean equals(Object other) {
        return other instanceof QualityComparison that
                && Objects.equals(prompts, that.prompts)
                && Objects.equals(exactMatchShare, that.exactMatchShare)
                && Objects.equals(meanSharedPrefixTokens, that.meanSharedPrefixTokens)
                && Objects.equals(prefixAgreement, that.prefixAgreement);
    }

    @Override
    public int hashCode() {
        return Objects.hash(prompts, exactMatchShare, meanSharedPrefixTokens, prefixAgreement);
    }
}
