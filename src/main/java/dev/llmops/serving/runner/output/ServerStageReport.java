package dev.llmops.serving.runner.output;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The server's own view of one stage, from its Prometheus metrics read at the stage's start and end (counter deltas
 * over that window, not lifetime averages) and gauges sampled about once a second during it, summed over the metrics
 * endpoints (one per replica). A figure the server does not export is absent.
 *
 * @param specAcceptLength generated tokens per speculative verify call over the window; only when verify calls moved
 * @param generationThroughput generated tokens per second of the window, as the server counted them
 * @param runningRequestsMean mean of the running-requests samples (summed over endpoints)
 * @param runningRequestsMax highest running-requests sample
 * @param queuedRequestsMax highest queued-requests sample
 * @param kvUsageMax highest KV-cache usage (0 to 1) any endpoint reported in a sample
 * @param cacheHitRate prefix-cache hit rate: cached over prompt tokens of the window, or else the gauge at the end
 * @param cacheHitRateSource {@code counters} or {@code gauge}: where {@code cacheHitRate} came from
 * @param generatedTokens the generation-tokens counter's delta
 * @param verifyCalls the verify-calls counter's delta, when the server exports it
 * @param windowSeconds from the start reading to the end reading
 * @param samples gauge samples taken during the stage
 * @param endpoints metrics endpoints read and summed
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ServerStageReport(
        @JsonProperty("spec_accept_length") Double specAcceptLength,
        @JsonProperty("generation_throughput") Double generationThroughput,
        @JsonProperty("running_requests_mean") Double runningRequestsMean,
        @JsonProperty("running_requests_max") Double runningRequestsMax,
        @JsonProperty("queued_requests_max") Double queuedRequestsMax,
        @JsonProperty("kv_usage_max") Double kvUsageMax,
        @JsonProperty("cache_hit_rate") Double cacheHitRate,
        @JsonProperty("cache_hit_rate_source") String cacheHitRateSource,
        @JsonProperty("generated_tokens") Double generatedTokens,
        @JsonProperty("verify_calls") Double verifyCalls,
        @JsonProperty("window_s") double windowSeconds,
        @JsonProperty("samples") int samples,
        @JsonProperty("endpoints") int endpoints) {}
