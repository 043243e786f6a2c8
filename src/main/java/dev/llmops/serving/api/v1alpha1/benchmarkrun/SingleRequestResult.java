package dev.llmops.serving.api.v1alpha1.benchmarkrun;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;

/** One prompt of the single-request phase, sent alone. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class SingleRequestResult {

    @JsonPropertyDescription("The prompt, shortened for display.")
    public String prompt;

    @JsonPropertyDescription("Output tokens the server reported.")
    public Integer outputTokens;

    @JsonPropertyDescription("Output tokens per second of this request (output tokens / end-to-end latency).")
    public Double tokensPerSecond;

    @JsonPropertyDescription("Time to first token, milliseconds.")
    public Double ttftMillis;

    @JsonPropertyDescription("End-to-end latency, milliseconds.")
    public Double e2eMillis;
}
