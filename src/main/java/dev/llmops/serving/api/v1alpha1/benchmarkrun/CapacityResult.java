package dev.llmops.serving.api.v1alpha1.benchmarkrun;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.llmops.serving.api.contract.CapacityMode;
import dev.llmops.serving.api.contract.CapacityOutcome;
import lombok.EqualsAndHashCode;

/** The highest load at which spec.slo held, the figures measured there and how the search was bounded. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class CapacityResult {

    @JsonPropertyDescription("What was searched: Concurrency or Rate.")
    public CapacityMode mode;

    @JsonPropertyDescription("Highest concurrency that met the SLO (mode Concurrency).")
    public Integer concurrency;

    @JsonPropertyDescription("Highest request rate that met the SLO, requests/s (mode Rate).")
    public Double requestRate;

    @JsonPropertyDescription("The capacity for kubectl get: 24 streams, 7.5 req/s, none when never met; >= in front "
            + "when the budget ran out before the boundary was found.")
    public String load;

    @JsonPropertyDescription("Found, BudgetExhausted (the load is a lower bound) or NeverMet.")
    public CapacityOutcome outcome;

    @JsonPropertyDescription("How the search ended, in the runner's words.")
    public String message;

    @JsonPropertyDescription("Output tokens per second at the capacity.")
    public Double outputTokensPerSecond;

    @JsonPropertyDescription("Completed requests per second at the capacity.")
    public Double requestsPerSecond;

    @JsonPropertyDescription("Share of requests that met the SLO at the capacity.")
    public Double sloAttainment;

    @JsonPropertyDescription("Good requests per second at the capacity.")
    public Double goodputRequestsPerSecond;

    @JsonPropertyDescription("Output tokens per second of the good requests at the capacity.")
    public Double goodputOutputTokensPerSecond;

    @JsonPropertyDescription("p99 time to first token at the capacity, milliseconds.")
    public Double ttftP99Millis;

    @JsonPropertyDescription("p99 time per output token at the capacity, milliseconds.")
    public Double tpotP99Millis;

    @JsonPropertyDescription("p99 inter-token latency at the capacity, milliseconds.")
    public Double itlP99Millis;

    @JsonPropertyDescription("p99 end-to-end latency at the capacity, milliseconds.")
    public Double e2eP99Millis;

    @JsonPropertyDescription("Probe stages the search ran (each is also in status.stages as probe<K>-...).")
    public Integer probes;
}
