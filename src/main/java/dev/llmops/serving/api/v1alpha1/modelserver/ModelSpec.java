package dev.llmops.serving.api.v1alpha1.modelserver;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.EqualsAndHashCode;

/** The model a server loads and the name it is served under. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value = "!has(self.trustRemoteCode) || !self.trustRemoteCode || has(self.revision)",
        message = ModelSpec.REVISION_REQUIRED,
        reason = "FieldValueRequired",
        fieldPath = ".revision")
@EqualsAndHashCode
public class ModelSpec {

    /** Why a revision must be pinned: the repository's code runs from whatever revision the hub serves. */
    public static final String REVISION_REQUIRED = "spec.model.revision is required when spec.model.trustRemoteCode is "
            + "true: the model repository's Python code runs in the server, so pin the commit you reviewed";

    @Required
    @Size(min = 1, max = 512)
    @JsonPropertyDescription(
            "Hugging Face model id (e.g. moonshotai/Kimi-K2-Instruct) or a path inside the model cache.")
    public String path;

    @Size(max = 256)
    @Pattern("^[A-Za-z0-9][A-Za-z0-9._/:-]*$")
    @JsonPropertyDescription("Model name the OpenAI-compatible API answers to. Defaults to spec.model.path.")
    public String servedModelName;

    @Size(max = 128)
    @JsonPropertyDescription(
            "Hugging Face revision (branch, tag or commit) to load; required with trustRemoteCode, best a commit.")
    public String revision;

    @Default("false")
    @JsonPropertyDescription(
            "Allow the model repository's own Python code to run (--trust-remote-code); Kimi and DeepSeek need it. "
                    + "Requires spec.model.revision.")
    public Boolean trustRemoteCode = false;
}
