package dev.llmops.serving.e2e.support;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** Stops the test suite's child processes the same way everywhere: SIGTERM, a grace period, then SIGKILL. */
public final class Processes {

    private static final Duration KILL_WAIT = Duration.ofSeconds(10);

    private Processes() {}

    /** Asks the process to stop, waits up to {@code grace}, then kills it and waits for its end. */
    public static void stop(Process process, Duration grace) {
        process.destroy();
        try {
            if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(KILL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
