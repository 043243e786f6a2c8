package dev.llmops.serving.operator.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The operator SDK's two gauges, as its Micrometer metrics keep them (queued: submitted until finished; executing:
 * started until finished), end at zero whether a reconcile runs or is skipped after it was submitted.
 */
class PairedExecutionMetricsTest {

    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicInteger executing = new AtomicInteger();
    private final Metrics metrics = new PairedExecutionMetrics(new Metrics() {
        @Override
        public void reconcileCustomResource(HasMetadata resource, RetryInfo retry, Map<String, Object> metadata) {
            queued.incrementAndGet();
        }

        @Override
        public void reconciliationExecutionStarted(HasMetadata resource, Map<String, Object> metadata) {
            executing.incrementAndGet();
        }

        @Override
        public void reconciliationExecutionFinished(HasMetadata resource, Map<String, Object> metadata) {
            queued.decrementAndGet();
            executing.decrementAndGet();
        }
    });
    private final ModelServer server = new ModelServer();

    @Test
    void aReconcileSkippedAfterItWasSubmittedLeavesBothGaugesAtZero() {
        metrics.reconcileCustomResource(server, null, Map.of());
        // The SDK's path for a resource deleted while its reconcile waited: finished, never started.
        metrics.reconciliationExecutionFinished(server, Map.of());

        assertThat(queued).hasValue(0);
        assertThat(executing).hasValue(0);
    }

    @Test
    void reconcilesAreCountedUntilTheyFinishOnTheirOwnThread() throws InterruptedException {
        metrics.reconcileCustomResource(server, null, Map.of());
        metrics.reconciliationExecutionStarted(server, Map.of());
        Thread other = new Thread(() -> {
            metrics.reconcileCustomResource(server, null, Map.of());
            metrics.reconciliationExecutionStarted(server, Map.of());
            metrics.reconciliationExecutionFinished(server, Map.of());
        });
        other.start();
        other.join();
        assertThat(executing).as("the other thread's reconcile finished").hasValue(1);
        assertThat(queued).hasValue(1);

        metrics.reconciliationExecutionFinished(server, Map.of());
        assertThat(executing).hasValue(0);
        assertThat(queued).hasValue(0);
    }
}
