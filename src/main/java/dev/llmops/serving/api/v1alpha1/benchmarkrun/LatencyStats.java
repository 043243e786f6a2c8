package dev.llmops.serving.api.v1alpha1.benchmarkrun;

import com.fasterxml.jackson.annotation.JsonInclude;
import lombok.EqualsAndHashCode;

/** Mean and percentiles of one latency metric. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class LatencyStats {
    public Double mean;
    public Double p50;
    public Double p90;
    public Double p99;
    public Double max;
}
