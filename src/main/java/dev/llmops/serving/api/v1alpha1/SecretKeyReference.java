package dev.llmops.serving.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import lombok.EqualsAndHashCode;

/** A key of a Secret in the resource's namespace; pods read it through secretKeyRef, the operator never does. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class SecretKeyReference {

    @Required
    @Size(min = 1, max = 253)
    @Pattern("^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$")
    @JsonPropertyDescription("Secret name.")
    public String name;

    @Required
    @Size(min = 1, max = 253)
    @Pattern("^[-._a-zA-Z0-9]+$")
    @JsonPropertyDescription("Key within the Secret.")
    public String key;
}
