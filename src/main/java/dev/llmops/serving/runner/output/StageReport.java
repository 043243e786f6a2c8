package dev.llmops.serving.runner.output;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.llmops.serving.api.contract.RunPlan;
import dev.llmops.serving.runner.statistics.LatencySummary;
import dev.llmops.serving.runner.workload.Arrival;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The figures of one stage, under the field names of SGLang's and vLLM's bench_serving where the meaning is the same
 * (duration, completed, failed, request_throughput, mean_ttft_ms, ...), so existing scripts read them.
 *
 * @param maxConcurrency the requested concurrency (closed loop and single phase), or the cap on requests in flight of
 *     a rate stage
 * @param requestRate the requested rate (open loop)
 * @param durationSeconds the window: first send (intended send for a rate) to last completion
 * @param totalCachedTokens prompt tokens the server's prefix cache served, as its usage reported them ({@code
 *     prompt_tokens_details.cached_tokens}, SGLang's with {@code --enable-cache-report}); null when no request's usage
 *     carried them
 * @param cachedPromptShare {@code total_cached_tokens} over the prompt tokens of the requests that reported them: how
 *     much of the stage's prefill the cache saved; null when none did, or their prompts were empty
 * @param achievedConcurrency Σ E2E / window (Little's law), next to the requested one
 * @param drainTailSeconds last completion minus last send: how long stragglers stretched the window
 * @param shortOutputs successful requests with ignore_eos that returned fewer than max_tokens tokens
 * @param countedOutputs successful requests without usage, whose output tokens were counted from chunks
 * @param latencies ttft, ttfc (first content token), tpot, itl, e2e_latency and, for rates, schedule_lag
 * @param errors one example message per failure class
 * @param clientLagP99Millis p99 of how late the client's own threads ran their tasks during the stage
 * @param clientCpuUtilisation process CPU time over the window divided by the processors available
 * @param arrival how a rate stage spaced its requests
 * @param achievedRequestRate of a rate stage: sends after the first over the time from the first intended send to the
 *     last actual send
 * @param sloAttainment with an SLO: good requests over all requests of the stage (failures are not good)
 * @param goodputRequestRate with an SLO: good requests per second of the window
 * @param goodputOutputThroughput with an SLO: output tokens of good requests per second of the window
 * @param stoppedEarly true when a capacity probe stopped sending because the server was over-saturated
 * @param specAcceptLength the server's acceptance length over the stage, {@code server.spec_accept_length} repeated
 * @param server the server's own figures from its metrics, when it exports them
 * @param turns with sessions, each turn's figures in turn order; else null
 * @param shards with several shards, each shard's client in the stage; else null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({
    "name",
    "mode",
    "max_concurrency",
    "request_rate",
    "arrival",
    "achieved_request_rate",
    "duration",
    "completed",
    "failed",
    "failures",
    "slo_attainment",
    "goodput_request_rate",
    "goodput_output_throughput",
    "stopped_early",
    "spec_accept_length"
})
public record StageReport(
        @JsonProperty("name") String name,
        @JsonProperty("mode") RunPlan.Mode mode,
        @JsonProperty("max_concurrency") Integer maxConcurrency,
        @JsonProperty("request_rate") Double requestRate,
        @JsonProperty("duration") double durationSeconds,
        @JsonProperty("completed") int completed,
        @JsonProperty("failed") int failed,
        @JsonProperty("failures") Map<String, Integer> failures,
        @JsonProperty("total_input_tokens") long totalInputTokens,
        @JsonProperty("total_output_tokens") long totalOutputTokens,
        @JsonProperty("total_reasoning_tokens") long totalReasoningTokens,
        @JsonProperty("total_cached_tokens") Long totalCachedTokens,
        @JsonProperty("cached_prompt_share") Double cachedPromptShare,
        @JsonProperty("request_throughput") double requestThroughput,
        @JsonProperty("output_throughput") double outputThroughput,
        @JsonProperty("total_token_throughput") double totalTokenThroughput,
        @JsonProperty("concurrency") double achievedConcurrency,
        @JsonProperty("drain_tail_s") double drainTailSeconds,
        @JsonProperty("short_outputs") int shortOutputs,
        @JsonProperty("counted_output_requests") int countedOutputs,
        @JsonIgnore Map<String, LatencySummary> latencies,
        @JsonProperty("errors") Map<String, String> errors,
        @JsonProperty("client_lag_p99_ms") double clientLagP99Millis,
        @JsonProperty("client_lag_max_ms") double clientLagMaxMillis,
        @JsonProperty("client_cpu_seconds") double clientCpuSeconds,
        @JsonProperty("client_cpu_utilisation") double clientCpuUtilisation,
        @JsonProperty("warnings") List<String> warnings,
        @JsonProperty("arrival") Arrival arrival,
        @JsonProperty("achieved_request_rate") Double achievedRequestRate,
        @JsonProperty("slo_attainment") Double sloAttainment,
        @JsonProperty("goodput_request_rate") Double goodputRequestRate,
        @JsonProperty("goodput_output_throughput") Double goodputOutputThroughput,
        @JsonProperty("stopped_early") Boolean stoppedEarly,
        @JsonProperty("spec_accept_length") Double specAcceptLength,
        @JsonProperty("server") ServerStageReport server,
        @JsonProperty("turns") List<TurnReport> turns,
        @JsonProperty("shards") List<ShardClientReport> shards) {

    public static final String TTFT = "ttft";
    public static final String TTFC = "ttfc";
    public static final String TPOT = "tpot";
    public static final String ITL = "itl";
    public static final String E2E = "e2e_latency";
    public static final String SCHEDULE_LAG = "schedule_lag";

    /** This report with the server's figures of the stage (null for none). */
    public StageReport withServer(ServerStageReport value) {
        return new StageReport(
                name,
                mode,
                maxConcurrency,
                requestRate,
                durationSeconds,
                completed,
                failed,
                failures,
                totalInputTokens,
                totalOutputTokens,
                totalReasoningTokens,
                totalCachedTokens,
                cachedPromptShare,
                requestThroughput,
                outputThroughput,
                totalTokenThroughput,
                achievedConcurrency,
                drainTailSeconds,
                shortOutputs,
                countedOutputs,
                latencies,
                errors,
                clientLagP99Millis,
                clientLagMaxMillis,
                clientCpuSeconds,
                clientCpuUtilisation,
                warnings,
                arrival,
                achievedRequestRate,
                sloAttainment,
                goodputRequestRate,
                goodputOutputThroughput,
                stoppedEarly,
                value == null ? null : value.specAcceptLength(),
                value,
                turns,
                shards);
    }

    /** A metric's summary, or null when nothing was recorded for it. */
    public LatencySummary latency(String metric) {
        return latencies.get(metric);
    }

    /** mean_&lt;metric&gt;_ms, median_..., p90_..., p99_..., max_... for every metric with values. */
    @JsonAnyGetter
    Map<String, Double> latencyFields() {
        Map<String, Double> fields = new LinkedHashMap<>();
        latencies.forEach((metric, summary) -> {
            fields.put("mean_" + metric + "_ms", summary.mean());
            fields.put("median_" + metric + "_ms", summary.median());
            fields.put("p90_" + metric + "_ms", summary.p90());
            fields.put("p99_" + metric + "_ms", summary.p99());
            fields.put("max_" + metric + "_ms", summary.max());
        });
        return fields;
    }
}
