package dev.llmops.serving.api.v1alpha1.benchmarkrun.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import lombok.EqualsAndHashCode;

/** A search for the highest load at which spec.slo still holds, run after the fixed sweep. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class CapacitySpec {

    private static final int MAX_PROBES = 12;
    private static final int MAX_SEARCH_SECONDS = 1800;

    @Required
    @JsonPropertyDescription("Concurrency: the most concurrent streams. Rate: the highest request rate (open loop, "
            + "with spec.sweep.arrival and maxConcurrency).")
    public CapacityMode mode;

    @Default("" + MAX_PROBES)
    @Min(1)
    @Max(64)
    @JsonPropertyDescription("Most probe stages the search may run.")
    public Integer maxProbes = MAX_PROBES;

    @Default("" + MAX_SEARCH_SECONDS)
    @Min(60)
    @Max(86400)
    @JsonPropertyDescription("Most seconds the search may take; it reports the best load so far when they run out.")
    public Integer maxSearchSeconds = MAX_SEARCH_SECONDS;
}
