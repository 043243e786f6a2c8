package dev.llmops.serving.api.v1alpha1.benchmarkrun;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;
import lombok.EqualsAndHashCode;

/** When a finished run will be deleted under its retention, and which runs keep it past that. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class RetentionStatus {

    @JsonPropertyDescription("When the run is deleted under spec.retention.ttlSecondsAfterFinished.")
    public String expiresAt;

    @JsonPropertyDescription("Runs that name this one as spec.baseline or spec.reference: the run has expired but is "
            + "kept while they exist, so their comparisons keep their samples.")
    public List<String> keptFor = new ArrayList<>();

    @JsonPropertyDescription("The retention in words: the rule that applies and what it will do.")
    public String message;
}
