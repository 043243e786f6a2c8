package dev.llmops.serving.config;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.javaoperatorsdk.operator.processing.Controller;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.Map;

/**
 * The operator SDK's metrics with each finished execution matched to a started one. The SDK reports an execution as
 * finished, never as started, when it skips a resource that was deleted while its reconcile waited in the queue, and
 * the executions and queue gauges, which it decrements then, drift below zero with every such deletion.
 */
final class PairedExecutionMetrics implements Metrics {

    /** Whether the execution on this thread was reported as started; the SDK runs one execution per thread. */
    private static final ThreadLocal<Boolean> STARTED = ThreadLocal.withInitial(() -> false);

    private final Metrics delegate;

    PairedExecutionMetrics(Metrics delegate) {
        this.delegate = delegate;
    }

    @Override
    public void reconciliationExecutionStarted(HasMetadata resource, Map<String, Object> metadata) {
        STARTED.set(true);
        delegate.reconciliationExecutionStarted(resource, metadata);
    }

    @Override
    public void reconciliationExecutionFinished(HasMetadata resource, Map<String, Object> metadata) {
        if (STARTED.get()) {
            STARTED.set(false);
            delegate.reconciliationExecutionFinished(resource, metadata);
        }
    }

    @Override
    public void controllerRegistered(Controller<? extends HasMetadata> controller) {
        delegate.controllerRegistered(controller);
    }

    @Override
    public void receivedEvent(Event event, Map<String, Object> metadata) {
        delegate.receivedEvent(event, metadata);
    }

    @Override
    public void reconcileCustomResource(HasMetadata resource, RetryInfo retryInfo, Map<String, Object> metadata) {
        delegate.reconcileCustomResource(resource, retryInfo, metadata);
    }

    @Override
    public void failedReconciliation(HasMetadata resource, Exception exception, Map<String, Object> metadata) {
        delegate.failedReconciliation(resource, exception, metadata);
    }

    @Override
    public void cleanupDoneFor(ResourceID resourceID, Map<String, Object> metadata) {
        delegate.cleanupDoneFor(resourceID, metadata);
    }

    @Override
    public void finishedReconciliation(HasMetadata resource, Map<String, Object> metadata) {
        delegate.finishedReconciliation(resource, metadata);
    }

    @Override
    public <T> T timeControllerExecution(ControllerExecution<T> execution) throws Exception {
        return delegate.timeControllerExecution(execution);
    }

    @Override
    public <T extends Map<?, ?>> T monitorSizeOf(T map, String name) {
        return delegate.monitorSizeOf(map, name);
    }
}
