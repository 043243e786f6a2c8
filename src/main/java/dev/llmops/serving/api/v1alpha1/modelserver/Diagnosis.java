package dev.llmops.serving.api.v1alpha1.modelserver;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** What went wrong starting a server, in words a person can act on. */
@JsonInclude(JsonInclude.Include.NON_NULL)
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

    @Override
    public boolean equals(Object other) {
        return other instanceof Diagnosis that
                && Objects.equals(reason, that.reason)
                && Objects.equals(message, that.message)
                && Objects.equals(hint, that.hint)
                && Objects.equals(pod, that.pod)
                && Objects.equals(since, that.since);
    }

    @Override
    public int hashCode() {
        return Objects.hash(reason, message, hint, pod, since);
    }
}
