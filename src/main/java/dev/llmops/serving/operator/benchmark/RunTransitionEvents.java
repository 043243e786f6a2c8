package dev.llmops.serving.operator.benchmark;

import dev.llmops.serving.api.contract.CapacityOutcome;
import dev.llmops.serving.api.v1alpha1.ConditionReasons;
import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.operator.toolkit.Conditions;
import dev.llmops.serving.operator.toolkit.EventRecorder;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.EnumSet;
import java.util.Set;

/** The Kubernetes Events a BenchmarkRun's change of status deserves, recorded once its status is written. */
final class RunTransitionEvents {

    /** Reason of the capacity event: CapacityFound, CapacityBudgetExhausted or CapacityNeverMet. */
    private static final String CAPACITY_EVENT_PREFIX = "Capacity";

    private static final Set<String> BASELINE_UNAVAILABLE =
            Set.of(ConditionReasons.BASELINE_NOT_FOUND, ConditionReasons.BASELINE_FAILED);
    private static final Set<String> ARCHIVE_FAILURES = Set.of(
            ConditionReasons.ARCHIVE_UNREACHABLE,
            ConditionReasons.ARCHIVE_ACCESS_DENIED,
            ConditionReasons.ARCHIVE_BUCKET_MISSING,
            ConditionReasons.ARCHIVE_FAILED);
    /** Phases a run only passes through on its way to a result: the status says all there is, no Event. */
    private static final Set<BenchmarkRunPhase> MOMENTARY =
            EnumSet.of(BenchmarkRunPhase.Pending, BenchmarkRunPhase.WaitingForServer);

    private final EventRecorder events;

    RunTransitionEvents(EventRecorder events) {
        this.events = events;
    }

    /**
     * An event for each change of phase but into Pending and WaitingForServer (momentary: one API write per run for
     * nothing to act on), one when a capacity search's result arrives (a warning when no load met the SLO), a warning
     * when the baseline turns out to be missing or failed, and one when the run turns out to have regressed, improved
     * or changed its outputs.
     */
    /** The run is deleted under its retention; the event outlives it, on the run's name. */
    void expired(BenchmarkRun run, String reason) {
        events.record(run, EventRecorder.NORMAL, ConditionReasons.EXPIRED, reason);
    }

    void record(BenchmarkRun run, BenchmarkRunStatus before, BenchmarkRunStatus after) {
        if (after.capacity != null && (before == null || before.capacity == null)) {
            events.record(
                    run,
                    after.capacity.outcome == CapacityOutcome.NeverMet ? EventRecorder.WARNING : EventRecorder.NORMAL,
                    CAPACITY_EVENT_PREFIX + after.capacity.outcome,
                    CapacityResults.describe(after.capacity));
        }
        if ((before == null || before.phase != after.phase) && !MOMENTARY.contains(after.phase)) {
            Conditions.find(after.conditions, ConditionTypes.READY)
                    .ifPresent(ready -> events.record(
                            run,
                            after.phase == BenchmarkRunPhase.Failed ? EventRecorder.WARNING : EventRecorder.NORMAL,
                            ready.getReason(),
                            ready.getMessage()));
        }
        recordOnReason(run, before, after, ConditionTypes.BASELINE_COMPARED, BASELINE_UNAVAILABLE);
        recordOnReason(run, before, after, ConditionTypes.ARCHIVED, ARCHIVE_FAILURES);
        recordWhenTrue(run, before, after, ConditionTypes.QUALITY_SUSPECT, EventRecorder.WARNING);
        recordWhenTrue(run, before, after, ConditionTypes.REGRESSED, EventRecorder.WARNING);
        recordWhenTrue(run, before, after, ConditionTypes.IMPROVED, EventRecorder.NORMAL);
        recordWhenTrue(run, before, after, ConditionTypes.ARCHIVED, EventRecorder.NORMAL);
    }

    /** A warning named after the reason when the condition turns to one of {@code reasons}. */
    private void recordOnReason(
            BenchmarkRun run, BenchmarkRunStatus before, BenchmarkRunStatus after, String type, Set<String> reasons) {
        String reasonBefore = before == null
                ? null
                : Conditions.find(before.conditions, type)
                        .map(Condition::getReason)
                        .orElse(null);
        Conditions.find(after.conditions, type)
                .filter(c -> reasons.contains(c.getReason()) && !c.getReason().equals(reasonBefore))
                .ifPresent(c -> events.record(run, EventRecorder.WARNING, c.getReason(), c.getMessage()));
    }

    /** An event named after the condition when it turns True. */
    private void recordWhenTrue(
            BenchmarkRun run, BenchmarkRunStatus before, BenchmarkRunStatus after, String type, String eventType) {
        boolean wasTrue = before != null
                && Conditions.find(before.conditions, type)
                        .filter(c -> Conditions.TRUE.equals(c.getStatus()))
                        .isPresent();
        Conditions.find(after.conditions, type)
                .filter(c -> Conditions.TRUE.equals(c.getStatus()) && !wasTrue)
                .ifPresent(c -> events.record(run, eventType, type, c.getMessage()));
    }
}
