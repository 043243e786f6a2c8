package dev.llmops.serving.api.v1alpha1.benchmarkrun;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;

/** Where a finished run's record is in the object-store archive, or why it is not there yet. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class ArchiveStatus {

    @JsonPropertyDescription("The record's address, s3://BUCKET/PREFIX/NAMESPACE/RUN/UID/: run.json (the run with "
            + "its status and provenance), samples.json.gz and llmd/STAGE.yaml.")
    public String url;

    @JsonPropertyDescription("When the record was written.")
    public String archivedAt;

    @JsonPropertyDescription("How many objects the record holds.")
    public Integer objects;

    @JsonPropertyDescription("How many bytes the record holds.")
    public Long bytes;

    @JsonPropertyDescription("Attempts that failed since the run finished; the next waits longer, up to 10 minutes.")
    public Integer failedAttempts;

    @JsonPropertyDescription("When the next attempt is made, after a failed one.")
    public String nextAttemptAt;
}
