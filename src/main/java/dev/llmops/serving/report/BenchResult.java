package dev.llmops.serving.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmops.serving.api.contract.CapacityMode;
import dev.llmops.serving.api.contract.CapacityOutcome;
import dev.llmops.serving.api.contract.PeakRule;
import dev.llmops.serving.api.contract.PlainNumber;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkSummary;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.CapacityResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.LatencyStats;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.Provenance;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.SingleRequestResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The JSON report {@code bench --json-out} writes, read into a BenchmarkRun held in memory, so that every report of a
 * run in a cluster renders a run made on a laptop too; and the fields that decided its requests, so that two results
 * are compared only when they sent the same requests.
 *
 * @param run the result as a succeeded BenchmarkRun (failed when every request failed) named {@code name}
 * @param workload the digest of what decided each request's content, null when the result predates it
 * @param workloadFields the fields of that workload the result records, by their names in the JSON
 */
public record BenchResult(BenchmarkRun run, String workload, Map<String, String> workloadFields) {

    /** Most stages a result may hold: the bound of the runner's samples, which a real run stays within. */
    static final int MAX_STAGES = 128;
    /** Most single-request prompts and warnings a result may hold. */
    static final int MAX_ITEMS = 1024;

    private static final List<String> WORKLOAD_FIELDS =
            List.of("endpoint", "dataset", "seed", "max_tokens", "temperature", "top_p", "ignore_eos");

    /** Whether a parsed document has the shape of a bench result: no kind, a model, max_tokens and a stage list. */
    static boolean shapeOf(JsonNode document) {
        return document != null
                && document.isObject()
                && !document.has("kind")
                && document.path("model").isTextual()
                && document.path("max_tokens").isNumber()
                && document.path("stages").isArray();
    }

    /**
     * @param name what the reports call the run
     * @param source where the document came from, named in error messages
     * @throws IllegalArgumentException naming the field that does not fit a bench result
     */
    static BenchResult of(JsonNode document, String name, String source) {
        if (document.path("stages").size() > MAX_STAGES) {
            throw new IllegalArgumentException(
                    source + ": stages holds more than " + MAX_STAGES + " stages, more than bench ever writes");
        }
        BenchmarkRunStatus status = new BenchmarkRunStatus();
        status.target = text(document, "base_url", source);
        status.startTime = text(document, "started_at", source);
        for (JsonNode stage : document.path("stages")) {
            status.stages.add(stage(stage, source));
        }
        for (JsonNode single : items(document, "single_requests", source)) {
            status.singleRequests.add(single(single, source));
        }
        for (JsonNode warning : items(document, "warnings", source)) {
            status.warnings.add(warning.asText());
        }
        status.summary = summary(document, source);
        status.capacity = document.hasNonNull("capacity") ? capacity(document.get("capacity"), source) : null;
        Double completed = number(document, "completed", source);
        boolean everyRequestFailed = (completed == null || completed == 0)
                && status.summary.failedRequests != null
                && status.summary.failedRequests > 0;
        status.phase = everyRequestFailed ? BenchmarkRunPhase.Failed : BenchmarkRunPhase.Succeeded;
        status.provenance = new Provenance();
        status.provenance.model = text(document, "model", source);
        BenchmarkRun run = new BenchmarkRun();
        ObjectMeta metadata = new ObjectMeta();
        metadata.setName(name);
        run.setMetadata(metadata);
        run.setStatus(status);
        Map<String, String> fields = new LinkedHashMap<>();
        for (String field : WORKLOAD_FIELDS) {
            JsonNode value = document.get(field);
            if (value != null && value.isValueNode()) {
                fields.put(field, value.asText());
            }
        }
        if (!status.singleRequests.isEmpty()) {
            fields.put(
                    "single-request prompts",
                    status.singleRequests.stream().map(s -> s.prompt).collect(Collectors.joining("\n")));
        }
        return new BenchResult(run, text(document, "workload", source), fields);
    }

