package dev.llmops.serving.operator.config;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.javaoperatorsdk.operator.processing.Controller;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.Map;

/**
 * The operator SDK's metrics with each finished execution matched to a started one. The SDK counts a reconcile into its
 * queue gauge when it submits it and into its executions gauge when it starts, and takes it out of both when it
 * finishes; but a reconcile it skips, its resource deleted while it waited, finishes without having started, and the
 * executions gauge drifted below zero with every such deletion. Such a finish is reported as a start and a finish.
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
        if (!STARTED.get()) {
            delegate.reconciliationExecutionStarted(resource, metadata);
        }
        STARTED.set(false);
        delegate.reconciliationExecutionFinished(resource, metadata);
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
