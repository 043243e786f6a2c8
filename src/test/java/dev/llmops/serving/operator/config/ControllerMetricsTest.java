package dev.llmops.serving.operator.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The operator counts events and reconciliations per controller and kind, without a meter per resource. */
@QuarkusTest
@WithKubernetesTestServer(crud = true)
class ControllerMetricsTest {

    @Inject
    Metrics metrics;

    @Inject
    MeterRegistry registry;

    @Test
    void eventsOfManyServersShareOneCounter() {
        Map<String, Object> metadata = Map.of(
                Constants.RESOURCE_GVK_KEY,
                GroupVersionKind.gvkFor(ModelServer.class),
                Constants.CONTROLLER_NAME,
                "modelserver");
        double before = received();
        for (int i = 0; i < 3; i++) {
            metrics.receivedEvent(new Event(new ResourceID("metrics-" + i, "metrics")), metadata);
        }

        assertThat(received() - before).isEqualTo(3);
        assertThat(registry.getMeters())
                .noneMatch(meter -> "metrics".equals(meter.getId().getTag("namespace")));
    }

    private double received() {
        return registry.find("operator.sdk.events.received").tag("kind", "ModelServer").counters().stream()
                .mapToDouble(Counter::count)
                .sum();
    }
}
