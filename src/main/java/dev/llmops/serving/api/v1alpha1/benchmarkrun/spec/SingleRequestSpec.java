package dev.llmops.serving.api.v1alpha1.benchmarkrun.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.llmops.serving.api.contract.BenchmarkDefaults;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Size;
import java.util.ArrayList;
import java.util.List;
import lombok.EqualsAndHashCode;

/** The single-request phase: each prompt alone, the single-stream tokens/s a user feels. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class SingleRequestSpec {

    @Default(BenchmarkDefaults.PROMPTS_JSON)
    @Size(max = 32)
    @JsonPropertyDescription(
            "Prompts sent one at a time. Empty skips the phase. Defaults to a code, a science and a long-form prompt.")
    public List<String> prompts = new ArrayList<>(BenchmarkDefaults.PROMPTS);
}
