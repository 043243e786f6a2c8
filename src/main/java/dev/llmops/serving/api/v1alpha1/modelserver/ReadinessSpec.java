package dev.llmops.serving.api.v1alpha1.modelserver;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import lombok.EqualsAndHashCode;

/** The real-generation probe that gates a pod's readiness, and how long a model may take to load. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class ReadinessSpec {

    /** The most tokens a probe may ask for: it proves the server generates, and its reader holds a record per token. */
    public static final int MAX_PROBE_TOKENS = 256;

    @Default("Reply with one short sentence that says you are ready.")
    @Size(min = 1, max = 2048)
    @JsonPropertyDescription("Prompt of the chat completion that proves a pod generates.")
    public String probePrompt = "Reply with one short sentence that says you are ready.";

    @Default("8")
    @Min(1)
    @Max(MAX_PROBE_TOKENS)
    @JsonPropertyDescription("max_tokens of the probe completion.")
    public Integer probeMaxTokens = 8;

    @Default("60")
    @Min(10)
    @Max(3600)
    @JsonPropertyDescription(
            "Seconds between real generations once a pod is ready (cheap /health checks run in between).")
    public Integer probeIntervalSeconds = 60;

    @Default("1800")
    @Min(60)
    @Max(86400)
    @JsonPropertyDescription(
            "Seconds a pod may take from start to its first successful generation before it counts as failed to start.")
    public Integer startupTimeoutSeconds = 1800;
}
