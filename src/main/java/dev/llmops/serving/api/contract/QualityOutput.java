package dev.llmops.serving.api.contract;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * One greedy (temperature 0) output of the quality stage, token by token, so two servers' outputs for the same prompt
 * can be compared for exact match and shared prefix.
 *
 * @param prompt the single-request prompt's position
 * @param tokens the output's tokens as text pieces, at most {@link #MAX_TOKENS}
 * @param finishReason the server's finish_reason
 */
public record QualityOutput(
        @JsonProperty("p") int prompt,
        @JsonProperty("tokens") List<String> tokens,
        @JsonProperty("finish") String finishReason) {

    public static final int MAX_TOKENS = 1024;

    /** The longest token piece kept, in characters. */
    public static final int MAX_PIECE_CHARS = 64;

    public QualityOutput {
        tokens = tokens == null ? List.of() : List.copyOf(tokens);
    }
}
