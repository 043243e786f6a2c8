package dev.llmops.serving.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.Objects;

/** Latency limits the sweep is judged against. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value = "has(self.ttftP99Millis) || has(self.tpotP99Millis)",
        message = "spec.slo: set ttftP99Millis, tpotP99Millis or both",
        reason = "FieldValueRequired")
public class SloSpec {

    @Min(1)
    @Max(3600000)
    @JsonPropertyDescription("Largest acceptable p99 time to first token, in milliseconds.")
    public Integer ttftP99Millis;

    @Min(1)
    @Max(600000)
    @JsonPropertyDescription("Largest acceptable p99 time per output token, in milliseconds.")
    public Integer tpotP99Millis;

    @Override
    public boolean equals(Object other) {
        return other instanceof SloSpec that
                && Objects.equals(ttftP99Millis, that.ttftP99Millis)
                && Objects.equals(tpotP99Millis, that.tpotP99Millis);
    }

    @Override
    public int hashCode() {
        return Objects.hash(ttftP99Millis, tpotP99Millis);
    }
}
