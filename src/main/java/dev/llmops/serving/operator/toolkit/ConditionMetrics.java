package dev.llmops.serving.operator.toolkit;

import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.processing.event.source.AbstractEventSource;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.ResourceEventAware;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Exports the Ready and Stalled conditions of every ModelServer and BenchmarkRun as a gauge, so Prometheus can alert on
 * a server that stays unready or a resource that gave up: {@value #NAME}{kind, namespace, name, type} is 1 while the
 * condition is True and 0 while it is False or Unknown. Two series per resource, removed with the resource.
 */
@ApplicationScoped
public class ConditionMetrics {

    public static final String NAME = "llm.serving.status.condition";
    static final List<String> EXPORTED_TYPES = List.of(ConditionTypes.READY, ConditionTypes.STALLED);

    private final MeterRegistry registry;

    public ConditionMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /**
     * An event source for a controller to register: it sees every change of the controller's resources, status-only
     * ones included, which never trigger a reconcile, and keeps their gauges current.
     */
    public <R extends HasMetadata> EventSource<Void, R> eventSource(
            Class<R> kind, Function<R, List<Condition>> conditions) {
        return new ConditionGauges<>(kind, conditions);
    }

    /** One resource's gauge of one condition type, and the value it reads. */
    private record ConditionGauge(AtomicInteger value, Gauge gauge) {}

    /** The gauges of one controller's resources. */
    private final class ConditionGauges<R extends HasMetadata> extends AbstractEventSource<Void, R>
            implements ResourceEventAware<R> {

        private final String kind;
        private final Function<R, List<Condition>> conditions;
        /** Per resource (namespace/name), the gauge of each exported condition type it has. */
        private final Map<String, Map<String, ConditionGauge>> gauges = new ConcurrentHashMap<>();

        ConditionGauges(Class<R> kind, Function<R, List<Condition>> conditions) {
            super(Void.class, "condition-metrics");
            this.kind = HasMetadata.getKind(kind);
            this.conditions = conditions;
        }

        @Override
        public void onResourceCreated(R resource) {
            update(resource);
        }

        @Override
        public void onResourceUpdated(R newResource, R oldResource) {
            update(newResource);
        }

        @Override
        public void onResourceDeleted(R resource) {
            Map<String, ConditionGauge> removed = gauges.remove(key(resource));
            if (removed != null) {
                removed.values().forEach(g -> registry.remove(g.gauge()));
            }
        }

        @Override
        public Set<Void> getSecondaryResources(R resource) {
            return Set.of();
        }

        private void update(R resource) {
            List<Condition> current = conditions.apply(resource);
            gauges.compute(key(resource), (key, byType) -> {
                Map<String, ConditionGauge> updated = byType == null ? new HashMap<>() : byType;
                for (String type : EXPORTED_TYPES) {
                    Conditions.find(current, type)
                            .ifPresentOrElse(
                                    condition -> updated.computeIfAbsent(type, t -> register(resource, t))
                                            .value()
                                            .set(Conditions.TRUE.equals(condition.getStatus()) ? 1 : 0),
                                    () -> {
                                        ConditionGauge gone = updated.remove(type);
                                        if (gone != null) {
                                            registry.remove(gone.gauge());
                                        }
                                    });
                }
                return updated.isEmpty() ? null : updated;
            });
        }

        private ConditionGauge register(R resource, String type) {
            AtomicInteger value = new AtomicInteger();
            Gauge gauge = Gauge.builder(NAME, value, AtomicInteger::get)
                    .tags(
                            "kind",
                            kind,
                            "namespace",
                            resource.getMetadata().getNamespace(),
                            "name",
                            resource.getMetadata().getName(),
                            "type",
                            type)
                    .strongReference(true)
                    .description("1 while the resource's condition of this type is True, 0 while False or Unknown")
                    .register(registry);
            return new ConditionGauge(value, gauge);
        }

        private String key(R resource) {
            return resource.getMetadata().getNamespace() + "/"
                    + resource.getMetadata().getName();
        }
    }
}
