package dev.llmops.serving.operator.benchmark;

import dev.llmops.serving.api.contract.CompactSummary;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkSummary;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.LatencyStats;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.SingleRequestResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.TurnResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.WorkloadSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Copies a validated runner summary into the BenchmarkRun status: stages, single requests, headline, capacity,
 * warnings.
 */
public final class BenchmarkResults {

    /** Opens the warning that counts failed requests by class, e.g. {@code connect=92, disconnect=4}. */
    static final String FAILURE_CLASSES_WARNING = "Failed requests by class: ";

    static final String TRUNCATED_WARNING =
            "The runner shortened its summary to fit a termination message: some figures are missing.";

    private BenchmarkResults() {}

    public static void apply(CompactSummary summary, BenchmarkRunStatus status) {
        status.stages =
                summary.stages().stream().map(BenchmarkResults::stage).collect(Collectors.toCollection(ArrayList::new));
        status.singleRequests = summary.singleRequests() == null
                ? new ArrayList<>()
                : summary.singleRequests().stream()
                        .map(BenchmarkResults::single)
                        .collect(Collectors.toCollection(ArrayList::new));
        status.summary = headline(summary);
        status.capacity = summary.capacity() == null ? null : CapacityResults.of(summary.capacity());
        status.warnings = warnings(summary);
        status.workload = summary.workload() == null ? null : workload(summary.workload());
    }

    private static WorkloadSummary workload(CompactSummary.Workload workload) {
        WorkloadSummary result = new WorkloadSummary();
        result.digest = workload.digest();
        CompactSummary.TraceShape trace = workload.trace();
        if (trace != null) {
            result.trace = new WorkloadSummary.TraceWindow();
            result.trace.requests = trace.requests();
            result.trace.spanSeconds = trace.spanSeconds();
            result.trace.requestRate = trace.rate();
            result.trace.inputTokens = lengths(trace.inputTokens());
            result.trace.outputTokens = lengths(trace.outputTokens());
            result.trace.repeatedBlockShare = trace.repeatedBlockShare();
        }
        return result;
    }

    /** The runner's length arrays are p50, p90, max. */
    private static WorkloadSummary.LengthPercentiles lengths(int[] figures) {
        WorkloadSummary.LengthPercentiles lengths = new WorkloadSummary.LengthPercentiles();
        lengths.p50 = figures[0];
        lengths.p90 = figures[1];
        lengths.max = figures[2];
        return lengths;
    }

    private static StageResult stage(CompactSummary.Stage stage) {
        StageResult result = new StageResult();
        result.name = stage.name();
        result.concurrency = stage.requestRate() != null && stage.concurrency() == 0 ? null : stage.concurrency();
        result.achievedConcurrency = stage.achievedConcurrency();
        result.completed = stage.completed();
        result.failed = stage.failed();
        result.durationSeconds = stage.durationSeconds();
        result.outputTokensPerSecond = stage.outputTokensPerSecond();
        result.totalTokensPerSecond = stage.totalTokensPerSecond();
        result.requestsPerSecond = stage.requestsPerSecond();
        result.ttftMillis = latency(stage.ttftMillis());
        result.tpotMillis = latency(stage.tpotMillis());
        result.itlMillis = latency(stage.itlMillis());
        result.e2eMillis = latency(stage.e2eMillis());
        result.requestRate = stage.requestRate();
        result.achievedRequestRate = stage.achievedRequestRate();
        result.scheduleLagMillis = lag(stage.scheduleLagMillis());
        result.sloAttainment = stage.sloAttainment();
        result.goodputRequestsPerSecond = stage.goodputRequestsPerSecond();
        result.goodputOutputTokensPerSecond = stage.goodputTokensPerSecond();
        result.specAcceptLength = stage.acceptLength();
        result.cacheHitRate = stage.cacheHitRate();
        result.cachedPromptShare = stage.cachedPromptShare();
        result.turns = stage.turns() == null
                ? null
                : stage.turns().stream().map(BenchmarkResults::turn).collect(Collectors.toCollection(ArrayList::new));
        return result;
    }

    private static TurnResult turn(CompactSummary.Turn turn) {
        TurnResult result = new TurnResult();
        result.turn = turn.turn();
        result.completed = turn.completed();
        result.ttftP50Millis = turn.ttftMillis() == null ? null : turn.ttftMillis()[0];
        result.ttftP99Millis = turn.ttftMillis() == null ? null : turn.ttftMillis()[1];
        result.cachedPromptShare = turn.cachedPromptShare();
        return result;
    }

    /** The runner's latency arrays are mean, p50, p90, p99, max. */
    private static LatencyStats latency(double[] figures) {
        if (figures == null) {
            return null;
        }
        LatencyStats stats = new LatencyStats();
        stats.mean = figures[0];
        stats.p50 = figures[1];
        stats.p90 = figures[2];
        stats.p99 = figures[3];
        stats.max = figures[4];
        return stats;
    }

    /** The runner's schedule-lag array is p50, p99, max. */
    private static LatencyStats lag(double[] figures) {
        if (figures == null) {
            return null;
        }
        LatencyStats stats = new LatencyStats();
        stats.p50 = figures[0];
        stats.p99 = figures[1];
        stats.max = figures[2];
        return stats;
    }

    private static SingleRequestResult single(CompactSummary.SinglePrompt prompt) {
        SingleRequestResult result = new SingleRequestResult();
        result.prompt = prompt.prompt();
        result.outputTokens = prompt.outputTokens();
        result.tokensPerSecond = prompt.tokensPerSecond();
        result.ttftMillis = prompt.ttftMillis();
        result.e2eMillis = prompt.e2eMillis();
        return result;
    }

    /**
     * The runner's headline; when a truncated summary dropped it, only the failure count (always present per stage).
     */
    private static BenchmarkSummary headline(CompactSummary summary) {
        BenchmarkSummary result = new BenchmarkSummary();
        CompactSummary.Headline headline = summary.headline();
        if (headline == null) {
            result.failedRequests = summary.stages().stream()
                    .mapToInt(CompactSummary.Stage::failed)
                    .sum();
            return result;
        }
        result.singleStreamTokensPerSecond = headline.singleStreamTokensPerSecond();
        result.peakTokensPerSecond = headline.peakTokensPerSecond();
        result.peakConcurrency = headline.peakConcurrency();
        result.peakRule = headline.peakRule();
        result.kneeConcurrency = headline.kneeConcurrency();
        result.failedRequests = headline.failedRequests();
        result.shards = headline.shards();
        result.worstShardClientLagMillis = headline.worstShardClientLagMillis();
        return result;
    }

    private static List<String> warnings(CompactSummary summary) {
        List<String> warnings = new ArrayList<>();
        if (summary.warnings() != null) {
            warnings.addAll(summary.warnings());
        }
        if (summary.failuresByClass() != null && !summary.failuresByClass().isEmpty()) {
            warnings.add(FAILURE_CLASSES_WARNING + failureClasses(summary));
        }
        if (Boolean.TRUE.equals(summary.truncated())) {
            warnings.add(TRUNCATED_WARNING);
        }
        return warnings;
    }

    static String failureClasses(CompactSummary summary) {
        return summary.failuresByClass().entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(", "));
    }
}
