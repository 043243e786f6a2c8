package dev.llmops.serving.benchmark;

import java.util.Arrays;
import java.util.Optional;

/** The runner's exit codes that carry a verdict, with the reason and words the run's status shows for each. */
public enum RunnerExit {
    BAD_CONFIGURATION(2, "BadConfiguration", "the runner rejected its configuration (exit code 2)"),
    TARGET_NOT_INFERENCE_READY(3, "TargetNotInferenceReady", "the target was unreachable or did not generate (exit code 3)"),
    ALL_REQUESTS_FAILED(4, "AllRequestsFailed", "every request failed (exit code 4)");

    private final int code;
    private final String reason;
    private final String meaning;

    RunnerExit(int code, String reason, String meaning) {
        this.code = code;
        this.reason = reason;
        this.meaning = meaning;
    }

    public int code() {
        return code;
    }

    public String reason() {
        return reason;
    }

    public String meaning() {
        return meaning;
    }

    public static Optional<RunnerExit> of(int code) {
        return Arrays.stream(values()).filter(e -> e.code == code).findFirst();
    }
}
