package dev.llmops.serving.runner;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Stage reports with chosen figures, for tests of what is computed from them. */
final class Reports {

    private Reports() {}

    static StageReport closedLoop(int concurrency, double outputThroughput, double medianE2eMillis) {
        return stage(
                "c" + concurrency,
                StagePlan.Mode.CLOSED_LOOP,
                concurrency,
                outputThroughput,
                medianE2eMillis,
                Map.of(),
                List.of());
    }

    static StageReport stage(
            String name,
            StagePlan.Mode mode,
            int concurrency,
            double outputThroughput,
            double medianE2eMillis,
            Map<String, Integer> failures,
            List<String> warnings) {
        Map<String, LatencySummary> latencies = new LinkedHashMap<>();
        for (String metric : List.of(StageReport.TTFT, StageReport.TTFC, StageReport.TPOT, StageReport.ITL)) {
            latencies.put(metric, new LatencySummary(123.456, 111.111, 234.567, 345.678, 456.789));
        }
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
                null);
    }
}
