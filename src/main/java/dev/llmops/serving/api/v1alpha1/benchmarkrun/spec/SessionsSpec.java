package dev.llmops.serving.api.v1alpha1.benchmarkrun.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.llmops.serving.api.contract.RunnerFlags;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import lombok.EqualsAndHashCode;

/**
 * Multi-turn conversations: each concurrent stream of the sweep is a user sending one conversation's turns, each with
 * the whole history before it, so the prefix grows turn by turn.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class SessionsSpec {

    @Required
    @Min(1)
    @Max(RunnerFlags.MAX_SESSION_TURNS)
    @JsonPropertyDescription("Requests per conversation.")
    public Integer turns;

    @Required
    @Min(1)
    @Max(131072)
    @JsonPropertyDescription("Tokens of a conversation's first message: its context (a document, a code file, a task).")
    public Integer firstTurnTokens;

    @Required
    @Min(1)
    @Max(131072)
    @JsonPropertyDescription("Tokens of each later user message.")
    public Integer turnTokens;

    @Min(1)
    @Max(1048576)
    @JsonPropertyDescription("Output tokens per request; replaces spec.sampling.maxTokens. Each earlier reply goes "
            + "back in the history as this many tokens of seeded text, not the server's answer, so two runs send the "
            + "same requests.")
    public Integer outputLength;

    @Default("0")
    @Min(0)
    @Max(600)
    @JsonPropertyDescription("Mean seconds a user pauses between a reply and the next turn, drawn exponentially and "
            + "seeded; the stream is idle meanwhile, as a real user's would be.")
    public Double thinkTimeSeconds = 0.0;

    @Default("X-Session-ID")
    @Pattern("^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$")
    @JsonPropertyDescription("HTTP header carrying each conversation's id, for routers that keep a session on one "
            + "replica (SGLang's gateway reads X-SMG-Routing-Key).")
    public String sessionHeader = "X-Session-ID";
}
