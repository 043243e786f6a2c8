package dev.llmops.serving.api.v1alpha1.benchmarkrun.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.EqualsAndHashCode;

/**
 * How long a finished run stays in the cluster with its Job and samples, so that nightly benchmarks do not fill etcd;
 * a run another run compares with is kept while that run exists.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value = "has(self.ttlSecondsAfterFinished) || has(self.keepLast)",
        message = "spec.retention needs ttlSecondsAfterFinished or keepLast (or both)",
        reason = "FieldValueRequired")
@EqualsAndHashCode
public class RetentionSpec {

    /** A year: a longer wait is better expressed by no retention at all. */
    public static final int MAX_TTL_SECONDS = 31_536_000;

    public static final int MAX_KEEP_LAST = 10_000;

    @Min(0)
    @Max(MAX_TTL_SECONDS)
    @JsonPropertyDescription("Delete the run (with its Job and samples) this many seconds after it finished "
            + "(status.completionTime).")
    public Integer ttlSecondsAfterFinished;

    @Min(1)
    @Max(MAX_KEEP_LAST)
    @JsonPropertyDescription("Keep the run while it is one of the newest keepLast finished runs of its group "
            + "(groupBy); delete it once that many newer ones have finished.")
    public Integer keepLast;

    @Default("Target")
    @JsonPropertyDescription("The runs keepLast counts together: Target (the same ModelServer or URL) or Reference "
            + "(the same spec.reference).")
    public RetentionGroup groupBy = RetentionGroup.Target;
}
