package dev.llmops.serving.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** One stage of this run against the same stage of the baseline. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class StageSpeedup {

    @JsonPropertyDescription("Stage name (single, c8, c16, ...).")
    public String name;

    @JsonPropertyDescription("Output tokens/s of this run divided by the baseline's.")
    public Double throughputSpeedup;

    @JsonPropertyDescription("Baseline p50 TTFT divided by this run's: above 1 means the first token came sooner.")
    public Double ttftP50Speedup;

    @Override
    public boolean equals(Object other) {
        return other instanceof StageSpeedup that
                && Objects.equals(name, that.name)
                && Objects.equals(throughputSpeedup, that.throughputSpeedup)
                && Objects.equals(ttftP50Speedup, that.ttftP50Speedup);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, throughputSpeedup, ttftP50Speedup);
    }
}
