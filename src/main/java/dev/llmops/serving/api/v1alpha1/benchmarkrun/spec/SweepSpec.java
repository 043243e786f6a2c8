package dev.llmops.serving.api.v1alpha1.benchmarkrun.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.llmops.serving.api.contract.RunPlan;
import dev.llmops.serving.api.contract.RunnerFlags;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;
import lombok.EqualsAndHashCode;

/**
 * The fixed sweep: closed-loop concurrency levels (N workers each send the next request when their last one finishes)
 * or open-loop request rates (requests sent on a schedule that never waits on responses).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value = "!(has(self.requestsPerLevel) && has(self.durationSecondsPerLevel))",
        message = "spec.sweep: set requestsPerLevel or durationSecondsPerLevel, not both",
        reason = "FieldValueInvalid")
@ValidationRule(
        value = "!(has(self.concurrency) && size(self.concurrency) > 0 && has(self.rates) && size(self.rates) > 0)",
        message = "spec.sweep: one sweep is either closed-loop or open-loop: set concurrency or rates, not both",
        reason = "FieldValueInvalid")
@EqualsAndHashCode
public class SweepSpec {

    @Size(max = 32)
    @ValidationRule(
            value = "self.all(c, c >= 1 && c <= " + RunnerFlags.MAX_CONCURRENCY_LEVEL + ")",
            message = "spec.sweep.concurrency: every level must be between 1 and " + RunnerFlags.MAX_CONCURRENCY_LEVEL)
    @ValidationRule(
            value = "self.all(c, self.exists_one(d, d == c))",
            message = "spec.sweep.concurrency: levels must not repeat")
    @JsonPropertyDescription("Concurrency levels, run in the order given. Empty skips the closed-loop sweep. When "
            + "neither this nor rates is set: 8, 16, 32, 48, 64.")
    public List<Integer> concurrency;

    @Size(max = 32)
    @ValidationRule(
            value = "self.all(r, r > 0.0 && r <= " + RunnerFlags.MAX_RATE + ".0)",
            message =
                    "spec.sweep.rates: every rate must be above 0 and at most " + RunnerFlags.MAX_RATE + " requests/s")
    @ValidationRule(
            value = "self.all(r, self.exists_one(q, q == r))",
            message = "spec.sweep.rates: rates must not repeat")
    @JsonPropertyDescription("Open-loop request rates in requests/s, run in the order given; instead of concurrency.")
    public List<Double> rates;

    @JsonPropertyDescription("Inter-arrival times of the rate stages: Poisson (the default) or Constant; seeded.")
    public ArrivalProcess arrival;

    @Min(1)
    @Max(RunnerFlags.MAX_CONCURRENCY_LEVEL)
    @JsonPropertyDescription("Most requests in flight in a rate stage; a request whose slot is not free waits in the "
            + "client, and the wait counts in its latency and shows as schedule lag.")
    public Integer maxConcurrency;

    @Min(1)
    @Max(1000000)
    @JsonPropertyDescription("Requests per level. When neither this nor durationSecondsPerLevel is set, a concurrency "
            + "level sends " + RunPlan.REQUESTS_PER_STREAM + " × its concurrency and a rate stage "
            + RunPlan.RATE_SECONDS
            + " s worth of requests (at least " + RunPlan.MIN_RATE_REQUESTS + ").")
    public Integer requestsPerLevel;

    @Min(1)
    @Max(86400)
    @JsonPropertyDescription(
            "Seconds per level instead of a request count; requests in flight at the end are awaited and counted.")
    public Integer durationSecondsPerLevel;
}
