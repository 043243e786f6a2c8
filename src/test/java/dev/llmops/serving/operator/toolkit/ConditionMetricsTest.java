package dev.llmops.serving.operator.toolkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.javaoperatorsdk.operator.processing.event.source.ResourceEventAware;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/** Each resource's Ready and Stalled conditions become gauges that follow every status change and go with it. */
class ConditionMetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final Conditions conditions = Conditions.systemUtc();

    @Test
    void readyAndStalledFollowTheStatusAndLeaveWithTheResource() {
        ResourceEventAware<ModelServer> gauges = modelServerGauges();
        ModelServer loading = server("llm", Conditions.FALSE);
        conditions.set(loading.getStatus().conditions, ConditionTypes.STALLED, Conditions.FALSE, "Ok", "", 1L);
        conditions.set(loading.getStatus().conditions, ConditionTypes.RECONCILING, Conditions.TRUE, "Loading", "", 1L);

        gauges.onResourceCreated(loading);

        assertThat(value("llm", ConditionTypes.READY)).isEqualTo(0.0);
        assertThat(value("llm", ConditionTypes.STALLED)).isEqualTo(0.0);
        assertThat(registry.find(ConditionMetrics.NAME)
                        .tag("type", ConditionTypes.RECONCILING)
                        .gauge())
                .as("only Ready and Stalled are exported")
                .isNull();

        ModelServer ready = server("llm", Conditions.TRUE);
        gauges.onResourceUpdated(ready, loading);

        assertThat(value("llm", ConditionTypes.READY)).isEqualTo(1.0);
        assertThat(registry.find(ConditionMetrics.NAME)
                        .tag("type", ConditionTypes.STALLED)
                        .gauge())
                .as("a condition the status no longer has is not exported")
                .isNull();

        gauges.onResourceDeleted(ready);

        assertThat(registry.find(ConditionMetrics.NAME).gauges()).isEmpty();
    }

    @Test
    void unknownIsNotTrueAndEachResourceHasItsOwnSeries() {
        ResourceEventAware<ModelServer> gauges = modelServerGauges();

        gauges.onResourceCreated(server("a", Conditions.UNKNOWN));
        gauges.onResourceCreated(server("b", Conditions.TRUE));

        assertThat(value("a", ConditionTypes.READY)).isEqualTo(0.0);
        assertThat(value("b", ConditionTypes.READY)).isEqualTo(1.0);
        Gauge gauge = registry.find(ConditionMetrics.NAME).tag("name", "b").gauge();
        assertThat(gauge.getId().getTag("kind")).isEqualTo("ModelServer");
        assertThat(gauge.getId().getTag("namespace")).isEqualTo("ns");
    }

    @Test
    void aResourceWithoutStatusHasNoSeries() {
        ResourceEventAware<BenchmarkRun> gauges = cast(new ConditionMetrics(registry)
                .eventSource(BenchmarkRun.class, run -> run.getStatus() == null ? null : run.getStatus().conditions));
        BenchmarkRun run = new BenchmarkRun();
        run.setMetadata(
                new ObjectMetaBuilder().withName("run").withNamespace("ns").build());
        run.setStatus(null);

        gauges.onResourceCreated(run);

        assertThat(registry.getMeters()).isEmpty();
    }

    private ResourceEventAware<ModelServer> modelServerGauges() {
        return cast(
                new ConditionMetrics(registry).eventSource(ModelServer.class, server -> server.getStatus().conditions));
    }

    @SuppressWarnings("unchecked")
    private static <R extends HasMetadata> ResourceEventAware<R> cast(Object eventSource) {
        return (ResourceEventAware<R>) eventSource;
    }

    private double value(String name, String type) {
        return registry.get(ConditionMetrics.NAME)
                .tag("name", name)
                .tag("type", type)
                .gauge()
                .value();
    }

    private ModelServer server(String name, String ready) {
        ModelServer server = new ModelServer();
        server.setMetadata(
                new ObjectMetaBuilder().withName(name).withNamespace("ns").build());
        server.setStatus(new ModelServerStatus());
        conditions.set(server.getStatus().conditions, ConditionTypes.READY, ready, "Test", "", 1L);
        return server;
    }
}
