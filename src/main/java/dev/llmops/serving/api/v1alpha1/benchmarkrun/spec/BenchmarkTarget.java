package dev.llmops.serving.api.v1alpha1.benchmarkrun.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.llmops.serving.api.v1alpha1.SecretKeyReference;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.EqualsAndHashCode;

/** The server a benchmark measures: one of the operator's ModelServers or any OpenAI-compatible URL. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value = "has(self.modelServer) != has(self.url)",
        message = "spec.target: set exactly one of modelServer or url",
        reason = "FieldValueInvalid")
@ValidationRule(
        value = "!has(self.url) || has(self.model)",
        message = "spec.target.model is required with spec.target.url",
        reason = "FieldValueRequired",
        fieldPath = ".model")
@ValidationRule(
        value = "!has(self.metricsUrl) || has(self.url)",
        message = "spec.target.metricsUrl applies only to an external spec.target.url: a ModelServer's pods are read "
                + "one by one",
        reason = "FieldValueForbidden",
        fieldPath = ".metricsUrl")
@ValidationRule(
        value = "!has(self.apiKeySecret) || has(self.url)",
        message = "spec.target.apiKeySecret applies only to an external spec.target.url: a run of a ModelServer sends "
                + "that ModelServer's own spec.apiKeySecret",
        reason = "FieldValueForbidden",
        fieldPath = ".apiKeySecret")
@EqualsAndHashCode
public class BenchmarkTarget {

    @Size(max = 253)
    @Pattern("^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$")
    @JsonPropertyDescription("Name of a ModelServer in this namespace; the run waits until it is inference-ready.")
    public String modelServer;

    @Size(max = 2048)
    @Pattern("^https?://[^\\s]+$")
    @JsonPropertyDescription("Base URL of an external OpenAI-compatible server, e.g. http://sglang.example:30000.")
    public String url;

    @Size(max = 256)
    @JsonPropertyDescription("Model name to request. Defaults to the ModelServer's served model name.")
    public String model;

    @Size(max = 2048)
    @Pattern("^https?://[^\\s]+$")
    @JsonPropertyDescription(
            "Prometheus endpoint of the external server, e.g. http://sglang.example:30000/metrics; the "
                    + "runner reads the url's /metrics without it. Not for a ModelServer, whose serving pods are read "
                    + "directly.")
    public String metricsUrl;

    @JsonPropertyDescription("Secret key holding the external url's API key, sent as a bearer token. Not for a "
            + "ModelServer, whose own spec.apiKeySecret is sent.")
    public SecretKeyReference apiKeySecret;
}
