package dev.llmops.serving.api.v1alpha1.benchmarkrun;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.BenchmarkPlanSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.BenchmarkTarget;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.ReferenceSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.RetentionSpec;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.EqualsAndHashCode;

/**
 * What to benchmark and how; immutable, so a status always describes the spec it ran. The plan it shares with a
 * ServingExperiment's spec.benchmark is in {@link BenchmarkPlanSpec}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value = "self == oldSelf",
        message = "spec is immutable: create a new BenchmarkRun to run again",
        reason = "FieldValueForbidden")
@ValidationRule(
        value = "!has(self.retention) || self.retention.groupBy != 'Reference' || has(self.reference)",
        message = "spec.retention.groupBy Reference counts the runs naming the same spec.reference: set spec.reference",
        reason = "FieldValueRequired")
@EqualsAndHashCode(callSuper = true)
public class BenchmarkRunSpec extends BenchmarkPlanSpec {

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

    @Size(max = 253)
    @Pattern("^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$")
    @JsonPropertyDescription(
            "Name of another BenchmarkRun in this namespace to compare against (e.g. the autoregressive run): "
                    + "speedups with confidence intervals and verdicts, and the agreement of the greedy outputs.")
    public String baseline;

    @JsonPropertyDescription("The run this one must not fall behind; sets the Regressed and Improved conditions.")
    public ReferenceSpec reference;

    @JsonPropertyDescription("When the finished run is deleted with its Job and samples; without it, the operator's "
            + "default (the chart's benchmark.retention), which keeps runs unless set. A ServingExperiment's runs "
            + "go with the experiment.")
    public RetentionSpec retention;
}
