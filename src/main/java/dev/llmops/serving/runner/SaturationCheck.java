package dev.llmops.serving.runner;

import java.util.ArrayList;
import java.util.List;

/**
 * Tells a capacity probe to stop sending before its end, from snapshots of its progress taken every
 * {@link #TICK_MILLIS} ms: when its attainment can no longer reach the target, or when the server is over-saturated —
 * over the last {@value #WINDOWS} intervals the backlog (scheduled minus finished requests) of a rate probe, or the
 * mean TTFT of a concurrency probe, rose in every interval while each interval's share of requests that missed the SLO
 * stayed above what the attainment allows. A stage that would pass never trips it, so stopping early saves time and
 * does not change a verdict.
 */
final class SaturationCheck {

    static final long TICK_MILLIS = 1000;
    static final int WINDOWS = 3;

    private final boolean openLoop;
    private final int plannedRequests;
    private final double attainment;
    private final List<StageRecorder.Progress> ticks = new ArrayList<>();

    /**
     * @param plannedRequests the requests the stage will send, or 0 when unknown (a closed loop run for a duration)
     */
    SaturationCheck(boolean openLoop, int plannedRequests, double attainment) {
        this.openLoop = openLoop;
        this.plannedRequests = plannedRequests;
        this.attainment = attainment;
    }

    /** Adds the latest snapshot; true when the probe should stop sending. */
    boolean shouldStop(StageRecorder.Progress now) {
        ticks.add(now);
        if (ticks.size() > WINDOWS + 1) {
            ticks.remove(0);
        }
        return attainmentOutOfReach(now) || queueGrowing();
    }

    /** True when even if every request still to come were good, the stage would stay below the attainment. */
    boolean attainmentOutOfReach(StageRecorder.Progress now) {
        return plannedRequests > 0 && plannedRequests - now.bad() < attainment * plannedRequests - 1e-9;
    }

    private boolean queueGrowing() {
        if (ticks.size() < WINDOWS + 1) {
            return false;
        }
        for (int i = 1; i < ticks.size(); i++) {
            StageRecorder.Progress before = ticks.get(i - 1);
            StageRecorder.Progress after = ticks.get(i);
            int done = after.done() - before.done();
            int bad = after.bad() - before.bad();
            if (done == 0 || bad <= (1 - attainment) * done) {
                return false;
            }
            boolean rising = openLoop
                    ? after.issued() - after.done() > before.issued() - before.done()
                    : meanTtft(after, before) > (i == 1 ? 0 : meanTtft(before, ticks.get(i - 2)));
            if (!rising) {
                return false;
            }
        }
        return true;
    }

    private static double meanTtft(StageRecorder.Progress after, StageRecorder.Progress before) {
        int count = after.ttftCount() - before.ttftCount();
        return count == 0 ? 0 : (after.ttftSumMillis() - before.ttftSumMillis()) / count;
    }
}
