package dev.llmops.serving.api.v1alpha1.benchmarkrun;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.llmops.serving.api.contract.BenchmarkDefaults;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.BenchmarkTarget;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.CapacitySpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.DatasetSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.QualitySpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.ReferenceSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.RunnerPodSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.SamplingSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.SingleRequestSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.SloSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.SweepSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.WarmupSpec;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.EqualsAndHashCode;

/** What to benchmark and how; immutable, so a status always describes the spec it ran. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value = "self == oldSelf",
        message = "spec is immutable: create a new BenchmarkRun to run again",
        reason = "FieldValueForbidden")
@ValidationRule(
        value = "!has(self.capacity) || has(self.slo)",
        message = "spec.capacity: a capacity search needs spec.slo, the limits it searches under",
        reason = "FieldValueRequired",
        fieldPath = ".capacity")
@ValidationRule(
        value = "!has(self.sweep) || !has(self.sweep.arrival) || " + BenchmarkRunSpec.OPEN_LOOP,
        message = "spec.sweep.arrival applies only to open-loop load: set spec.sweep.rates or spec.capacity.mode Rate",
        reason = "FieldValueForbidden",
        fieldPath = ".sweep.arrival")
@ValidationRule(
        value = "!has(self.sweep) || !has(self.sweep.maxConcurrency) || " + BenchmarkRunSpec.OPEN_LOOP,
        message =
                "spec.sweep.maxConcurrency applies only to open-loop load: set spec.sweep.rates or spec.capacity.mode "
                        + "Rate",
        reason = "FieldValueForbidden",
        fieldPath = ".sweep.maxConcurrency")
@EqualsAndHashCode
public class BenchmarkRunSpec {

    /** CEL: the run sends open-loop load, a rate sweep or a search for the highest rate. */
    static final String OPEN_LOOP = "((has(self.sweep.rates) && size(self.sweep.rates) > 0)"
            + " || (has(self.capacity) && self.capacity.mode == 'Rate'))";

    private static final int WAIT_TIMEOUT_SECONDS = 3600;

    @Required
    @JsonPropertyDescription("The server to benchmark: a ModelServer, or an external OpenAI-compatible URL.")
    public BenchmarkTarget target;

    @Default("" + WAIT_TIMEOUT_SECONDS)
    @Min(0)
    @Max(172800)
    @JsonPropertyDescription(
            "Seconds to wait for the target ModelServer to become inference-ready before failing with ServerNotReady.")
    public Integer waitTimeoutSeconds = WAIT_TIMEOUT_SECONDS;

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

    @Size(max = 253)
    @Pattern("^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$")
    @JsonPropertyDescription(
            "Name of another BenchmarkRun in this namespace to compare against (e.g. the autoregressive run): "
                    + "speedups with confidence intervals and verdicts, and the agreement of the greedy outputs.")
    public String baseline;

    @JsonPropertyDescription("The run this one must not fall behind; sets the Regressed and Improved conditions.")
    public ReferenceSpec reference;

    @JsonPropertyDescription("The quality stage: greedy outputs compared with the baseline's and the reference's.")
    public QualitySpec quality = new QualitySpec();

    @JsonPropertyDescription("Latency limits and the share of requests that must meet them; the SLOMet condition says "
            + "whether they held and where they broke.")
    public SloSpec slo;

    @JsonPropertyDescription(
            "Search for the highest load meeting spec.slo, after the fixed sweep; result in " + "status.capacity.")
    public CapacitySpec capacity;
}
