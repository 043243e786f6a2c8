package dev.llmops.serving.api.v1alpha1.modelserver;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.llmops.serving.api.v1alpha1.QuantityPattern;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.EqualsAndHashCode;

/** The volume model weights are downloaded to and loaded from. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value = "has(self.claimName) != has(self.size)",
        message =
                "spec.modelCache: set exactly one of claimName (an existing PersistentVolumeClaim) or size (a new one)",
        reason = "FieldValueInvalid")
@ValidationRule(
        value = "!has(self.storageClassName) || has(self.size)",
        message = "spec.modelCache.storageClassName applies only to a new claim (set size, not claimName)",
        reason = "FieldValueForbidden",
        fieldPath = ".storageClassName")
@EqualsAndHashCode
public class ModelCacheSpec {

    @Size(max = 253)
    @Pattern("^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$")
    @JsonPropertyDescription("Name of an existing PersistentVolumeClaim in the same namespace.")
    public String claimName;

    @Pattern(QuantityPattern.VALUE)
    @JsonPropertyDescription("Size of a claim the operator creates and owns, e.g. 2Ti.")
    public String size;

    @Size(max = 253)
    @JsonPropertyDescription("Storage class of the claim the operator creates.")
    public String storageClassName;

    @Default("/root/.cache/huggingface")
    @Pattern("^/.*")
    @JsonPropertyDescription("Where the cache is mounted in the SGLang container (HF_HOME points here).")
    public String mountPath = "/root/.cache/huggingface";
}