    /**
     * What differs between this result's workload and another's, as "max_tokens 64 vs 32", one entry per field; empty
     * when every field both record agrees.
     */
    public List<String> workloadDifferences(BenchResult other) {
        List<String> differences = new ArrayList<>();
        for (var field : workloadFields.entrySet()) {
            String theirs = other.workloadFields.get(field.getKey());
            if (theirs != null && !Objects.equals(field.getValue(), theirs)) {
                differences.add(
                        field.getKey().contains(" ")
                                ? field.getKey() + " differ"
                                : field.getKey() + " " + field.getValue() + " vs " + theirs);
            }
        }
        return differences;
    }

    private static StageResult stage(JsonNode stage, String source) {
        String where = source + " stage " + stage.path("name").asText("?");
        if (!stage.isObject() || !stage.path("name").isTextual()) {
            throw new IllegalArgumentException(source + ": each item of stages needs a name");
        }
        StageResult result = new StageResult();
        result.name = stage.get("name").asText();
        result.requestRate = number(stage, "request_rate", where);
        Double concurrency = number(stage, "max_concurrency", where);
        result.concurrency = concurrency == null ? null : concurrency.intValue();
        result.achievedConcurrency = number(stage, "concurrency", where);
        Double completed = number(stage, "completed", where);
        result.completed = completed == null ? null : completed.intValue();
        Double failed = number(stage, "failed", where);
        result.failed = failed == null ? null : failed.intValue();
        result.durationSeconds = number(stage, "duration", where);
        result.outputTokensPerSecond = number(stage, "output_throughput", where);
        result.totalTokensPerSecond = number(stage, "total_token_throughput", where);
        result.requestsPerSecond = number(stage, "request_throughput", where);
        result.ttftMillis = latency(stage, "ttft", where);
        result.tpotMillis = latency(stage, "tpot", where);
        result.itlMillis = latency(stage, "itl", where);
        result.e2eMillis = latency(stage, "e2e_latency", where);
        result.achievedRequestRate = number(stage, "achieved_request_rate", where);
        result.scheduleLagMillis = latency(stage, "schedule_lag", where);
        if (result.scheduleLagMillis != null) {
            result.scheduleLagMillis.mean = null;
            result.scheduleLagMillis.p90 = null;
        }
        result.sloAttainment = number(stage, "slo_attainment", where);
        result.goodputRequestsPerSecond = number(stage, "goodput_request_rate", where);
        result.goodputOutputTokensPerSecond = number(stage, "goodput_output_throughput", where);
        result.specAcceptLength = number(stage, "spec_accept_length", where);
        return result;
    }

    /** mean_, median_, p90_, p99_ and max_METRIC_ms, as bench_serving names them; null when the stage has none. */
    private static LatencyStats latency(JsonNode stage, String metric, String where) {
        LatencyStats stats = new LatencyStats();
        stats.mean = number(stage, "mean_" + metric + "_ms", where);
        stats.p50 = number(stage, "median_" + metric + "_ms", where);
        stats.p90 = number(stage, "p90_" + metric + "_ms", where);
        stats.p99 = number(stage, "p99_" + metric + "_ms", where);
        stats.max = number(stage, "max_" + metric + "_ms", where);
        boolean none = stats.mean == null && stats.p50 == null && stats.p90 == null && stats.p99 == null;
        return none && stats.max == null ? null : stats;
    }

    private static SingleRequestResult single(JsonNode single, String source) {
        String where = source + " single_requests";
        SingleRequestResult result = new SingleRequestResult();
        result.prompt = text(single, "prompt", where);
        Double tokens = number(single, "output_tokens", where);
        result.outputTokens = tokens == null ? null : tokens.intValue();
        result.tokensPerSecond = number(single, "tokens_per_second", where);
        result.ttftMillis = number(single, "ttft_ms", where);
        result.e2eMillis = number(single, "e2e_latency_ms", where);
        return result;
    }

