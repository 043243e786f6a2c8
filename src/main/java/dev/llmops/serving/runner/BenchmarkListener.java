package dev.llmops.serving.runner;

import dev.llmops.serving.api.contract.QualityOutput;
import dev.llmops.serving.runner.output.CapacityReport;
import dev.llmops.serving.runner.output.StageReport;
import dev.llmops.serving.runner.plan.StagePlan;
import dev.llmops.serving.runner.shard.StageFigures;
import dev.llmops.serving.runner.transport.RequestResult;
import java.util.List;

/** Follows a run as it goes: what the console prints and what tests observe. Every method is optional. */
public interface BenchmarkListener {

    /** Something the user should know that does not stop the run, e.g. a model the server does not list. */
    default void warning(String message) {}

    /** The one real completion that proves the target generates, before anything is measured. */
    default void readinessChecked(RequestResult result) {}

    default void warmupFinished(int succeeded, int failed) {}

    default void stageStarted(StagePlan stage, int index, int stages) {}

    /**
     * Each request of a rate stage as it falls due, with its intended send time ({@link System#nanoTime()}), on the
     * arrival timer's thread: keep it short, or the schedule slips.
     */
    default void requestScheduled(StagePlan stage, long intendedNanos) {}

    /** Every measured request as it finishes, on the client's callback threads: keep it short. */
    default void requestFinished(StagePlan stage, RequestResult result) {}

    /**
     * Every measured request as it finishes, with its position in the stage's request sequence (the single stage's
     * prompt, or the n-th request drawn for the stage: the same request in two runs of one workload) and the intended
     * send time its latencies count from, as the stage's report counts them. Calls
     * {@link #requestFinished(StagePlan, RequestResult)} unless overridden.
     */
    default void requestFinished(StagePlan stage, long index, long intendedNanos, RequestResult result) {
        requestFinished(stage, result);
    }

    /** The quality stage starts, after {@code finishedStages} of {@code stages}; it is not one of them. */
    default void qualityStarted(int finishedStages, int stages) {}

    /** The quality stage's greedy outputs, one per single-request prompt that succeeded, by prompt position. */
    default void qualityFinished(List<QualityOutput> outputs) {}

    /** Called every few seconds while a stage runs, from the thread that runs the plan. */
    default void stageProgress(StagePlan stage, int finishedRequests, double elapsedSeconds) {}

    /** A stage's figures as it ends, in the form that adds up with other shards' figures of the stage. */
    default void stageMeasured(StageFigures figures) {}

    /** {@code finishedStages} of {@code stages} are done. */
    default void stageFinished(StageReport report, int finishedStages, int stages) {}

    /** After the last probe of a capacity search. */
    default void capacityFound(CapacityReport capacity) {}

    /** Both listeners, {@code first} before {@code second} for every event. */
    static BenchmarkListener both(BenchmarkListener first, BenchmarkListener second) {
        return new BenchmarkListener() {
            @Override
            public void warning(String message) {
                first.warning(message);
                second.warning(message);
            }

            @Override
            public void readinessChecked(RequestResult result) {
                first.readinessChecked(result);
                second.readinessChecked(result);
            }

            @Override
            public void warmupFinished(int succeeded, int failed) {
                first.warmupFinished(succeeded, failed);
                second.warmupFinished(succeeded, failed);
            }

            @Override
            public void stageStarted(StagePlan stage, int index, int stages) {
                first.stageStarted(stage, index, stages);
                second.stageStarted(stage, index, stages);
            }

            @Override
            public void requestScheduled(StagePlan stage, long intendedNanos) {
                first.requestScheduled(stage, intendedNanos);
                second.requestScheduled(stage, intendedNanos);
            }

            @Override
            public void requestFinished(StagePlan stage, RequestResult result) {
                first.requestFinished(stage, result);
                second.requestFinished(stage, result);
            }

            @Override
            public void requestFinished(StagePlan stage, long index, long intendedNanos, RequestResult result) {
                first.requestFinished(stage, index, intendedNanos, result);
                second.requestFinished(stage, index, intendedNanos, result);
            }

            @Override
            public void qualityStarted(int finishedStages, int stages) {
                first.qualityStarted(finishedStages, stages);
                second.qualityStarted(finishedStages, stages);
            }

            @Override
            public void qualityFinished(List<QualityOutput> outputs) {
                first.qualityFinished(outputs);
                second.qualityFinished(outputs);
            }

            @Override
            public void stageProgress(StagePlan stage, int finishedRequests, double elapsedSeconds) {
                first.stageProgress(stage, finishedRequests, elapsedSeconds);
                second.stageProgress(stage, finishedRequests, elapsedSeconds);
            }

            @Override
            public void stageMeasured(StageFigures figures) {
                first.stageMeasured(figures);
                second.stageMeasured(figures);
            }

            @Override
            public void stageFinished(StageReport report, int finishedStages, int stages) {
                first.stageFinished(report, finishedStages, stages);
                second.stageFinished(report, finishedStages, stages);
            }

            @Override
            public void capacityFound(CapacityReport capacity) {
                first.capacityFound(capacity);
                second.capacityFound(capacity);
            }
        };
    }
}
