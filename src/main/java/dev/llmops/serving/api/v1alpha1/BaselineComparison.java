package dev.llmops.serving.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;

/** How this run compares with its baseline run: above 1 means faster. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BaselineComparison {

    @JsonPropertyDescription("The baseline BenchmarkRun.")
    public String baseline;

    @JsonPropertyDescription("Single-stream tokens/s of this run divided by the baseline's.")
    public Double singleStreamSpeedup;

    @JsonPropertyDescription("Peak tokens/s of this run divided by the baseline's.")
    public Double peakThroughputSpeedup;

    @JsonPropertyDescription("Speedup of each stage both runs measured.")
    public List<StageSpeedup> stages = new ArrayList<>();
}
