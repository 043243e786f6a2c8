package dev.llmops.serving.operator.config;

import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The operator SDK's metrics per controller, not per resource: the extension's default keeps a dozen meters for every
 * ModelServer and BenchmarkRun, so memory and every Prometheus scrape would grow with the number of resources. Its
 * execution gauges are kept from going negative ({@link PairedExecutionMetrics}).
 */
public class ControllerMetrics {

    @Produces
    @Singleton
    Metrics metrics(MeterRegistry registry) {
        return new PairedExecutionMetrics(MicrometerMetrics.withoutPerResourceMetrics(registry));
    }
}
