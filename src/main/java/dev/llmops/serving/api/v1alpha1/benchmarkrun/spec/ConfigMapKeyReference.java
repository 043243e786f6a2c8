package dev.llmops.serving.api.v1alpha1.benchmarkrun.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import lombok.EqualsAndHashCode;

/** A key of a ConfigMap in the resource's namespace, mounted into a pod as a file; the operator never reads it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class ConfigMapKeyReference {

    @Required
    @Size(min = 1, max = 253)
    @Pattern("^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$")
    @JsonPropertyDescription("ConfigMap name.")
    public String name;

    @Required
    @Size(min = 1, max = 253)
    @Pattern("^[-._a-zA-Z0-9]+$")
    @JsonPropertyDescription("Key within the ConfigMap; becomes the file name.")
    public String key;
}
