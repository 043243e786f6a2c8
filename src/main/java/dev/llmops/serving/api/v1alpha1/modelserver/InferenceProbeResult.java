package dev.llmops.serving.api.v1alpha1.modelserver;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;

/** Evidence that a pod generated: when, how fast, how many tokens. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class InferenceProbeResult {

    @JsonPropertyDescription("When the completion finished (RFC 3339).")
    public String time;

    @JsonPropertyDescription("Pod that answered.")
    public String pod;

    @JsonPropertyDescription("Latency of the whole completion in milliseconds.")
    public Long latencyMillis;

    @JsonPropertyDescription("Completion tokens the server reported.")
    public Integer outputTokens;
}
