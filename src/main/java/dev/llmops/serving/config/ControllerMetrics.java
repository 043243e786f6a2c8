package dev.llmops.serving.config;

import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The operator SDK's metrics per controller, not per resource. The extension's default keeps a dozen meters for every
 * ModelServer and BenchmarkRun: at a thousand servers they filled the heap the chart gives the operator, and every
 * Prometheus scrape rendered them all.
 */
public class ControllerMetrics {

    @Produces
    @Singleton
    Metrics metrics(MeterRegistry registry) {
        return MicrometerMetrics.withoutPerResourceMetrics(registry);
    }
}
