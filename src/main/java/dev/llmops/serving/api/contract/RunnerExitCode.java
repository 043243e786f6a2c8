package dev.llmops.serving.api.contract;

/**
 * The bench runner's exit codes and what each means: the bench command returns them, the operator reads its verdict
 * from them.
 */
public enum RunnerExitCode {
    DONE(0, "the runner finished; some requests may have failed"),
    BAD_CONFIGURATION(2, "the runner rejected its configuration"),
    TARGET_NOT_READY(3, "the target was unreachable or did not generate"),
    ALL_REQUESTS_FAILED(4, "every request failed"),
    SHARDS_APART(5, "a shard did not meet the others before a stage");

    private final int code;
    private final String meaning;

    RunnerExitCode(int code, String meaning) {
        this.code = code;
        this.meaning = meaning;
    }

    public int code() {
        return code;
    }

    public String meaning() {
        return meaning;
    }
}
