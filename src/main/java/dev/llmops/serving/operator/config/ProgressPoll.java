package dev.llmops.serving.operator.config;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;

/**
 * How often the BenchmarkRun controller reads a running benchmark's log for its progress: the operator setting
 * {@code llmops.benchmark.progress-poll}, which the demo shortens for its in-process operator before starting it
 * (runtime configuration is fixed by then).
 */
@Singleton
public class ProgressPoll {

    private volatile Duration interval;

    @Inject
    public ProgressPoll(OperatorConfig config) {
        this.interval = config.benchmark().progressPoll();
    }

    public Duration interval() {
        return interval;
    }

    /** Replaces the configured interval; the controller uses it from its next poll on. */
    public void set(Duration interval) {
        this.interval = interval;
    }
}
