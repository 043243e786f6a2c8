package dev.llmops.serving.api.v1alpha1.benchmarkrun.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.llmops.serving.api.contract.BenchmarkDefaults;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.EqualsAndHashCode;

/**
 * How a server is benchmarked, whichever server it is: warm-up, stages, prompts, sampling, SLO, capacity search and
 * quality stage. A BenchmarkRun adds its target and the runs it compares with; a ServingExperiment gives every variant
 * the same plan.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value = "!has(self.capacity) || has(self.slo)",
        message = "spec.capacity: a capacity search needs spec.slo, the limits it searches under",
        reason = "FieldValueRequired",
        fieldPath = ".capacity")
@ValidationRule(
        value = "!has(self.sweep) || !has(self.sweep.arrival) || " + BenchmarkPlanSpec.OPEN_LOOP,
        message = "spec.sweep.arrival applies only to open-loop load: set spec.sweep.rates or spec.capacity.mode Rate",
        reason = "FieldValueForbidden",
        fieldPath = ".sweep.arrival")
@ValidationRule(
        value = "!has(self.dataset) || self.dataset.type != 'Trace' || (!has(self.capacity) && (!has(self.sweep) "
                + "|| ((!has(self.sweep.concurrency) || size(self.sweep.concurrency) == 0) "
                + "&& (!has(self.sweep.rates) || size(self.sweep.rates) == 0))))",
        message = "spec.dataset.type Trace replays the trace at its own timestamps instead of the sweep: "
                + "spec.sweep.concurrency, spec.sweep.rates and spec.capacity do not apply",
        reason = "FieldValueForbidden",
        fieldPath = ".dataset.type")
@ValidationRule(
        value = "!has(self.sweep) || !has(self.sweep.maxConcurrency) || " + BenchmarkPlanSpec.OPEN_LOOP
                + " || (has(self.dataset) && self.dataset.type == 'Trace')",
        message = "spec.sweep.maxConcurrency applies only to open-loop load: set spec.sweep.rates, spec.capacity.mode "
                + "Rate or spec.dataset.type Trace",
        reason = "FieldValueForbidden",
        fieldPath = ".sweep.maxConcurrency")
@ValidationRule(
        value = "!has(self.dataset) || self.dataset.type != 'Sessions' || (!has(self.capacity) && (!has(self.sweep) "
                + "|| !has(self.sweep.rates) || size(self.sweep.rates) == 0))",
        message = "spec.dataset.type Sessions runs one user per concurrent stream, each holding a conversation: "
                + "spec.sweep.rates and spec.capacity do not apply",
        reason = "FieldValueForbidden",
        fieldPath = ".dataset.type")
@ValidationRule(
        value = "!has(self.dataset) || !has(self.dataset.sessions) || self.dataset.sessions.firstTurnTokens "
                + "+ (self.dataset.sessions.turns - 1) * (self.dataset.sessions.turnTokens "
                + "+ (has(self.dataset.sessions.outputLength) ? self.dataset.sessions.outputLength "
                + ": (has(self.sampling) && has(self.sampling.maxTokens) ? self.sampling.maxTokens : "
                + BenchmarkDefaults.MAX_TOKENS_TEXT + "))) <= 1048576",
        message = "spec.dataset.sessions: a conversation's last turn (the first message, then each later message and "
                + "reply) must stay within 1048576 tokens; fewer turns or shorter messages or outputs",
        reason = "FieldValueInvalid",
        fieldPath = ".dataset.sessions")
@EqualsAndHashCode
public class BenchmarkPlanSpec {

    /** CEL: the run sends open-loop load, a rate sweep or a search for the highest rate. */
    static final String OPEN_LOOP = "((has(self.sweep.rates) && size(self.sweep.rates) > 0)"
            + " || (has(self.capacity) && self.capacity.mode == 'Rate'))";

    @JsonPropertyDescription("Requests sent and discarded before measuring (JIT compilation, CUDA graphs, caches).")
    public WarmupSpec warmup = new WarmupSpec();

    @JsonPropertyDescription("Each prompt sent alone: the single-stream baseline.")
    public SingleRequestSpec singleRequest = new SingleRequestSpec();

    @JsonPropertyDescription("The fixed sweep: closed-loop concurrency levels or open-loop request rates.")
    public SweepSpec sweep = new SweepSpec();

    @JsonPropertyDescription("Sampling parameters of every measured request.")
    public SamplingSpec sampling = new SamplingSpec();

    @Default(BenchmarkDefaults.REQUEST_TIMEOUT_SECONDS_TEXT)
    @Min(1)
    @Max(86400)
    @JsonPropertyDescription("Seconds one request may take before it counts as failed with a timeout.")
    public Integer requestTimeoutSeconds = BenchmarkDefaults.REQUEST_TIMEOUT_SECONDS;

    @JsonPropertyDescription(
            "Prompts of the sweep: the single-request prompts, or random token sequences of fixed lengths.")
    public DatasetSpec dataset = new DatasetSpec();

    @JsonPropertyDescription("The benchmark Job's pod.")
    public RunnerPodSpec runner = new RunnerPodSpec();

    @JsonPropertyDescription("The quality stage: greedy outputs compared with the baseline's and the reference's.")
    public QualitySpec quality = new QualitySpec();

    @JsonPropertyDescription("Latency limits and the share of requests that must meet them; the SLOMet condition says "
            + "whether they held and where they broke.")
    public SloSpec slo;

    @JsonPropertyDescription(
            "Search for the highest load meeting spec.slo, after the fixed sweep; result in " + "status.capacity.")
    public CapacitySpec capacity;
}
