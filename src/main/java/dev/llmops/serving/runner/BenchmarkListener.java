package dev.llmops.serving.runner;

/** Follows a run as it goes: what the console prints and what tests observe. Every method is optional. */
public interface BenchmarkListener {

    /** The one real completion that proves the target generates, before anything is measured. */
    default void readinessChecked(RequestResult result) {
    }

    default void warmupFinished(int succeeded, int failed) {
    }

    default void stageStarted(StagePlan stage, int index, int stages) {
    }

    /** Every measured request as it finishes, on the client's callback threads: keep it short. */
    default void requestFinished(StagePlan stage, RequestResult result) {
    }

    /** Called every few seconds while a stage runs, from the thread that runs the plan. */
    default void stageProgress(StagePlan stage, int finishedRequests, double elapsedSeconds) {
    }

    /** {@code finishedStages} of {@code stages} are done. */
    default void stageFinished(StageReport report, int finishedStages, int stages) {
    }
}
