package dev.llmops.serving.runner;

import dev.llmops.serving.api.contract.RunPlan;
import dev.llmops.serving.runner.output.ServerStageReport;
import dev.llmops.serving.runner.output.SingleRequestReport;
import dev.llmops.serving.runner.plan.Slo;
import dev.llmops.serving.runner.plan.StagePlan;
import dev.llmops.serving.runner.shard.StageFigures;
import dev.llmops.serving.runner.transport.RequestResult;
import java.util.ArrayList;
import java.util.List;

/**
 * Folds the results of one stage into its {@link StageFigures} as they arrive (from many threads), so no per-request
 * data outlives its request — whether a request met the SLO is decided as it is recorded — and keeps the single
 * phase's prompts one by one.
 */
final class StageRecorder {

    /** What a running stage has done so far, for the capacity search's saturation check. */
    record Progress(int issued, int done, int bad, double ttftSumMillis, int ttftCount) {}

    private final StagePlan plan;
    private final Slo slo;
    private final StageFigures figures;
    private final List<SingleRequestReport> singles = new ArrayList<>();
    private final long origin;

    /** A recorder whose figures count time from {@code originNanos}, the stage's agreed start. */
    StageRecorder(StagePlan plan, int maxTokens, boolean ignoreEos, Slo slo, long originNanos) {
        this.plan = plan;
        this.slo = slo;
        this.origin = originNanos;
        this.figures = new StageFigures(plan, maxTokens, ignoreEos, slo.hasLimits(), originNanos);
    }

    /** The stage's agreed start, a {@link System#nanoTime()}. */
    long origin() {
        return origin;
    }

    synchronized int done() {
        return figures.done();
    }

    /** Counts a request the stage has scheduled, sent or not yet. */
    synchronized void issued() {
        figures.countIssued();
    }

    synchronized Progress progress() {
        return new Progress(
                figures.issued(), figures.done(), figures.done() - figures.good(), figures.ttftSumMillis(), (int)
                        figures.ttftCount());
    }

    /**
     * Records one finished request; latencies are measured from {@code intendedNanos}, which is the send time in a
     * closed loop and the scheduled send time in an open loop (so schedule lag counts as latency). {@code turn} is
     * the request's turn in a session, or 0 outside sessions.
     */
    synchronized void record(RequestResult result, long intendedNanos, String prompt, int turn) {
        figures.record(result, intendedNanos, result.succeeded() && slo.isGood(result, intendedNanos), turn);
        if (plan.mode() != RunPlan.Mode.SINGLE) {
            return;
        }
        double e2eMillis = (result.endNanos() - intendedNanos) / 1e6;
        if (!result.succeeded()) {
            singles.add(new SingleRequestReport(
                    prompt,
                    result.outputTokens(),
                    result.reasoningTokens(),
                    0,
                    null,
                    null,
                    null,
                    e2eMillis,
                    result.failureClass()));
            return;
        }
        singles.add(new SingleRequestReport(
                prompt,
                result.outputTokens(),
                result.reasoningTokens(),
                result.outputTokens() / (e2eMillis / 1e3),
                (result.firstTokenNanos() - intendedNanos) / 1e6,
                result.firstContentNanos() == RequestResult.NO_TIME
                        ? null
                        : (result.firstContentNanos() - intendedNanos) / 1e6,
                result.tpotMillis().isPresent() ? result.tpotMillis().getAsDouble() : null,
                e2eMillis,
                null));
    }

    synchronized List<SingleRequestReport> singles() {
        return List.copyOf(singles);
    }

    /** The stage's figures, ended with what the client did meanwhile and the server's figures (null for none). */
    synchronized StageFigures finish(
            int shard, ClientLagProbe.Reading client, boolean stoppedEarly, ServerStageReport server) {
        figures.finish(
                shard,
                client.p99Millis(),
                client.maxMillis(),
                client.cpuSeconds(),
                Runtime.getRuntime().availableProcessors(),
                stoppedEarly,
                server);
        return figures;
    }
}
