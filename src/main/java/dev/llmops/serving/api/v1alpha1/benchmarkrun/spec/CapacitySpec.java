package dev.llmops.serving.api.v1alpha1.benchmarkrun.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.llmops.serving.api.contract.BenchmarkDefaults;
import dev.llmops.serving.api.contract.CapacityMode;
import dev.llmops.serving.api.contract.RunnerFlags;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import lombok.EqualsAndHashCode;

/** A search for the highest load at which spec.slo still holds, run after the fixed sweep. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class CapacitySpec {

    @Required
    @JsonPropertyDescription("Concurrency: the most concurrent streams. Rate: the highest request rate (open loop, "
            + "with spec.sweep.arrival and maxConcurrency).")
    public CapacityMode mode;

    @Default(BenchmarkDefaults.MAX_PROBES_TEXT)
    @Min(1)
    @Max(RunnerFlags.MAX_MAX_PROBES)
    @JsonPropertyDescription("Most probe stages the search may run.")
    public Integer maxProbes = BenchmarkDefaults.MAX_PROBES;

    @Default(BenchmarkDefaults.MAX_SEARCH_SECONDS_TEXT)
    @Min(60)
    @Max(RunnerFlags.MAX_MAX_SEARCH_SECONDS)
    @JsonPropertyDescription("Most seconds the search may take; it reports the best load so far when they run out.")
    public Integer maxSearchSeconds = BenchmarkDefaults.MAX_SEARCH_SECONDS;
}
