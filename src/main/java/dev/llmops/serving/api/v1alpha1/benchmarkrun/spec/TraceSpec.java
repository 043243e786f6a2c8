package dev.llmops.serving.api.v1alpha1.benchmarkrun.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;
import lombok.EqualsAndHashCode;

/**
 * A Mooncake-format trace (JSON lines of timestamp, input_length, output_length and hash_ids), mounted read-only into
 * the runner pod and replayed at its own timestamps, one stage per speed, instead of the sweep.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value = "has(self.configMap) != has(self.persistentVolumeClaim)",
        message = "spec.dataset.trace: set exactly one of configMap and persistentVolumeClaim",
        reason = "FieldValueInvalid")
@ValidationRule(
        value = "!has(self.persistentVolumeClaim) || !self.persistentVolumeClaim.path.matches('(^|/)[.][.]?(/|$)')",
        message = "spec.dataset.trace.persistentVolumeClaim.path must not contain . or .. segments",
        reason = "FieldValueInvalid",
        fieldPath = ".persistentVolumeClaim.path")
@ValidationRule(
        value = "!has(self.toSeconds) || self.toSeconds > (has(self.fromSeconds) ? self.fromSeconds : 0.0)",
        message = "spec.dataset.trace.toSeconds must be after fromSeconds (0 when unset)",
        reason = "FieldValueInvalid",
        fieldPath = ".toSeconds")
@EqualsAndHashCode(callSuper = true)
public class TraceSpec extends DatasetFile {

    @Size(min = 1, max = 16)
    @ValidationRule(
            value = "self.all(s, s > 0.0 && s <= 1000.0)",
            message = "spec.dataset.trace.speeds: each speed must be above 0 and at most 1000")
    @ValidationRule(
            value = "self.all(s, self.exists_one(t, t == s))",
            message = "spec.dataset.trace.speeds must not repeat a speed")
    @JsonPropertyDescription("The speeds the trace is replayed at, one stage each (t1x, t2x, ...): 2 sends twice as "
            + "fast as the trace did. Unset: once, at the trace's own pace.")
    public List<Double> speeds;

    @Min(0)
    @JsonPropertyDescription("Replay only the requests from this many seconds after the trace's first request.")
    public Double fromSeconds;

    @Min(0)
    @JsonPropertyDescription("Replay only the requests before this many seconds after the trace's first request. Set "
            + "it to bound the benchmark Job's deadline by the window; unset, the whole trace is replayed and the "
            + "deadline is the longest a Job may run.")
    public Double toSeconds;

    @Min(1)
    @Max(1048576)
    @JsonPropertyDescription("Caps each request's output tokens (fixes them with ignoreEos); otherwise the trace's "
            + "output_length, capped by spec.sampling.maxTokens.")
    public Integer maxOutputTokens;
}
