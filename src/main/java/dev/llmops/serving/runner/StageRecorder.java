package dev.llmops.serving.runner;

import dev.llmops.serving.api.contract.PlainNumber;
import dev.llmops.serving.api.contract.RunPlan;
import dev.llmops.serving.api.contract.RunnerFlags;
import dev.llmops.serving.runner.output.SingleRequestReport;
import dev.llmops.serving.runner.output.StageReport;
import dev.llmops.serving.runner.output.TurnReport;
import dev.llmops.serving.runner.plan.Slo;
import dev.llmops.serving.runner.plan.StagePlan;
import dev.llmops.serving.runner.statistics.LatencyHistogram;
import dev.llmops.serving.runner.statistics.LatencySummary;
import dev.llmops.serving.runner.transport.RequestResult;
import dev.llmops.serving.runner.transport.TokenCounting;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Folds the results of one stage into counters and histograms as they arrive (from many threads), so no per-request
 * data outlives its request — whether a request met the SLO is decided as it is recorded; then turns them into a
 * {@link StageReport}.
 */
final class StageRecorder {

    static final double CLIENT_LAG_WARNING_MILLIS = 5;
    static final double CLIENT_CPU_WARNING = 0.9;
    /** A rate stage whose sends ran below this share of its schedule's rate gets a warning. */
    static final double SCHEDULE_KEPT_SHARE = 0.99;

    static final double SCHEDULE_LAG_WARNING_MILLIS = 5;

    /** What a running stage has done so far, for the capacity search's saturation check. */
    record Progress(int issued, int done, int bad, double ttftSumMillis, int ttftCount) {}

    private final StagePlan plan;
    private final int maxTokens;
    private final boolean ignoreEos;
    private final Slo slo;
    private final LatencyHistogram ttft = new LatencyHistogram();
    private final LatencyHistogram ttfc = new LatencyHistogram();
    private final LatencyHistogram tpot = new LatencyHistogram();
    private final LatencyHistogram itl = new LatencyHistogram();
    private final LatencyHistogram e2e = new LatencyHistogram();
    private final LatencyHistogram scheduleLag = new LatencyHistogram();
    private final Map<String, Integer> failures = new TreeMap<>();
    private final Map<String, String> errors = new TreeMap<>();
    private final List<SingleRequestReport> singles = new ArrayList<>();
    private long firstSendNanos = Long.MAX_VALUE;
    private long lastSendNanos = Long.MIN_VALUE;
    private long lastActualSendNanos = Long.MIN_VALUE;
    private int issued;
    private int good;
    private long goodOutputTokens;
    private double ttftSumMillis;
    private long lastEndNanos = Long.MIN_VALUE;
    private double sumLatencyNanos;
    private int completed;
    private int failed;
    private long inputTokens;
    private long outputTokens;
    private long reasoningTokens;
    private final CachedTokens cached = new CachedTokens();
    private int shortOutputs;
    private int countedOutputs;
    private int estimatedSplits;
    private final Map<Integer, TurnFigures> turns = new TreeMap<>();

    StageRecorder(StagePlan plan, int maxTokens, boolean ignoreEos, Slo slo) {
        this.plan = plan;
        this.maxTokens = maxTokens;
        this.ignoreEos = ignoreEos;
        this.slo = slo;
    }

    synchronized int done() {
        return completed + failed;
    }

    /** Counts a request the stage has scheduled, sent or not yet. */
    synchronized void issued() {
        issued++;
    }

    synchronized Progress progress() {
        return new Progress(issued, done(), done() - good, ttftSumMillis, (int) ttft.count());
    }

