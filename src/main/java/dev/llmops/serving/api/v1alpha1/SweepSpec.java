package dev.llmops.serving.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.llmops.serving.runner.BenchmarkDefaults;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** The closed-loop concurrency sweep: N workers each send the next request when their last one finishes. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value = "!(has(self.requestsPerLevel) && has(self.durationSecondsPerLevel))",
        message = "spec.sweep: set requestsPerLevel or durationSecondsPerLevel, not both",
        reason = "FieldValueInvalid")
public class SweepSpec {

    @Default(BenchmarkDefaults.CONCURRENCY_JSON)
    @Size(max = 32)
    @ValidationRule(
            value = "self.all(c, c >= 1 && c <= 4096)",
            message = "spec.sweep.concurrency: every level must be between 1 and 4096")
    @ValidationRule(
            value = "self.all(c, self.exists_one(d, d == c))",
            message = "spec.sweep.concurrency: levels must not repeat")
    @JsonPropertyDescription(
            "Concurrency levels, run in the order given. Empty skips the sweep. Default 8, 16, 32, 48, 64.")
    public List<Integer> concurrency = new ArrayList<>(BenchmarkDefaults.CONCURRENCY);

    @Min(1)
    @Max(1000000)
    @JsonPropertyDescription(
            "Requests per level. When neither this nor durationSecondsPerLevel is set, each level sends 4 × its "
                    + "concurrency.")
    public Integer requestsPerLevel;

    @Min(1)
    @Max(86400)
    @JsonPropertyDescription(
            "Seconds per level instead of a request count; requests in flight at the end are awaited and counted.")
    public Integer durationSecondsPerLevel;

    @Override
    public boolean equals(Object other) {
        return other instanceof SweepSpec that
                && Objects.equals(concurrency, that.concurrency)
                && Objects.equals(requestsPerLevel, that.requestsPerLevel)
                && Objects.equals(durationSecondsPerLevel, that.durationSecondsPerLevel);
    }

    @Override
    public int hashCode() {
        return Objects.hash(concurrency, requestsPerLevel, durationSecondsPerLevel);
    }
}
