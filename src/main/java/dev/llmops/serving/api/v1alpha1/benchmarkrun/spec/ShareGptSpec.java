package dev.llmops.serving.api.v1alpha1.benchmarkrun.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.EqualsAndHashCode;

/**
 * A ShareGPT-format conversation file, mounted read-only into the runner pod: each request sends a conversation's first
 * user turn, in an order fixed by the seed.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value = "has(self.configMap) != has(self.persistentVolumeClaim)",
        message = "spec.dataset.shareGpt: set exactly one of configMap and persistentVolumeClaim",
        reason = "FieldValueInvalid")
@ValidationRule(
        value = "!has(self.persistentVolumeClaim) || !self.persistentVolumeClaim.path.matches('(^|/)[.][.]?(/|$)')",
        message = "spec.dataset.shareGpt.persistentVolumeClaim.path must not contain . or .. segments",
        reason = "FieldValueInvalid",
        fieldPath = ".persistentVolumeClaim.path")
@EqualsAndHashCode(callSuper = true)
public class ShareGptSpec extends DatasetFile {

    @Min(1)
    @Max(1048576)
    @JsonPropertyDescription("Caps each request's output tokens (fixes them with ignoreEos); otherwise the length of "
            + "the dataset's reply, capped by spec.sampling.maxTokens.")
    public Integer maxOutputTokens;
}
