package dev.llmops.serving.runner.output;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.llmops.serving.runner.statistics.LatencySummary;

/**
 * One turn of a stage's sessions, over every conversation that reached it: how TTFT and the prefix cache's share of
 * the prompt change as the history grows. With the cache on, later turns' TTFT stays flat; with it off, it rises.
 *
 * @param turn the turn, from 1
 * @param meanInputTokens the mean prompt tokens of the turn's successful requests, history included
 * @param cachedPromptShare the turn's cached prompt tokens over its prompt tokens, as the server's usage reported
 *     them; null when none did
 * @param meanTtftMillis mean TTFT of the turn's successful requests; null when none succeeded, as the percentiles
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TurnReport(
        @JsonProperty("turn") int turn,
        @JsonProperty("completed") int completed,
        @JsonProperty("failed") int failed,
        @JsonProperty("mean_input_tokens") double meanInputTokens,
        @JsonProperty("cached_prompt_share") Double cachedPromptShare,
        @JsonProperty("mean_ttft_ms") Double meanTtftMillis,
        @JsonProperty("median_ttft_ms") Double medianTtftMillis,
        @JsonProperty("p90_ttft_ms") Double p90TtftMillis,
        @JsonProperty("p99_ttft_ms") Double p99TtftMillis) {

    /** The figures of {@code turn} from its counts and its TTFT summary (null when none succeeded). */
    public static TurnReport of(
            int turn, int completed, int failed, double meanInputTokens, Double cachedShare, LatencySummary ttft) {
        return new TurnReport(
                turn,
                completed,
                failed,
                meanInputTokens,
                cachedShare,
                ttft == null ? null : ttft.mean(),
                ttft == null ? null : ttft.median(),
                ttft == null ? null : ttft.p90(),
                ttft == null ? null : ttft.p99());
    }
}
