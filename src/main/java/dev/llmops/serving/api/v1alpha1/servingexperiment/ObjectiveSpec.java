package dev.llmops.serving.api.v1alpha1.servingexperiment;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.EqualsAndHashCode;

/** What the winner of a ServingExperiment is best at, and at which stage of the benchmark it is judged. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value = "self.type != 'Capacity' || !has(self.stage)",
        message = "spec.objective.stage applies only to Throughput and TPOT: a capacity is the most load within the "
                + "SLO, not a figure of one stage",
        reason = "FieldValueForbidden",
        fieldPath = ".stage")
@EqualsAndHashCode
public class ObjectiveSpec {

    /**
     * A stage name as the runner writes it: single, c and a level up to 4096, r and a rate up to 100000 requests/s
     * written plainly (r2, never r2.0; r7.5). The digits are bounded so the CEL rule that reads them cannot overflow.
     */
    static final String STAGE_NAME = "^(single|c[1-9][0-9]{0,3}|r(0|[1-9][0-9]{0,5})(\\.[0-9]{0,5}[1-9])?)$";

    @Default("Throughput")
    @JsonPropertyDescription("Capacity: the most load that meets spec.benchmark.slo (status.capacity of each variant's "
            + "run when spec.benchmark.capacity searches for it, else the highest sweep stage that met it); needs "
            + "spec.benchmark.slo. Throughput: the most output tokens/s at spec.objective.stage. TPOT: the lowest p50 "
            + "time per output token at spec.objective.stage. A variant whose outputs diverge from the baseline's "
            + "(QualitySuspect) never wins.")
    public ObjectiveType type = ObjectiveType.Throughput;

    @Size(max = 16)
    @Pattern(ObjectiveSpec.STAGE_NAME)
    @JsonPropertyDescription("The stage Throughput and TPOT are judged at, named as in a BenchmarkRun's status.stages: "
            + "single, c<N> for a concurrency level of spec.benchmark.sweep, r<R> for one of its rates. Empty: the "
            + "sweep's highest concurrency level, or its highest rate when it sweeps rates.")
    public String stage;
}
