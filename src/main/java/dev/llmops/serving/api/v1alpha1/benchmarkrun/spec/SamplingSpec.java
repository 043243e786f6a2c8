package dev.llmops.serving.api.v1alpha1.benchmarkrun.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.llmops.serving.api.contract.BenchmarkDefaults;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import lombok.EqualsAndHashCode;

/** Sampling parameters sent with every measured request. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class SamplingSpec {

    @Default(BenchmarkDefaults.TEMPERATURE_TEXT)
    @Min(0)
    @Max(2)
    @JsonPropertyDescription("temperature.")
    public Double temperature = BenchmarkDefaults.TEMPERATURE;

    @Default(BenchmarkDefaults.TOP_P_TEXT)
    @Min(value = 0, inclusive = false)
    @Max(1)
    @JsonPropertyDescription("top_p.")
    public Double topP = BenchmarkDefaults.TOP_P;

    @Default(BenchmarkDefaults.MAX_TOKENS_TEXT)
    @Min(1)
    @Max(1048576)
    @JsonPropertyDescription("max_tokens.")
    public Integer maxTokens = BenchmarkDefaults.MAX_TOKENS;
}
