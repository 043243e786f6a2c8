package dev.llmops.serving.runner.shard;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.llmops.serving.api.contract.PlainNumber;
import dev.llmops.serving.api.contract.RunPlan;
import dev.llmops.serving.api.contract.RunnerFlags;
import dev.llmops.serving.runner.output.ServerStageReport;
import dev.llmops.serving.runner.output.ShardClientReport;
import dev.llmops.serving.runner.output.StageReport;
import dev.llmops.serving.runner.output.TurnReport;
import dev.llmops.serving.runner.plan.StagePlan;
import dev.llmops.serving.runner.statistics.LatencyHistogram;
import dev.llmops.serving.runner.statistics.LatencySummary;
import dev.llmops.serving.runner.transport.RequestResult;
import dev.llmops.serving.runner.transport.TokenCounting;
import dev.llmops.serving.runner.workload.Arrival;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Everything a stage's report is computed from — counters, histograms and the stage's time bounds — in a form that
 * {@link #add adds up}: the figures of several shards of one stage give the report one runner would have written for
 * all their requests (percentiles from the merged histograms, throughput over the union of the windows). Times are
 * nanoseconds from the stage's origin, the instant the shards agreed to start it. Not thread-safe.
 */
@JsonAutoDetect(
        fieldVisibility = JsonAutoDetect.Visibility.ANY,
        getterVisibility = JsonAutoDetect.Visibility.NONE,
        isGetterVisibility = JsonAutoDetect.Visibility.NONE)
@JsonInclude(JsonInclude.Include.NON_NULL)
public final class StageFigures {

    static final double CLIENT_LAG_WARNING_MILLIS = 5;
    static final double CLIENT_CPU_WARNING = 0.9;
    /** A rate stage whose sends ran below this share of its schedule's rate gets a warning. */
    static final double SCHEDULE_KEPT_SHARE = 0.99;

    static final double SCHEDULE_LAG_WARNING_MILLIS = 5;

    /** Bound of the failure classes and turns kept from another process's figures. */
    static final int MAX_ENTRIES = 64;

    static final int MAX_TEXT_CHARS = 300;

    @JsonProperty("name")
    private String name;

    @JsonProperty("mode")
    private RunPlan.Mode mode;

    @JsonProperty("concurrency")
    private int concurrency;

    @JsonProperty("rate")
    private double rate;

    @JsonProperty("arrival")
    private Arrival arrival;

    @JsonProperty("max_in_flight")
    private int maxInFlight;

    @JsonProperty("max_tokens")
    private int maxTokens;

    @JsonProperty("slo")
    private boolean slo;

    @JsonProperty("ttft")
    private LatencyHistogram.Recorded ttftData;

    @JsonProperty("ttfc")
    private LatencyHistogram.Recorded ttfcData;

    @JsonProperty("tpot")
    private LatencyHistogram.Recorded tpotData;

    @JsonProperty("itl")
    private LatencyHistogram.Recorded itlData;

    @JsonProperty("e2e")
    private LatencyHistogram.Recorded e2eData;

    @JsonProperty("schedule_lag")
    private LatencyHistogram.Recorded scheduleLagData;

    private final transient LatencyHistogram ttft = new LatencyHistogram();
    private final transient LatencyHistogram ttfc = new LatencyHistogram();
    private final transient LatencyHistogram tpot = new LatencyHistogram();
    private final transient LatencyHistogram itl = new LatencyHistogram();
    private final transient LatencyHistogram e2e = new LatencyHistogram();
    private final transient LatencyHistogram scheduleLag = new LatencyHistogram();

    @JsonProperty("failures")
    private Map<String, Integer> failures = new TreeMap<>();

    @JsonProperty("errors")
    private Map<String, String> errors = new TreeMap<>();

    @JsonProperty("first_send_ns")
    private long firstSend = Long.MAX_VALUE;

    @JsonProperty("last_send_ns")
    private long lastSend = Long.MIN_VALUE;

    @JsonProperty("last_actual_send_ns")
    private long lastActualSend = Long.MIN_VALUE;

    @JsonProperty("last_end_ns")
    private long lastEnd = Long.MIN_VALUE;

    @JsonProperty("issued")
    private int issued;

    @JsonProperty("completed")
    private int completed;

    @JsonProperty("failed")
    private int failed;

    @JsonProperty("good")
    private int good;

    @JsonProperty("good_output_tokens")
    private long goodOutputTokens;

    @JsonProperty("ttft_sum_ms")
    private double ttftSumMillis;

    @JsonProperty("latency_sum_ns")
    private double sumLatencyNanos;

    @JsonProperty("input_tokens")
    private long inputTokens;

    @JsonProperty("output_tokens")
    private long outputTokens;

    @JsonProperty("reasoning_tokens")
    private long reasoningTokens;

    @JsonProperty("cached")
    private CachedTokens cached = new CachedTokens();

    @JsonProperty("short_outputs")
    private int shortOutputs;

    @JsonProperty("counted_outputs")
    private int countedOutputs;

    @JsonProperty("estimated_splits")
    private int estimatedSplits;

    @JsonProperty("turns")
    private Map<Integer, TurnFigures> turns = new TreeMap<>();

    @JsonProperty("client")
    private List<ShardClientReport> clients = new ArrayList<>();

    @JsonProperty("stopped_early")
    private boolean stoppedEarly;

    @JsonProperty("server")
    private ServerStageReport server;

    private transient long origin;

    StageFigures() {}

    /** Empty figures of {@code plan}, whose times count from {@code originNanos} ({@link System#nanoTime()}). */
    public StageFigures(StagePlan plan, int maxTokens, boolean ignoreEos, boolean slo, long originNanos) {
        this.name = plan.name();
        this.mode = plan.mode();
        this.concurrency = plan.concurrency();
        this.rate = plan.rate();
        this.arrival = plan.arrival();
        this.maxInFlight = plan.maxInFlight();
        this.maxTokens = ignoreEos ? maxTokens : 0;
        this.slo = slo;
        this.origin = originNanos;
    }

    public String name() {
        return name;
    }

    public int done() {
        return completed + failed;
    }

    public int issued() {
        return issued;
    }

    public int good() {
        return good;
    }

    public double ttftSumMillis() {
        return ttftSumMillis;
    }

    public long ttftCount() {
        return ttft.count();
    }

    public void countIssued() {
        issued++;
    }

    /**
     * Records one finished request; latencies count from {@code intendedNanos}, the send time in a closed loop and the
     * scheduled send time in an open loop (so schedule lag counts as latency); {@code good} says whether it met the
     * SLO. {@code turn} is the request's turn in a session, or 0 outside sessions.
     */
    public void record(RequestResult result, long intendedNanos, boolean isGood, int turn) {
        if (turn > 0) {
            turns.computeIfAbsent(turn, ignored -> new TurnFigures()).record(result, intendedNanos);
        }
        firstSend = Math.min(firstSend, intendedNanos - origin);
        lastSend = Math.max(lastSend, intendedNanos - origin);
        lastActualSend = Math.max(lastActualSend, result.sendNanos() - origin);
        lastEnd = Math.max(lastEnd, result.endNanos() - origin);
        sumLatencyNanos += result.endNanos() - intendedNanos;
        if (mode == RunPlan.Mode.OPEN_LOOP) {
            scheduleLag.record(result.sendNanos() - intendedNanos);
        }
        if (!result.succeeded()) {
            failed++;
            failures.merge(result.failureClass(), 1, Integer::sum);
            errors.putIfAbsent(result.failureClass(), result.errorMessage());
            return;
        }
        completed++;
        if (isGood) {
            good++;
            goodOutputTokens += result.outputTokens();
        }
        inputTokens += result.promptTokens();
        outputTokens += result.outputTokens();
        reasoningTokens += result.reasoningTokens();
        cached.record(result);
        if (maxTokens > 0 && result.outputTokens() < maxTokens) {
            shortOutputs++;
        }
        if (result.tokenCounting() == TokenCounting.COUNTED) {
            countedOutputs++;
        } else if (result.tokenCounting() == TokenCounting.SERVER_TOTAL
                && result.tokenChunkTokens().length != result.outputTokens()) {
            estimatedSplits++;
        }
        long ttftNanos = result.firstTokenNanos() - intendedNanos;
        e2e.record(result.endNanos() - intendedNanos);
        ttft.record(ttftNanos);
        ttftSumMillis += ttftNanos / 1e6;
        if (result.firstContentNanos() != RequestResult.NO_TIME) {
            ttfc.record(result.firstContentNanos() - intendedNanos);
        }
        result.tpotMillis().ifPresent(millis -> tpot.record(Math.round(millis * 1e6)));
        result.forEachInterTokenLatency(itl::record);
    }

    /**
     * Ends the stage on this shard: what its client did meanwhile ({@code cpuSeconds} of process CPU on
     * {@code processors}), whether it stopped early, and the server's figures where this shard read them.
     */
    public void finish(
            int shard,
            double lagP99Millis,
            double lagMaxMillis,
            double cpuSeconds,
            int processors,
            boolean stopped,
            ServerStageReport serverFigures) {
        stoppedEarly = stopped;
        server = serverFigures;
        double window = window();
        double cpu = window > 0 ? cpuSeconds / window / processors : 0;
        String warning = lagP99Millis > CLIENT_LAG_WARNING_MILLIS || cpu > CLIENT_CPU_WARNING
                ? String.format(
                        Locale.ROOT,
                        "the client may have been the bottleneck (its threads ran p99 %.1f ms late, CPU %.0f%% of %d"
                                + " cores); TTFT and ITL include client delay",
                        lagP99Millis,
                        cpu * 100,
                        processors)
                : null;
        LatencySummary lag = scheduleLag.summary();
        clients = new ArrayList<>(List.of(new ShardClientReport(
                shard, lagP99Millis, lagMaxMillis, cpuSeconds, processors, lag == null ? null : lag.p99(), warning)));
    }

    /** Adds the figures of another shard of the same stage. */
    public void add(StageFigures other) {
        ttft.add(other.ttft);
        ttfc.add(other.ttfc);
        tpot.add(other.tpot);
        itl.add(other.itl);
        e2e.add(other.e2e);
        scheduleLag.add(other.scheduleLag);
        other.failures.forEach((failure, count) -> failures.merge(failure, count, Integer::sum));
        other.errors.forEach(errors::putIfAbsent);
        firstSend = Math.min(firstSend, other.firstSend);
        lastSend = Math.max(lastSend, other.lastSend);
        lastActualSend = Math.max(lastActualSend, other.lastActualSend);
        lastEnd = Math.max(lastEnd, other.lastEnd);
        issued += other.issued;
        completed += other.completed;
        failed += other.failed;
        good += other.good;
        goodOutputTokens += other.goodOutputTokens;
        ttftSumMillis += other.ttftSumMillis;
        sumLatencyNanos += other.sumLatencyNanos;
        inputTokens += other.inputTokens;
        outputTokens += other.outputTokens;
        reasoningTokens += other.reasoningTokens;
        cached.add(other.cached);
        shortOutputs += other.shortOutputs;
        countedOutputs += other.countedOutputs;
        estimatedSplits += other.estimatedSplits;
        other.turns.forEach((turn, figures) ->
                turns.computeIfAbsent(turn, ignored -> new TurnFigures()).add(figures));
        clients.addAll(other.clients);
        stoppedEarly |= other.stoppedEarly;
        if (server == null) {
            server = other.server;
        }
    }

    /** Whether {@code other} is the same stage, planned alike. */
    boolean sameStageAs(StageFigures other) {
        return name.equals(other.name)
                && mode == other.mode
                && concurrency == other.concurrency
                && rate == other.rate
                && arrival == other.arrival
                && maxInFlight == other.maxInFlight
                && maxTokens == other.maxTokens
                && slo == other.slo;
    }

    /** The stage's report, as one runner writes it; with several shards, each shard's client too. */
    public StageReport report() {
        boolean any = done() > 0;
        double window = window();
        Map<String, LatencySummary> latencies = new LinkedHashMap<>();
        put(latencies, StageReport.TTFT, ttft);
        put(latencies, StageReport.TTFC, ttfc);
        put(latencies, StageReport.TPOT, tpot);
        put(latencies, StageReport.ITL, itl);
        put(latencies, StageReport.E2E, e2e);
        put(latencies, StageReport.SCHEDULE_LAG, scheduleLag);
        boolean closed = mode != RunPlan.Mode.OPEN_LOOP;
        double cpuSeconds =
                clients.stream().mapToDouble(ShardClientReport::cpuSeconds).sum();
        int processors = Math.max(
                1, clients.stream().mapToInt(ShardClientReport::processors).sum());
        double cpuUtilisation = window > 0 ? cpuSeconds / window / processors : 0;
        Double achievedRate = closed ? null : rate(lastActualSend);
        boolean withSlo = slo && any;
        List<String> warnings = warnings();
        if (!closed) {
            scheduleWarning(achievedRate, rate(lastSend)).ifPresent(warnings::add);
        }
        return new StageReport(
                name,
                mode,
                closed ? Integer.valueOf(concurrency) : maxInFlight > 0 ? maxInFlight : null,
                closed ? null : rate,
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
                any ? (lastEnd - lastSend) / 1e9 : 0,
                shortOutputs,
                countedOutputs,
                latencies,
                new LinkedHashMap<>(errors),
                clients.stream()
                        .mapToDouble(ShardClientReport::lagP99Millis)
                        .max()
                        .orElse(0),
                clients.stream()
                        .mapToDouble(ShardClientReport::lagMaxMillis)
                        .max()
                        .orElse(0),
                cpuSeconds,
                cpuUtilisation,
                warnings,
                closed ? null : arrival,
                achievedRate,
                withSlo ? (double) good / done() : null,
                withSlo ? perSecond(good, window) : null,
                withSlo ? perSecond(goodOutputTokens, window) : null,
                stoppedEarly ? Boolean.TRUE : null,
                server == null ? null : server.specAcceptLength(),
                server,
                turns.isEmpty() ? null : turnReports(),
                clients.size() > 1 ? List.copyOf(clients) : null);
    }

    /** First (intended) send to last completion, in seconds; 0 before any request finished. */
    private double window() {
        return done() > 0 ? (lastEnd - firstSend) / 1e9 : 0;
    }

    private List<TurnReport> turnReports() {
        List<TurnReport> reports = new ArrayList<>();
        turns.forEach((turn, figures) -> reports.add(figures.report(turn)));
        return reports;
    }

    /** Sends after the first over the time from the first intended send to {@code last}; null below 2 sends. */
    private Double rate(long last) {
        int sends = done();
        return sends < 2 || last <= firstSend ? null : (sends - 1) / ((last - firstSend) / 1e9);
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
                name,
                achievedRate == null ? 0 : achievedRate,
                scheduledRate == null ? rate : scheduledRate,
                PlainNumber.text(rate),
                lag == null ? 0 : lag.p99(),
                lag == null ? 0 : lag.max(),
                maxInFlight > 0
                        ? " — " + RunnerFlags.MAX_CONCURRENCY + " " + maxInFlight + " held requests back"
                        : ""));
    }

    private List<String> warnings() {
        List<String> warnings = new ArrayList<>();
        String stage = name + ": ";
        for (ShardClientReport client : clients) {
            if (client.warning() != null) {
                warnings.add(stage + (clients.size() > 1 ? "shard " + client.shard() + ": " : "") + client.warning());
            }
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

    /** The histograms into their data form, before writing as JSON. */
    void freeze() {
        ttftData = ttft.recorded();
        ttfcData = ttfc.recorded();
        tpotData = tpot.recorded();
        itlData = itl.recorded();
        e2eData = e2e.recorded();
        scheduleLagData = scheduleLag.recorded();
        turns.values().forEach(TurnFigures::freeze);
    }

    /**
     * The histograms from their data form, after reading JSON from another process, which is checked on the way: at
     * most {@link #MAX_ENTRIES} failure classes and turns, texts cut to {@value #MAX_TEXT_CHARS} characters, no
     * negative count.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    void thaw() {
        if (name == null || mode == null) {
            throw new IllegalArgumentException("a stage has no name or mode");
        }
        if (failures.size() > MAX_ENTRIES
                || errors.size() > MAX_ENTRIES
                || turns.size() > MAX_ENTRIES
                || clients.isEmpty()
                || clients.size() > Shard.MAX_COUNT) {
            throw new IllegalArgumentException(
                    "stage " + name + " has too many failure classes, errors, turns or clients, or no client");
        }
        if (issued < 0
                || completed < 0
                || failed < 0
                || good < 0
                || good > completed
                || inputTokens < 0
                || outputTokens < 0
                || reasoningTokens < 0
                || shortOutputs < 0
                || countedOutputs < 0
                || estimatedSplits < 0
                || clients.stream().anyMatch(client -> client.processors() < 1)) {
            throw new IllegalArgumentException("stage " + name + " has a negative or inconsistent count");
        }
        failures.values().forEach(count -> {
            if (count == null || count < 0) {
                throw new IllegalArgumentException("stage " + name + " has a negative failure count");
            }
        });
        Map<String, String> bounded = new TreeMap<>();
        errors.forEach((failure, message) -> bounded.put(cut(failure), cut(message)));
        errors = bounded;
        clients = new ArrayList<>(clients.stream()
                .map(client -> new ShardClientReport(
                        client.shard(),
                        client.lagP99Millis(),
                        client.lagMaxMillis(),
                        client.cpuSeconds(),
                        client.processors(),
                        client.scheduleLagP99Millis(),
                        client.warning() == null ? null : cut(client.warning())))
                .toList());
        ttft.add(LatencyHistogram.of(ttftData));
        ttfc.add(LatencyHistogram.of(ttfcData));
        tpot.add(LatencyHistogram.of(tpotData));
        itl.add(LatencyHistogram.of(itlData));
        e2e.add(LatencyHistogram.of(e2eData));
        scheduleLag.add(LatencyHistogram.of(scheduleLagData));
        turns.values().forEach(TurnFigures::thaw);
    }

    /** These figures as gzipped JSON, to hand to another shard. */
    public byte[] toGzip() {
        freeze();
        return ShardJson.gzip(this);
    }

    /**
     * Figures another shard handed over, checked as {@link #thaw} checks them.
     *
     * @throws IllegalArgumentException saying what is wrong
     */
    public static StageFigures fromGzip(byte[] gzipped) {
        StageFigures figures = ShardJson.read(gzipped, StageFigures.class, "a stage's figures");
        figures.thaw();
        return figures;
    }

    private static String cut(String text) {
        return text == null || text.length() <= MAX_TEXT_CHARS ? text : text.substring(0, MAX_TEXT_CHARS) + "…";
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

    /** One session turn's counts, prompt and cache tokens and TTFT over the stage. */
    @JsonAutoDetect(
            fieldVisibility = JsonAutoDetect.Visibility.ANY,
            getterVisibility = JsonAutoDetect.Visibility.NONE,
            isGetterVisibility = JsonAutoDetect.Visibility.NONE)
    static final class TurnFigures {
        @JsonProperty("ttft")
        private LatencyHistogram.Recorded ttftData;

        private final transient LatencyHistogram ttft = new LatencyHistogram();

        @JsonProperty("completed")
        private int completed;

        @JsonProperty("failed")
        private int failed;

        @JsonProperty("prompt_tokens")
        private long promptTokens;

        @JsonProperty("cached")
        private CachedTokens cached = new CachedTokens();

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

        void add(TurnFigures other) {
            ttft.add(other.ttft);
            completed += other.completed;
            failed += other.failed;
            promptTokens += other.promptTokens;
            cached.add(other.cached);
        }

        void freeze() {
            ttftData = ttft.recorded();
        }

        void thaw() {
            ttft.add(LatencyHistogram.of(ttftData));
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

    /** The prompt tokens the server's usage reported cached, over the requests whose usage reported any count. */
    @JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY)
    static final class CachedTokens {
        @JsonProperty("reports")
        private int reports;

        @JsonProperty("reported_prompt_tokens")
        private long reportedPromptTokens;

        @JsonProperty("cached_prompt_tokens")
        private long cachedPromptTokens;

        void record(RequestResult result) {
            if (result.cachedPromptTokens() != RequestResult.NOT_REPORTED) {
                reports++;
                reportedPromptTokens += result.promptTokens();
                cachedPromptTokens += result.cachedPromptTokens();
            }
        }

        void add(CachedTokens other) {
            reports += other.reports;
            reportedPromptTokens += other.reportedPromptTokens;
            cachedPromptTokens += other.cachedPromptTokens;
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
