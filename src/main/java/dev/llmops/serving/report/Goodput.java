package dev.llmops.serving.report;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.CapacityResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/**
 * What the reports show of load against an SLO: the capacity a search found, each stage's goodput and schedule, and
 * the latency–throughput curve (tokens/s one user sees, 1000 / median TPOT, against total tokens/s, per stage).
 */
final class Goodput {

    static final String[] STAGE_HEADERS = {
        "Stage",
        "Requested req/s",
        "Achieved req/s",
        "Schedule lag p99 (ms)",
        "SLO attainment",
        "Goodput req/s",
        "Goodput tok/s"
    };

    private static final double MILLIS_PER_SECOND = 1000;

    /** A row of the capacity table: what it shows and how to read it off a run's capacity. */
    private record Field(String label, Function<CapacityResult, String> value) {}

    private static final List<Field> CAPACITY_FIELDS = List.of(
            new Field("Capacity", c -> Format.orMissing(c.load)),
            new Field("Searched", c -> c.mode == null ? Format.MISSING : c.mode.name()),
            new Field("Outcome", c -> c.outcome == null ? Format.MISSING : c.outcome.name()),
            new Field("Output tok/s", c -> Format.number(c.outputTokensPerSecond)),
            new Field("Requests/s", c -> Format.hundredths(c.requestsPerSecond)),
            new Field("SLO attainment", c -> Format.share(c.sloAttainment)),
            new Field("Goodput req/s", c -> Format.hundredths(c.goodputRequestsPerSecond)),
            new Field("Goodput tok/s", c -> Format.number(c.goodputOutputTokensPerSecond)),
            new Field("TTFT p99 (ms)", c -> Format.number(c.ttftP99Millis)),
            new Field("TPOT p99 (ms)", c -> Format.number(c.tpotP99Millis)),
            new Field("ITL p99 (ms)", c -> Format.number(c.itlP99Millis)),
            new Field("E2E p99 (ms)", c -> Format.number(c.e2eP99Millis)),
            new Field("Probes", c -> Format.integer(c.probes)),
            new Field("How it ended", c -> Format.orMissing(Format.bounded(c.message))));

    private Goodput() {}

    static boolean anyCapacity(List<BenchmarkRun> runs) {
        return runs.stream().anyMatch(run -> run.getStatus().capacity != null);
    }

    /** One row per field, the label first, then one cell per run (a dash for a run that did not search). */
    static List<String[]> capacityRows(List<BenchmarkRun> runs) {
        List<String[]> rows = new ArrayList<>();
        for (Field field : CAPACITY_FIELDS) {
            List<String> cells = new ArrayList<>(List.of(field.label()));
            for (BenchmarkRun run : runs) {
                CapacityResult capacity = run.getStatus().capacity;
                cells.add(capacity == null ? Format.MISSING : field.value().apply(capacity));
            }
            rows.add(cells.toArray(String[]::new));
        }
        return rows;
    }

    /** The stages that carry open-loop or goodput figures, in the order of {@link Stages#ordered}. */
    static List<String[]> stageRows(BenchmarkRun run) {
        return Stages.ordered(run).stream()
                .filter(s -> s.requestRate != null || s.sloAttainment != null || s.goodputRequestsPerSecond != null)
                .map(s -> new String[] {
                    s.name,
                    Format.hundredths(s.requestRate),
                    Format.hundredths(s.achievedRequestRate),
                    Format.number(s.scheduleLagMillis == null ? null : s.scheduleLagMillis.p99),
                    Format.share(s.sloAttainment),
                    Format.hundredths(s.goodputRequestsPerSecond),
                    Format.number(s.goodputOutputTokensPerSecond)
                })
                .toList();
    }

    /** One point per stage with a total throughput and a median TPOT, from the lowest total throughput up. */
    static SvgCurveChart.Curve curve(BenchmarkRun run, String name, int colour) {
        List<SvgCurveChart.Point> points = new ArrayList<>();
        for (StageResult stage : run.getStatus().stages) {
            Double tpot = Stages.percentile(stage.tpotMillis, Stages.Percentile.P50);
            if (stage.totalTokensPerSecond != null && tpot != null && tpot > 0) {
                points.add(new SvgCurveChart.Point(
                        stage.name == null ? Format.MISSING : stage.name,
                        stage.totalTokensPerSecond,
                        Math.round(MILLIS_PER_SECOND / tpot * 10) / 10.0));
            }
        }
        points.sort(Comparator.comparingDouble(SvgCurveChart.Point::x));
        return new SvgCurveChart.Curve(name, colour, points);
    }
}
