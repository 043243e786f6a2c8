package dev.llmops.serving.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;

/** Mean and percentiles of one latency metric. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class LatencyStats {
    public Double mean;
    public Double p50;
    public Double p90;
    public Double p99;
    public Double max;
}
