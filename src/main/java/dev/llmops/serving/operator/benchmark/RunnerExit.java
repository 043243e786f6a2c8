package dev.llmops.serving.operator.benchmark;

import dev.llmops.serving.api.contract.RunnerExitCode;
import java.util.Arrays;
import java.util.Optional;

/** The condition reason a BenchmarkRun's status gives for each runner exit code that carries a verdict. */
public enum RunnerExit {
    BAD_CONFIGURATION(RunnerExitCode.BAD_CONFIGURATION, "BadConfiguration"),
    TARGET_NOT_INFERENCE_READY(RunnerExitCode.TARGET_NOT_READY, "TargetNotInferenceReady"),
    ALL_REQUESTS_FAILED(RunnerExitCode.ALL_REQUESTS_FAILED, "AllRequestsFailed"),
    SHARDS_APART(RunnerExitCode.SHARDS_APART, "ShardsApart");

    private final RunnerExitCode exitCode;
    private final String reason;

    RunnerExit(RunnerExitCode exitCode, String reason) {
        this.exitCode = exitCode;
        this.reason = reason;
    }

    public int code() {
        return exitCode.code();
    }

    public String reason() {
        return reason;
    }

    /** What the exit code means, for the status message: {@code every request failed (exit code 4)}. */
    public String meaning() {
        return exitCode.meaning() + " (exit code " + exitCode.code() + ")";
    }

    public static Optional<RunnerExit> of(int code) {
        return Arrays.stream(values()).filter(exit -> exit.code() == code).findFirst();
    }
}
