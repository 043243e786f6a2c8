package dev.llmops.serving.operator.benchmark;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * How long a new run holds back its first status until its ModelServer has reported one. A run applied together with
 * its server would otherwise write "has not reported yet" (or "does not exist", when its informer has not seen the
 * server yet) and, a moment later, what the server reported: two status writes where one says as much. The server's
 * first status wakes the run; the wait is bounded, so a server that never reports still leaves the run a status.
 */
final class FirstStatusWait {

    /** The longest a new run waits for its server's first status before it writes its own. */
    static final Duration LIMIT = Duration.ofSeconds(30);

    private FirstStatusWait() {}

    /** The time left to wait, or empty when the run should write its status now. */
    static Optional<Duration> remaining(BenchmarkRun run, TargetState target, boolean jobExists, Instant now) {
        boolean serverReported =
                target.modelServer().map(server -> server.getStatus() != null).orElse(false);
        if (run.getStatus() != null || run.getSpec().target.modelServer == null || serverReported || jobExists) {
            return Optional.empty();
        }
        Duration limit = LIMIT.compareTo(Duration.ofSeconds(run.getSpec().waitTimeoutSeconds)) < 0
                ? LIMIT
                : Duration.ofSeconds(run.getSpec().waitTimeoutSeconds);
        Instant writeBy =
                Instant.parse(run.getMetadata().getCreationTimestamp()).plus(limit);
        return now.isBefore(writeBy) ? Optional.of(Duration.between(now, writeBy)) : Optional.empty();
    }
}
