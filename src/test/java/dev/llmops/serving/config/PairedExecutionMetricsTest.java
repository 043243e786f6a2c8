package dev.llmops.serving.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.ModelServer;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Executions the operator SDK reports as finished without having started them leave the gauges where they were. */
class PairedExecutionMetricsTest {

    private final AtomicInteger executing = new AtomicInteger();
    private final Metrics metrics = new PairedExecutionMetrics(new Metrics() {
        @Override
        public void reconciliationExecutionStarted(HasMetadata resource, Map<String, Object> metadata) {
            executing.incrementAndGet();
        }

        @Override
        public void reconciliationExecutionFinished(HasMetadata resource, Map<String, Object> metadata) {
            executing.decrementAndGet();
        }
    });
    private final ModelServer server = new ModelServer();

    @Test
    void aSkippedExecutionIsNotCountedAsFinished() {
        // The SDK's path for a resource deleted while its reconcile waited in the queue.
        metrics.reconciliationExecutionFinished(server, Map.of());

        assertThat(executing).hasValue(0);
    }

    @Test
    void startedExecutionsAreCountedUntilTheyFinish() throws InterruptedException {
        metrics.reconciliationExecutionStarted(server, Map.of());
        Thread other = new Thread(() -> {
            metrics.reconciliationExecutionStarted(server, Map.of());
            metrics.reconciliationExecutionFinished(server, Map.of());
            metrics.reconciliationExecutionFinished(server, Map.of());
        });
        other.start();
        other.join();
        assertThat(executing).as("the other thread's execution finished once").hasValue(1);

        metrics.reconciliationExecutionFinished(server, Map.of());
        assertThat(executing).hasValue(0);
    }
}
