package dev.llmops.serving.api.v1alpha1.benchmarkrun.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import lombok.EqualsAndHashCode;

/** A file on an existing PersistentVolumeClaim in the resource's namespace, mounted read-only into a pod. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class ClaimFileReference {

    @Required
    @Size(min = 1, max = 253)
    @Pattern("^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$")
    @JsonPropertyDescription("Name of the PersistentVolumeClaim.")
    public String claimName;

    @Required
    @Size(min = 1, max = 1024)
    @Pattern("^[-._a-zA-Z0-9]+(/[-._a-zA-Z0-9]+)*$")
    @JsonPropertyDescription("Path of the file relative to the root of the claim, e.g. sharegpt/ShareGPT_V3.json.")
    public String path;
}
