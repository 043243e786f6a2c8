package dev.llmops.serving.api.v1alpha1.benchmarkrun.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.llmops.serving.api.contract.BenchmarkDefaults;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import lombok.EqualsAndHashCode;

/** Requests that warm the server up and are not measured. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class WarmupSpec {

    @Default(BenchmarkDefaults.WARMUP_REQUESTS_TEXT)
    @Min(0)
    @Max(1000)
    @JsonPropertyDescription("Number of warm-up requests (0 skips warm-up).")
    public Integer requests = BenchmarkDefaults.WARMUP_REQUESTS;

    @Default(BenchmarkDefaults.WARMUP_MAX_TOKENS_TEXT)
    @Min(1)
    @Max(1048576)
    @JsonPropertyDescription("max_tokens of each warm-up request.")
    public Integer maxTokens = BenchmarkDefaults.WARMUP_MAX_TOKENS;
}
