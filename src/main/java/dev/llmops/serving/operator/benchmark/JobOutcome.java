package dev.llmops.serving.operator.benchmark;

/** Where a benchmark Job stands, as read from the Job and its pods. */
public sealed interface JobOutcome {

    /**
     * Still running; {@code progress} is "done/total stage" (the stage now running) from the runner's last PROGRESS
     * line, or null if none was read.
     */
    record Running(String progress) implements JobOutcome {}

    /**
     * Finished successfully; the summary the pod left, or null with {@code missing} saying why there is none, and the
     * tail of the pod's log, where the samples line is, or null when it could not be read.
     */
    record Completed(String terminationMessage, String missing, String samplesLog) implements JobOutcome {}

    /**
     * Completed, but the log of its succeeded pod, where the samples are, could not be read {@code failedReads} times
     * while the pod still exists: read again after {@link JobObserver#SAMPLES_LOG_RETRY}.
     */
    record SamplesLogUnread(String pod, int failedReads) implements JobOutcome {}

    /** Failed; the runner's exit code (null when no container terminated) and what the Job and the pod said. */
    record Failed(Integer exitCode, String jobReason, String jobMessage, String terminationMessage)
            implements JobOutcome {}
}
