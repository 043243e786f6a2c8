package dev.llmops.serving.api.v1alpha1.benchmarkrun;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;

/** One turn of a stage's multi-turn sessions: whether the prefix cache keeps later turns' first token as fast. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class TurnResult {

    @JsonPropertyDescription("The turn, from 1.")
    public Integer turn;

    @JsonPropertyDescription("Requests of this turn that completed.")
    public Integer completed;

    @JsonPropertyDescription("Median time to first token of the turn's requests, in milliseconds.")
    public Double ttftP50Millis;

    @JsonPropertyDescription("99th-percentile time to first token of the turn's requests, in milliseconds.")
    public Double ttftP99Millis;

    @JsonPropertyDescription("The share of the turn's prompt tokens the server served from its prefix cache, 0 to 1, "
            + "as its usage reported them; absent when it reported none.")
    public Double cachedPromptShare;
}
