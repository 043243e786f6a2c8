package dev.llmops.serving.api.v1alpha1.benchmarkrun;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Objects;

/** Mean and percentiles of one latency metric. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class LatencyStats {
    public Double mean;
    public Double p50;
    public Double p90;
    public Double p99;
    public Double max;

    @Override
    public boolean equals(Object other) {
        return other instanceof LatencyStats that
                && Objects.equals(mean, that.mean)
                && Objects.equals(p50, that.p50)
                && Objects.equals(p90, that.p90)
                && Objects.equals(p99, that.p99)
                && Objects.equals(max, that.max);
    }

    @Override
    public int hashCode() {
        return Objects.hash(mean, p50, p90, p99, max);
    }
}
