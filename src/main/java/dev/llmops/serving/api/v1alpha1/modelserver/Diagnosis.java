package dev.llmops.serving.api.v1alpha1.modelserver;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;

/** What went wrong starting a server, in words a person can act on. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class Diagnosis {

    @JsonPropertyDescription("CamelCase reason, e.g. InsufficientGPUs, CudaHeadersMissing, SharedMemoryTooSmall.")
    public String reason;

    @JsonPropertyDescription("What happened, with the evidence (event or log line).")
    public String message;

    @JsonPropertyDescription("What to change to fix it.")
    public String hint;

    @JsonPropertyDescription("Pod the diagnosis was made on.")
    public String pod;

    @JsonPropertyDescription("When the problem was first seen (RFC 3339).")
    public String since;
}
