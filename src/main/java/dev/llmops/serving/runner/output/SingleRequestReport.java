package dev.llmops.serving.runner.output;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One prompt of the single-request phase.
 *
 * @param tokensPerSecond output tokens / end-to-end latency
 * @param failure the failure class, null when it succeeded
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SingleRequestReport(
        @JsonProperty("prompt") String prompt,
        @JsonProperty("output_tokens") int outputTokens,
        @JsonProperty("reasoning_tokens") int reasoningTokens,
        @JsonProperty("tokens_per_second") double tokensPerSecond,
        @JsonProperty("ttft_ms") Double ttftMillis,
        @JsonProperty("ttfc_ms") Double timeToFirstContentMillis,
        @JsonProperty("tpot_ms") Double tpotMillis,
        @JsonProperty("e2e_latency_ms") double e2eMillis,
        @JsonProperty("failure") String failure) {}
