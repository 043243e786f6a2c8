package dev.llmops.serving.api.v1alpha1.benchmarkrun.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import lombok.EqualsAndHashCode;

/** Synthetic prompts in groups sharing a system prompt, each with a unique question: where prefix caching pays. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class SharedPrefixSpec {

    @Required
    @Min(1)
    @Max(4096)
    @JsonPropertyDescription("Number of groups, each with its own shared prefix.")
    public Integer groups;

    @Required
    @Min(1)
    @Max(1048576)
    @JsonPropertyDescription("Tokens of each group's shared prefix.")
    public Integer prefixTokens;

    @Required
    @Min(1)
    @Max(1048576)
    @JsonPropertyDescription("Tokens of the unique question after the prefix.")
    public Integer questionTokens;

    @Min(1)
    @Max(1048576)
    @JsonPropertyDescription("Output tokens per request; replaces spec.sampling.maxTokens.")
    public Integer outputLength;
}
