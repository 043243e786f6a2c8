package dev.llmops.serving.runner.output;

import dev.llmops.serving.api.contract.RunPlan;
import dev.llmops.serving.runner.statistics.LatencySummary;
import dev.llmops.serving.runner.workload.Arrival;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Stage reports with chosen figures, for tests of what is computed from them. */
public final class Reports {

    private Reports() {}

    public static StageReport closedLoop(int concurrency, double outputThroughput, double medianE2eMillis) {
        return stage(
                "c" + concurrency,
                RunPlan.Mode.CLOSED_LOOP,
                concurrency,
                outputThroughput,
                medianE2eMillis,
                Map.of(),
                List.of());
    }

    /** An open-loop stage with schedule lag, achieved rate, SLO attainment and goodput. */
    static StageReport rate(String name, double rate, double attainment) {
        StageReport base = stage(name, RunPlan.Mode.OPEN_LOOP, 1, 1234.567, 2345.678, Map.of(), List.of());
        Map<String, LatencySummary> latencies = new LinkedHashMap<>(base.latencies());
        latencies.put(StageReport.SCHEDULE_LAG, new LatencySummary(1.2345, 0.5432, 2.3456, 3.4567, 12.345));
        return new StageReport(
                name,
                RunPlan.Mode.OPEN_LOOP,
                null,
                rate,
                base.durationSeconds(),
                base.completed(),
                base.failed(),
                base.failures(),
                base.totalInputTokens(),
                base.totalOutputTokens(),
                0,
                null,
                null,
                base.requestThroughput(),
                base.outputThroughput(),
                base.totalTokenThroughput(),
                base.achievedConcurrency(),
                base.drainTailSeconds(),
                0,
                0,
                latencies,
                Map.of(),
                0.2,
                0.9,
                1.5,
                0.1,
                List.of(),
                Arrival.POISSON,
                rate * 0.987654,
                attainment,
                12.345 * attainment,
                1234.567 * attainment,
                null,
                null,
                null,
                null,
                null);
    }

    /** A closed-loop level whose requests queue: TTFT p99 as given, the median and E2E unchanged. */
    public static StageReport queueing(
            int concurrency, double outputThroughput, double medianE2eMillis, double ttftP99Millis) {
        return stage(
                "c" + concurrency,
                RunPlan.Mode.CLOSED_LOOP,
                concurrency,
                outputThroughput,
                medianE2eMillis,
                new LatencySummary(123.456, 111.111, 234.567, ttftP99Millis, ttftP99Millis),
                Map.of(),
                List.of());
    }

    public static StageReport stage(
            String name,
            RunPlan.Mode mode,
            int concurrency,
            double outputThroughput,
            double medianE2eMillis,
            Map<String, Integer> failures,
            List<String> warnings) {
        return stage(
                name,
                mode,
                concurrency,
                outputThroughput,
                medianE2eMillis,
                new LatencySummary(123.456, 111.111, 234.567, 345.678, 456.789),
                failures,
                warnings);
    }

    private static StageReport stage(
            String name,
            RunPlan.Mode mode,
            int concurrency,
            double outputThroughput,
            double medianE2eMillis,
            LatencySummary ttft,
            Map<String, Integer> failures,
            List<String> warnings) {
        Map<String, LatencySummary> latencies = new LinkedHashMap<>();
        for (String metric : List.of(StageReport.TTFC, StageReport.TPOT, StageReport.ITL)) {
            latencies.put(metric, new LatencySummary(123.456, 111.111, 234.567, 345.678, 456.789));
        }
        latencies.put(StageReport.TTFT, ttft);
        latencies.put(
                StageReport.E2E,
                new LatencySummary(
                        medianE2eMillis * 1.1,
                        medianE2eMillis,
                        medianE2eMillis * 1.5,
                        medianE2eMillis * 2,
                        medianE2eMillis * 3));
        int failed = failures.values().stream().mapToInt(Integer::intValue).sum();
        return new StageReport(
                name,
                mode,
                concurrency,
                null,
                61.234,
                4 * concurrency,
                failed,
                failures,
                123456,
                654321,
                0,
                null,
                null,
                12.345,
                outputThroughput,
                outputThroughput * 1.2,
                concurrency * 0.97,
                1.5,
                0,
                0,
                latencies,
                Map.of(),
                0.2,
                0.9,
                1.5,
                0.1,
                warnings,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    /** The stage as judged against an SLO: the given share of its requests was good. */
    public static StageReport withSloAttainment(StageReport s, double attainment) {
        return new StageReport(
                s.name(),
                s.mode(),
                s.maxConcurrency(),
                s.requestRate(),
                s.durationSeconds(),
                s.completed(),
                s.failed(),
                s.failures(),
                s.totalInputTokens(),
                s.totalOutputTokens(),
                s.totalReasoningTokens(),
                s.totalCachedTokens(),
                s.cachedPromptShare(),
                s.requestThroughput(),
                s.outputThroughput(),
                s.totalTokenThroughput(),
                s.achievedConcurrency(),
                s.drainTailSeconds(),
                s.shortOutputs(),
                s.countedOutputs(),
                s.latencies(),
                s.errors(),
                s.clientLagP99Millis(),
                s.clientLagMaxMillis(),
                s.clientCpuSeconds(),
                s.clientCpuUtilisation(),
                s.warnings(),
                s.arrival(),
                s.achievedRequestRate(),
                attainment,
                s.goodputRequestRate(),
                s.goodputOutputThroughput(),
                s.stoppedEarly(),
                s.specAcceptLength(),
                s.server(),
                s.turns(),
                null);
    }

    /** The stage with the server's usage reporting {@code cached} of its prompt tokens cached, a {@code share}. */
    public static StageReport withCachedTokens(StageReport s, long cached, double share) {
        return new StageReport(
                s.name(),
                s.mode(),
                s.maxConcurrency(),
                s.requestRate(),
                s.durationSeconds(),
                s.completed(),
                s.failed(),
                s.failures(),
                s.totalInputTokens(),
                s.totalOutputTokens(),
                s.totalReasoningTokens(),
                cached,
                share,
                s.requestThroughput(),
                s.outputThroughput(),
                s.totalTokenThroughput(),
                s.achievedConcurrency(),
                s.drainTailSeconds(),
                s.shortOutputs(),
                s.countedOutputs(),
                s.latencies(),
                s.errors(),
                s.clientLagP99Millis(),
                s.clientLagMaxMillis(),
                s.clientCpuSeconds(),
                s.clientCpuUtilisation(),
                s.warnings(),
                s.arrival(),
                s.achievedRequestRate(),
                s.sloAttainment(),
                s.goodputRequestRate(),
                s.goodputOutputThroughput(),
                s.stoppedEarly(),
                s.specAcceptLength(),
                s.server(),
                s.turns(),
                null);
    }
}
