package dev.llmops.serving.runner.output;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.llmops.serving.api.contract.CapacityMode;
import dev.llmops.serving.runner.plan.CapacitySearch;
import java.util.List;

/**
 * The result of a capacity search in the run's JSON report: the highest load that met the SLO, how the search ended,
 * the figures of the probe at that load (absent when no load met it) and every probe it made.
 *
 * @param maxConcurrency the capacity in streams (concurrency mode)
 * @param maxRequestRate the capacity in requests/s (rate mode)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CapacityReport(
        @JsonProperty("mode") String mode,
        @JsonProperty("max_concurrency") Integer maxConcurrency,
        @JsonProperty("max_request_rate") Double maxRequestRate,
        @JsonProperty("outcome") String outcome,
        @JsonProperty("reason") String reason,
        @JsonProperty("output_throughput") Double outputThroughput,
        @JsonProperty("request_throughput") Double requestThroughput,
        @JsonProperty("slo_attainment") Double sloAttainment,
        @JsonProperty("goodput_request_rate") Double goodputRequestRate,
        @JsonProperty("goodput_output_throughput") Double goodputOutputThroughput,
        @JsonProperty("p99_ttft_ms") Double p99TtftMillis,
        @JsonProperty("p99_tpot_ms") Double p99TpotMillis,
        @JsonProperty("p99_itl_ms") Double p99ItlMillis,
        @JsonProperty("p99_e2e_latency_ms") Double p99E2eMillis,
        @JsonProperty("probes") List<Probe> probes) {

    /** One probe: its stage name, load and verdict. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Probe(
            @JsonProperty("name") String name,
            @JsonProperty("max_concurrency") Integer maxConcurrency,
            @JsonProperty("request_rate") Double requestRate,
            @JsonProperty("slo_attainment") Double sloAttainment,
            @JsonProperty("met") boolean met,
            @JsonProperty("stopped_early") boolean stoppedEarly) {}

    /** The report of a finished search. */
    public static CapacityReport of(CapacityMode mode, CapacitySearch search) {
        boolean concurrency = mode == CapacityMode.Concurrency;
        List<Probe> probes = search.verdicts().stream()
                .map(verdict -> new Probe(
                        verdict.report().name(),
                        concurrency ? (int) verdict.load() : null,
                        concurrency ? null : verdict.load(),
                        verdict.report().sloAttainment(),
                        verdict.met(),
                        verdict.stoppedEarly()))
                .toList();
        CapacitySearch.Verdict boundary = search.boundary();
        StageReport at = boundary == null ? null : boundary.report();
        return new CapacityReport(
                mode.text(),
                at != null && concurrency ? (int) boundary.load() : null,
                at != null && !concurrency ? boundary.load() : null,
                search.outcome().text(),
                search.reason(),
                at == null ? null : at.outputThroughput(),
                at == null ? null : at.requestThroughput(),
                at == null ? null : at.sloAttainment(),
                at == null ? null : at.goodputRequestRate(),
                at == null ? null : at.goodputOutputThroughput(),
                p99(at, StageReport.TTFT),
                p99(at, StageReport.TPOT),
                p99(at, StageReport.ITL),
                p99(at, StageReport.E2E),
                probes);
    }

    private static Double p99(StageReport stage, String metric) {
        return stage == null || stage.latency(metric) == null
                ? null
                : stage.latency(metric).p99();
    }
}
