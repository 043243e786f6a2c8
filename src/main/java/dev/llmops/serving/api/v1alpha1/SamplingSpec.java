package dev.llmops.serving.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import java.util.Objects;

/** Sampling parameters sent with every measured request. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SamplingSpec {

    @Default("0.6")
    @Min(0)
    @Max(2)
    @JsonPropertyDescription("temperature.")
    public Double temperature = 0.6;

    @Default("0.95")
    @Min(value = 0, inclusive = false)
    @Max(1)
    @JsonPropertyDescription("top_p.")
    public Double topP = 0.95;

    @Default("4096")
    @Min(1)
    @Max(1048576)
    @JsonPropertyDescription("max_tokens.")
    public Integer maxTokens = 4096;

    @Override
    public boolean equals(Object other) {
        return other instanceof SamplingSpec that && Objects.equals(temperature, that.temperature) && Objects.equals(topP, that.topP) && Objects.equals(maxTokens, that.maxTokens);
    }

    @Override
    public int hashCode() {
        return Objects.hash(temperature, topP, maxTokens);
    }
}