    /**
     * Records one finished request; latencies are measured from {@code intendedNanos}, which is the send time in a
     * closed loop and the scheduled send time in an open loop (so schedule lag counts as latency). {@code turn} is
     * the request's turn in a session, or 0 outside sessions.
     */
    synchronized void record(RequestResult result, long intendedNanos, String prompt, int turn) {
        if (turn > 0) {
            turns.computeIfAbsent(turn, ignored -> new TurnFigures()).record(result, intendedNanos);
        }
        firstSendNanos = Math.min(firstSendNanos, intendedNanos);
        lastSendNanos = Math.max(lastSendNanos, intendedNanos);
        lastActualSendNanos = Math.max(lastActualSendNanos, result.sendNanos());
        lastEndNanos = Math.max(lastEndNanos, result.endNanos());
        sumLatencyNanos += result.endNanos() - intendedNanos;
        if (plan.mode() == RunPlan.Mode.OPEN_LOOP) {
            scheduleLag.record(result.sendNanos() - intendedNanos);
        }
        if (!result.succeeded()) {
            failed++;
            failures.merge(result.failureClass(), 1, Integer::sum);
            errors.putIfAbsent(result.failureClass(), result.errorMessage());
            if (plan.mode() == RunPlan.Mode.SINGLE) {
                singles.add(new SingleRequestReport(
                        prompt,
                        result.outputTokens(),
                        result.reasoningTokens(),
                        0,
                        null,
                        null,
                        null,
                        (result.endNanos() - intendedNanos) / 1e6,
                        result.failureClass()));
            }
            return;
        }
        completed++;
        if (slo.isGood(result, intendedNanos)) {
            good++;
            goodOutputTokens += result.outputTokens();
        }
        inputTokens += result.promptTokens();
        outputTokens += result.outputTokens();
        reasoningTokens += result.reasoningTokens();
        cached.record(result);
        if (ignoreEos && result.outputTokens() < maxTokens) {
            shortOutputs++;
        }
        if (result.tokenCounting() == TokenCounting.COUNTED) {
            countedOutputs++;
        } else if (result.tokenCounting() == TokenCounting.SERVER_TOTAL
                && result.tokenChunkTokens().length != result.outputTokens()) {
            estimatedSplits++;
        }
        long e2eNanos = result.endNanos() - intendedNanos;
        long ttftNanos = result.firstTokenNanos() - intendedNanos;
        e2e.record(e2eNanos);
        ttft.record(ttftNanos);
        ttftSumMillis += ttftNanos / 1e6;
        if (result.firstContentNanos() != RequestResult.NO_TIME) {
            ttfc.record(result.firstContentNanos() - intendedNanos);
        }
        result.tpotMillis().ifPresent(millis -> tpot.record(Math.round(millis * 1e6)));
        result.forEachInterTokenLatency(itl::record);
        if (plan.mode() == RunPlan.Mode.SINGLE) {
            singles.add(new SingleRequestReport(
                    prompt,
                    result.outputTokens(),
                    result.reasoningTokens(),
                    result.outputTokens() / (e2eNanos / 1e9),
                    ttftNanos / 1e6,
                    result.firstContentNanos() == RequestResult.NO_TIME
                            ? null
                            : (result.firstContentNanos() - intendedNanos) / 1e6,
                    result.tpotMillis().isPresent() ? result.tpotMillis().getAsDouble() : null,
                    e2eNanos / 1e6,
                    null));
        }
    }

    synchronized List<SingleRequestReport> singles() {
        return List.copyOf(singles);
    }

    synchronized StageReport report(ClientLagProbe.Reading client, boolean stoppedEarly) {
        boolean any = done() > 0;
        double window = any ? (lastEndNanos - firstSendNanos) / 1e9 : 0;
        Map<String, LatencySummary> latencies = new LinkedHashMap<>();
        put(latencies, StageReport.TTFT, ttft);
        put(latencies, StageReport.TTFC, ttfc);
        put(latencies, StageReport.TPOT, tpot);
        put(latencies, StageReport.ITL, itl);
        put(latencies, StageReport.E2E, e2e);
        put(latencies, StageReport.SCHEDULE_LAG, scheduleLag);
        boolean closed = plan.mode() != RunPlan.Mode.OPEN_LOOP;
        double cpuUtilisation =
                window > 0 ? client.cpuSeconds() / window / Runtime.getRuntime().availableProcessors() : 0;
        Double achievedRate = closed ? null : rate(lastActualSendNanos);
        boolean withSlo = slo.hasLimits() && any;
        List<String> warnings = warnings(client, cpuUtilisation);
        if (!closed) {
            scheduleWarning(achievedRate, rate(lastSendNanos)).ifPresent(warnings::add);
        }
        return new StageReport(
                plan.name(),
                plan.mode(),
                closed ? Integer.valueOf(plan.concurrency()) : plan.maxInFlight() > 0 ? plan.maxInFlight() : null,
                closed ? null : plan.rate(),
                window,
                completed,
                failed,
                new LinkedHashMap<>(failures),
                inputTokens,
                outputTokens,
                reasoningTokens,
                cached.total(),
                cached.share(),
                perSecond(completed, window),
                perSecond(outputTokens, window),
                perSecond(inputTokens + outputTokens, window),
                window > 0 ? sumLatencyNanos / 1e9 / window : 0,
                any ? (lastEndNanos - lastSendNanos) / 1e9 : 0,
                shortOutputs,
                countedOutputs,
                latencies,
                new LinkedHashMap<>(errors),
                client.p99Millis(),
                client.maxMillis(),
                client.cpuSeconds(),
                cpuUtilisation,
                warnings,
                closed ? null : plan.arrival(),
                achievedRate,
                withSlo ? (double) good / done() : null,
                withSlo ? perSecond(good, window) : null,
                withSlo ? perSecond(goodOutputTokens, window) : null,
                stoppedEarly ? Boolean.TRUE : null,
                null,
                null,
                turns.isEmpty() ? null : turnReports());
    }

    private List<TurnReport> turnReports() {
        List<TurnReport> reports = new ArrayList<>();
        turns.forEach((turn, figures) -> reports.add(figures.report(turn)));
        return reports;
    }

