package dev.llmops.serving.api.v1alpha1.benchmarkrun.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.llmops.serving.api.contract.BenchmarkDefaults;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.EqualsAndHashCode;

/**
 * Latency limits the stages are judged against. A request is good when it succeeded and met every limit given; a stage
 * meets the SLO when the share of good requests reaches the attainment target.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value = "has(self.ttftP99Millis) || has(self.tpotP99Millis) || has(self.itlP99Millis)"
                + " || has(self.e2eP99Millis)",
        message = "spec.slo: set at least one of ttftP99Millis, tpotP99Millis, itlP99Millis, e2eP99Millis",
        reason = "FieldValueRequired")
@ValidationRule(
        value = "!has(self.attainment) || (self.attainment > 0.0 && self.attainment <= 1.0)",
        message = "spec.slo.attainment must be above 0 and at most 1 (a share of requests, e.g. 0.95)",
        reason = "FieldValueInvalid",
        fieldPath = ".attainment")
@EqualsAndHashCode
public class SloSpec {

    @Min(1)
    @Max(3600000)
    @JsonPropertyDescription("Largest acceptable time to first token of a request, in milliseconds.")
    public Integer ttftP99Millis;

    @Min(1)
    @Max(600000)
    @JsonPropertyDescription("Largest acceptable time per output token of a request, in milliseconds.")
    public Integer tpotP99Millis;

    @Min(1)
    @Max(600000)
    @JsonPropertyDescription("Largest acceptable p99 of a request's own inter-token gaps, in milliseconds.")
    public Integer itlP99Millis;

    @Min(1)
    @Max(86400000)
    @JsonPropertyDescription("Largest acceptable end-to-end latency of a request, in milliseconds.")
    public Integer e2eP99Millis;

    @JsonPropertyDescription("Share of requests that must be good for a stage to meet the SLO, in (0, 1]; "
            + BenchmarkDefaults.SLO_ATTAINMENT_TEXT
            + " when absent. With 0.99 and one limit this is the p99 of that latency.")
    public Double attainment;
}
