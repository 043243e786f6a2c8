package dev.llmops.serving.runner.output;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The client side of one shard in a stage: its lag, CPU and schedule lag, and the warning only it can judge, since a
 * sum over shards would hide one shard that ran out of CPU.
 *
 * @param shard the shard's index
 * @param lagP99Millis p99 of how late its threads ran their tasks
 * @param cpuSeconds its process CPU time during the stage, on {@code processors} processors
 * @param scheduleLagP99Millis of a rate stage: p99 of how late its sends left, else null
 * @param warning that the client may have been the bottleneck, else null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ShardClientReport(
        @JsonProperty("shard") int shard,
        @JsonProperty("client_lag_p99_ms") double lagP99Millis,
        @JsonProperty("client_lag_max_ms") double lagMaxMillis,
        @JsonProperty("client_cpu_seconds") double cpuSeconds,
        @JsonProperty("processors") int processors,
        @JsonProperty("schedule_lag_p99_ms") Double scheduleLagP99Millis,
        @JsonProperty("warning") String warning) {}
