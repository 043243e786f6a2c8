package dev.llmops.serving.runner.output;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.llmops.serving.api.contract.PeakRule;
import dev.llmops.serving.runner.plan.BenchmarkConfig;
import dev.llmops.serving.runner.plan.PeakStage;
import dev.llmops.serving.runner.plan.SaturationKnee;
import dev.llmops.serving.runner.plan.Slo;
import dev.llmops.serving.runner.workload.TraceReplay;
import dev.llmops.serving.runner.workload.WorkloadDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * The full result of a run, written as JSON with {@code --json-out}: every stage's figures, each single-request
 * prompt, the headline numbers and what the runner warns about.
 *
 * @param seed the seed of the run's prompts and arrivals
 * @param workload the digest of what decided each request's content, as in the samples: two results of one workload
 *     sent the same requests
 * @param trace the shape of a replayed trace's window, with a trace dataset
 * @param singleStreamTokensPerSecond mean tokens/s of the successful single-request prompts
 * @param peakOutputThroughput output tokens/s at the peak stage
 * @param peakStage the stage the peak is reported at, see {@link PeakStage}
 * @param peakRule which rule chose the peak stage
 * @param kneeConcurrency see {@link SaturationKnee}
 * @param slo the SLO's limits and attainment target, when one was given
 * @param capacity the result of the capacity search, when one ran
 * @param shards how many shards sent the run's requests, when more than one did
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BenchmarkReport(
        @JsonProperty("model") String model,
        @JsonProperty("base_url") String baseUrl,
        @JsonProperty("endpoint") String endpoint,
        @JsonProperty("dataset") String dataset,
        @JsonProperty("max_tokens") int maxTokens,
        @JsonProperty("temperature") double temperature,
        @JsonProperty("top_p") double topP,
        @JsonProperty("ignore_eos") boolean ignoreEos,
        @JsonProperty("seed") long seed,
        @JsonProperty("workload") String workload,
        @JsonProperty("trace") TraceReplay.Shape trace,
        @JsonProperty("started_at") String startedAt,
        @JsonProperty("stages") List<StageReport> stages,
        @JsonProperty("single_requests") List<SingleRequestReport> singleRequests,
        @JsonProperty("single_stream_tokens_per_second") Double singleStreamTokensPerSecond,
        @JsonProperty("peak_output_throughput") Double peakOutputThroughput,
        @JsonProperty("peak_stage") String peakStage,
        @JsonProperty("peak_concurrency") Integer peakConcurrency,
        @JsonProperty("peak_rule") PeakRule peakRule,
        @JsonProperty("knee_concurrency") Integer kneeConcurrency,
        @JsonProperty("completed") int completed,
        @JsonProperty("failed") int failed,
        @JsonProperty("failures") Map<String, Integer> failures,
        @JsonProperty("warnings") List<String> warnings,
        @JsonProperty("slo") Slo slo,
        @JsonProperty("capacity") CapacityReport capacity,
        @JsonProperty("shards") Integer shards) {

    public static BenchmarkReport of(
            BenchmarkConfig config,
            String startedAt,
            List<StageReport> stages,
            List<SingleRequestReport> singles,
            List<String> runWarnings,
            CapacityReport capacity) {
        return new BenchmarkReport(
                        config.model(),
                        config.url().toString(),
                        config.endpoint().path(),
                        config.dataset().label(),
                        config.measuredMaxTokens(),
                        config.temperature(),
                        config.topP(),
                        config.ignoreEos(),
                        config.seed(),
                        WorkloadDigest.of(config),
                        config.trace() == null ? null : config.trace().shape(),
                        startedAt,
                        List.of(),
                        List.copyOf(singles),
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        0,
                        0,
                        Map.of(),
                        List.of(),
                        config.slo().hasLimits() ? config.slo() : null,
                        capacity,
                        null)
                .withStages(stages, runWarnings, null);
    }

    /**
     * This report's run with {@code stages} and the run-level warnings {@code runWarnings}, its headline figures,
     * counts and warnings computed from them, sent by {@code shardCount} shards (null for one runner): how merged
     * shards become one report.
     */
    public BenchmarkReport withStages(List<StageReport> stages, List<String> runWarnings, Integer shardCount) {
        OptionalDouble singleStreamMean = singleRequests.stream()
                .filter(single -> single.failure() == null)
                .mapToDouble(SingleRequestReport::tokensPerSecond)
                .average();
        Integer knee = SaturationKnee.find(stages);
        PeakStage.Choice peak =
                PeakStage.choose(stages, knee, slo == null ? Slo.NONE : slo).orElse(null);
        Map<String, Integer> allFailures = new TreeMap<>();
        stages.forEach(
                stage -> stage.failures().forEach((failure, count) -> allFailures.merge(failure, count, Integer::sum)));
        List<String> allWarnings = new ArrayList<>(runWarnings);
        stages.forEach(stage -> allWarnings.addAll(stage.warnings()));
        return new BenchmarkReport(
                model,
                baseUrl,
                endpoint,
                dataset,
                maxTokens,
                temperature,
                topP,
                ignoreEos,
                seed,
                workload,
                trace,
                startedAt,
                List.copyOf(stages),
                singleRequests,
                singleStreamMean.isPresent() ? singleStreamMean.getAsDouble() : null,
                peak == null ? null : peak.stage().outputThroughput(),
                peak == null ? null : peak.stage().name(),
                peak == null ? null : peak.stage().maxConcurrency(),
                peak == null ? null : peak.rule(),
                knee,
                stages.stream().mapToInt(StageReport::completed).sum(),
                stages.stream().mapToInt(StageReport::failed).sum(),
                allFailures,
                List.copyOf(allWarnings),
                slo,
                capacity,
                shardCount);
    }

    /** The report as indented JSON, as {@code --json-out} writes it. */
    public String toJson() {
        try {
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** True when requests were sent and not one of them succeeded. */
    public boolean everyRequestFailed() {
        return completed == 0 && failed > 0;
    }
}