    private static BenchmarkSummary summary(JsonNode document, String source) {
        BenchmarkSummary summary = new BenchmarkSummary();
        summary.singleStreamTokensPerSecond = number(document, "single_stream_tokens_per_second", source);
        summary.peakTokensPerSecond = number(document, "peak_output_throughput", source);
        Double peak = number(document, "peak_concurrency", source);
        summary.peakConcurrency = peak == null ? null : peak.intValue();
        String rule = text(document, "peak_rule", source);
        summary.peakRule = rule == null
                ? null
                : Arrays.stream(PeakRule.values())
                        .filter(known -> known.name().equals(rule))
                        .findFirst()
                        .orElseThrow(() -> new IllegalArgumentException(
                                source + ": peak_rule " + rule + " is not one bench writes"));
        Double knee = number(document, "knee_concurrency", source);
        summary.kneeConcurrency = knee == null ? null : knee.intValue();
        Double failed = number(document, "failed", source);
        summary.failedRequests = failed == null ? null : failed.intValue();
        return summary;
    }

    /** The capacity as a status shows it, its load as kubectl get does: 24 streams, 7.5 req/s, none, >= when cut. */
    private static CapacityResult capacity(JsonNode capacity, String source) {
        String where = source + " capacity";
        CapacityResult result = new CapacityResult();
        String mode = text(capacity, "mode", where);
        String outcome = text(capacity, "outcome", where);
        result.mode = CapacityMode.fromText(mode)
                .orElseThrow(() -> new IllegalArgumentException(where + ": mode " + mode + " is not one bench writes"));
        result.outcome = CapacityOutcome.fromText(outcome)
                .orElseThrow(() ->
                        new IllegalArgumentException(where + ": outcome " + outcome + " is not one bench writes"));
        Double concurrency = number(capacity, "max_concurrency", where);
        result.concurrency = concurrency == null ? null : concurrency.intValue();
        result.requestRate = number(capacity, "max_request_rate", where);
        result.message = text(capacity, "reason", where);
        result.outputTokensPerSecond = number(capacity, "output_throughput", where);
        result.requestsPerSecond = number(capacity, "request_throughput", where);
        result.sloAttainment = number(capacity, "slo_attainment", where);
        result.goodputRequestsPerSecond = number(capacity, "goodput_request_rate", where);
        result.goodputOutputTokensPerSecond = number(capacity, "goodput_output_throughput", where);
        result.ttftP99Millis = number(capacity, "p99_ttft_ms", where);
        result.tpotP99Millis = number(capacity, "p99_tpot_ms", where);
        result.itlP99Millis = number(capacity, "p99_itl_ms", where);
        result.e2eP99Millis = number(capacity, "p99_e2e_latency_ms", where);
        result.probes =
                capacity.path("probes").isArray() ? capacity.get("probes").size() : null;
        result.load = load(result);
        return result;
    }

    private static String load(CapacityResult capacity) {
        if (capacity.outcome == CapacityOutcome.NeverMet) {
            return "none";
        }
        String load = capacity.mode == CapacityMode.Rate
                ? (capacity.requestRate == null ? "?" : PlainNumber.text(capacity.requestRate)) + " req/s"
                : capacity.concurrency + (Integer.valueOf(1).equals(capacity.concurrency) ? " stream" : " streams");
        return capacity.outcome == CapacityOutcome.BudgetExhausted ? ">=" + load : load;
    }

    private static Iterable<JsonNode> items(JsonNode document, String field, String source) {
        JsonNode items = document.path(field);
        if (items.isMissingNode() || items.isNull()) {
            return List.of();
        }
        if (!items.isArray() || items.size() > MAX_ITEMS) {
            throw new IllegalArgumentException(source + ": " + field + " is not a list of at most " + MAX_ITEMS);
        }
        return items;
    }

    /** A number field, null when absent; anything else there is refused, naming the field. */
    private static Double number(JsonNode node, String field, String where) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isNumber() || !Double.isFinite(value.asDouble())) {
            throw new IllegalArgumentException(where + ": " + field + " is not a number");
        }
        return value.asDouble();
    }

    /** A text field, null when absent; anything but text there is refused, naming the field. */
    private static String text(JsonNode node, String field, String where) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw new IllegalArgumentException(where + ": " + field + " is not text");
        }
        return value.asText();
    }
}
