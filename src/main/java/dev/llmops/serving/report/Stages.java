package dev.llmops.serving.report;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.LatencyStats;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.TurnResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The measured stages of a run in concurrency order (rate stages after, by rate), and the figures the report plots and
 * tabulates.
 */
final class Stages {

    /** A latency percentile the report shows, with the line style it is drawn in. */
    enum Percentile {
        P50("p50", Series.LineStyle.SOLID, s -> s.p50),
        P90("p90", Series.LineStyle.DASHED, s -> s.p90),
        P99("p99", Series.LineStyle.DOTTED, s -> s.p99);

        final String label;
        final Series.LineStyle style;
        final Function<LatencyStats, Double> value;

        Percentile(String label, Series.LineStyle style, Function<LatencyStats, Double> value) {
            this.label = label;
            this.style = style;
            this.value = value;
        }
    }

    /** A latency the runner measures per request, as the report names it in tables and charts. */
    enum Latency {
        TTFT("TTFT", "Time to first token", s -> s.ttftMillis),
        TPOT("TPOT", "Time per output token", s -> s.tpotMillis),
        ITL("ITL", "Inter-token latency", s -> s.itlMillis),
        E2E("E2E", "End-to-end latency", s -> s.e2eMillis);

        final String label;
        final String title;
        final Function<StageResult, LatencyStats> stats;

        Latency(String label, String title, Function<StageResult, LatencyStats> stats) {
            this.label = label;
            this.title = title;
            this.stats = stats;
        }
    }

    /** A figure of a stage only some servers report, so a table shows it only when the run has it for a stage. */
    enum ServerFigure {
        ACCEPTANCE_LENGTH("Acceptance length", s -> s.specAcceptLength, Format::hundredths),
        CACHED_PROMPT_SHARE("Cached prompt share", s -> s.cachedPromptShare, Format::share),
        CACHE_HIT_RATE("Cache hit rate", s -> s.cacheHitRate, Format::share);

        final String label;
        private final Function<StageResult, Double> value;
        private final Function<Double, String> format;

        ServerFigure(String label, Function<StageResult, Double> value, Function<Double, String> format) {
            this.label = label;
            this.value = value;
            this.format = format;
        }

        String cell(StageResult stage) {
            return format.apply(value.apply(stage));
        }
    }

    /** A multi-turn stage's table: per turn, how fast the first token came and how much of the prompt was cached. */
    static final String[] TURN_HEADERS = {"Turn", "Completed", "TTFT p50 (ms)", "TTFT p99 (ms)", "Cached prompt share"};

    private Stages() {}

    static List<StageResult> ordered(BenchmarkRun run) {
        return run.getStatus().stages.stream()
                .sorted(Comparator.comparing(
                                (StageResult s) -> s.concurrency == null ? Integer.MAX_VALUE : s.concurrency)
                        .thenComparing(s -> s.requestRate == null ? Double.MAX_VALUE : s.requestRate)
                        .thenComparing(s -> s.name == null ? "" : s.name))
                .toList();
    }

    static Optional<StageResult> named(BenchmarkRun run, String name) {
        return run.getStatus().stages.stream()
                .filter(s -> name != null && name.equals(s.name))
                .findFirst();
    }

    /** The figures the server reported for any stage of the run, each a column of the run's stage table. */
    static List<ServerFigure> serverFigures(BenchmarkRun run) {
        return Arrays.stream(ServerFigure.values())
                .filter(figure -> run.getStatus().stages.stream().anyMatch(s -> figure.value.apply(s) != null))
                .toList();
    }

    /** The stages of multi-turn sessions, which measured each turn apart. */
    static List<StageResult> withTurns(BenchmarkRun run) {
        return ordered(run).stream()
                .filter(s -> s.turns != null && !s.turns.isEmpty())
                .toList();
    }

    /** A row of {@link #TURN_HEADERS}. */
    static String[] turnRow(TurnResult turn) {
        return new String[] {
            Format.integer(turn.turn),
            Format.integer(turn.completed),
            Format.number(turn.ttftP50Millis),
            Format.number(turn.ttftP99Millis),
            Format.share(turn.cachedPromptShare)
        };
    }

    static Double percentile(LatencyStats stats, Percentile percentile) {
        return stats == null ? null : percentile.value.apply(stats);
    }

    /** One point per stage that has both a concurrency and the value; truncated stages carry only counts. */
    static Series series(
            BenchmarkRun run, String name, int colour, Series.LineStyle style, Function<StageResult, Double> value) {
        List<Series.Point> points = new ArrayList<>();
        for (StageResult stage : ordered(run)) {
            Double v = value.apply(stage);
            if (stage.concurrency != null && v != null) {
                points.add(new Series.Point(stage.concurrency, v));
            }
        }
        return new Series(name, colour, style, points);
    }
}
