package dev.llmops.serving.api.v1alpha1.modelserver;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** Evidence that a pod generated: when, how fast, how many tokens. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class InferenceProbeResult {

    @JsonPropertyDescription("When the completion finished (RFC 3339).")
    public String time;

    @JsonPropertyDescription("Pod that answered.")
    public String pod;

    @JsonPropertyDescription("Latency of the whole completion in milliseconds.")
    public Long latencyMillis;

    @JsonPropertyDescription("Completion tokens the server reported.")
    public Integer outputTokens;

    @Override
    public boolean equals(Object other) {
        return other instanceof InferenceProbeResult that
                && Objects.equals(time, that.time)
                && Objects.equals(pod, that.pod)
                && Objects.equals(latencyMillis, that.latencyMillis)
                && Objects.equals(outputTokens, that.outputTokens);
    }

    @Override
    public int hashCode() {
        return Objects.hash(time, pod, latencyMillis, outputTokens);
    }
}