    /** One session turn's counts, prompt and cache tokens and TTFT over the stage. */
    private static final class TurnFigures {
        private final LatencyHistogram ttft = new LatencyHistogram();
        private int completed;
        private int failed;
        private long promptTokens;
        private final CachedTokens cached = new CachedTokens();

        void record(RequestResult result, long intendedNanos) {
            if (!result.succeeded()) {
                failed++;
                return;
            }
            completed++;
            promptTokens += result.promptTokens();
            cached.record(result);
            ttft.record(result.firstTokenNanos() - intendedNanos);
        }

        TurnReport report(int turn) {
            return TurnReport.of(
                    turn,
                    completed,
                    failed,
                    completed == 0 ? 0 : (double) promptTokens / completed,
                    cached.share(),
                    ttft.summary());
        }
    }

    /** Sends after the first over the time from the first intended send to {@code lastNanos}; null below 2 sends. */
    private Double rate(long lastNanos) {
        int sends = done();
        return sends < 2 || lastNanos <= firstSendNanos ? null : (sends - 1) / ((lastNanos - firstSendNanos) / 1e9);
    }

    /**
     * A warning when sends fell behind the stage's own schedule (compared with the schedule drawn, not the requested
     * rate, which a short Poisson sample misses by chance) or ran late, since latencies count from intended sends.
     */
    private Optional<String> scheduleWarning(Double achievedRate, Double scheduledRate) {
        LatencySummary lag = scheduleLag.summary();
        boolean slow =
                achievedRate != null && scheduledRate != null && achievedRate < SCHEDULE_KEPT_SHARE * scheduledRate;
        boolean late = lag != null && lag.p99() > SCHEDULE_LAG_WARNING_MILLIS;
        if (!slow && !late) {
            return Optional.empty();
        }
        return Optional.of(String.format(
                Locale.ROOT,
                "%s: the client could not keep the arrival schedule (achieved %.2f req/s of %.2f req/s scheduled, %s"
                        + " requested; schedule lag p99 %.1f ms, max %.1f ms)%s; latencies count from the intended"
                        + " send times, so TTFT and E2E include this client-side delay",
                plan.name(),
                achievedRate == null ? 0 : achievedRate,
                scheduledRate == null ? plan.rate() : scheduledRate,
                PlainNumber.text(plan.rate()),
                lag == null ? 0 : lag.p99(),
                lag == null ? 0 : lag.max(),
                plan.maxInFlight() > 0
                        ? " — " + RunnerFlags.MAX_CONCURRENCY + " " + plan.maxInFlight() + " held requests back"
                        : ""));
    }

    private List<String> warnings(ClientLagProbe.Reading client, double cpuUtilisation) {
        List<String> warnings = new ArrayList<>();
        String stage = plan.name() + ": ";
        if (client.p99Millis() > CLIENT_LAG_WARNING_MILLIS || cpuUtilisation > CLIENT_CPU_WARNING) {
            warnings.add(String.format(
                    Locale.ROOT,
                    "%sthe client may have been the bottleneck (its threads ran"
                            + " p99 %.1f ms late, CPU %.0f%% of %d cores); TTFT and ITL include client delay",
                    stage,
                    client.p99Millis(),
                    cpuUtilisation * 100,
                    Runtime.getRuntime().availableProcessors()));
        }
        if (shortOutputs > 0) {
            warnings.add(stage + shortOutputs + " of " + completed + " requests returned fewer than " + maxTokens
                    + " tokens despite ignore_eos");
        }
        if (countedOutputs > 0) {
            warnings.add(stage + countedOutputs + " requests came without usage: their output tokens were counted"
                    + " from chunks");
        }
        if (estimatedSplits > 0) {
            warnings.add(stage + estimatedSplits + " requests carried several tokens per chunk without per-chunk usage:"
                    + " their ITL splits chunks by characters");
        }
        return warnings;
    }

    private static void put(Map<String, LatencySummary> latencies, String metric, LatencyHistogram histogram) {
        LatencySummary summary = histogram.summary();
        if (summary != null) {
            latencies.put(metric, summary);
        }
    }

    private static double perSecond(double amount, double seconds) {
        return seconds > 0 ? amount / seconds : 0;
    }

    /** The prompt tokens the server's usage reported cached, over the requests whose usage reported any count. */
    private static final class CachedTokens {
        private int reports;
        private long reportedPromptTokens;
        private long cachedPromptTokens;

        void record(RequestResult result) {
            if (result.cachedPromptTokens() != RequestResult.NOT_REPORTED) {
                reports++;
                reportedPromptTokens += result.promptTokens();
                cachedPromptTokens += result.cachedPromptTokens();
            }
        }

        /** The cached tokens; null when no request's usage reported them. */
        Long total() {
            return reports > 0 ? cachedPromptTokens : null;
        }

        /** Cached over prompt tokens of the requests that reported them; null when none did or all were empty. */
        Double share() {
            return reportedPromptTokens > 0 ? (double) cachedPromptTokens / reportedPromptTokens : null;
        }
    }
}
