package dev.llmops.serving.api.v1alpha1.benchmarkrun;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;

/** What a run sent: whether two runs measured the same requests, and the shape of a replayed trace. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class WorkloadSummary {

    @JsonPropertyDescription("Digest of everything that decided each request's content (dataset, lengths, seed, "
            + "sampling); two runs with the same digest sent the same requests.")
    public String digest;

    @JsonPropertyDescription("The replayed window of a trace (spec.dataset.type Trace).")
    public TraceWindow trace;

    /** A replayed trace window: how many requests, how fast they arrive at 1x, how long they are, how they repeat. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @EqualsAndHashCode
    public static class TraceWindow {

        @JsonPropertyDescription("Requests in the window.")
        public Integer requests;

        @JsonPropertyDescription("Seconds from the window's first request to its last, at 1x.")
        public Double spanSeconds;

        @JsonPropertyDescription("Mean arrival rate at 1x, requests per second; each stage's requestRate is this times "
                + "its speed, next to its achievedRequestRate.")
        public Double requestRate;

        @JsonPropertyDescription("Input tokens per request: p50, p90, max.")
        public LengthPercentiles inputTokens;

        @JsonPropertyDescription("Output tokens per request: p50, p90, max.")
        public LengthPercentiles outputTokens;

        @JsonPropertyDescription("The share of the window's prompt blocks whose hash id came earlier in it: what an "
                + "unbounded prefix cache could serve, next to each stage's cachedPromptShare.")
        public Double repeatedBlockShare;
    }

    /** A token-length distribution by its median, 90th percentile and maximum. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @EqualsAndHashCode
    public static class LengthPercentiles {
        public Integer p50;
        public Integer p90;
        public Integer max;
    }
}
