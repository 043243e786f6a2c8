package dev.llmops.serving.operator.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.BenchmarkTarget;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FirstStatusWaitTest {

    private static final Instant CREATED = Instant.parse("2025-06-01T10:00:00Z");

    @Test
    void aNewRunWaitsForItsServersFirstReportAtMostTheLimit() {
        BenchmarkRun run = run("srv", 600);
        assertThat(FirstStatusWait.remaining(
                        run, target(run, Optional.of(server(null))), false, CREATED.plusSeconds(5)))
                .contains(FirstStatusWait.LIMIT.minusSeconds(5));
        assertThat(FirstStatusWait.remaining(run, target(run, Optional.empty()), false, CREATED.plusSeconds(5)))
                .as("the run's informer may see it before the server")
                .contains(FirstStatusWait.LIMIT.minusSeconds(5));
        assertThat(FirstStatusWait.remaining(
                        run, target(run, Optional.empty()), false, CREATED.plus(FirstStatusWait.LIMIT)))
                .isEmpty();
    }

    @Test
    void aShorterWaitTimeoutEndsTheWaitSooner() {
        BenchmarkRun run = run("srv", 10);
        assertThat(FirstStatusWait.remaining(run, target(run, Optional.empty()), false, CREATED.plusSeconds(4)))
                .contains(Duration.ofSeconds(6));
    }

    @Test
    void writesAtOnceOnceTheServerReportedOrTheRunHasAStatusAJobOrAUrl() {
        BenchmarkRun run = run("srv", 600);
        Instant now = CREATED.plusSeconds(1);
        assertThat(FirstStatusWait.remaining(
                        run, target(run, Optional.of(server(new ModelServerStatus()))), false, now))
                .isEmpty();
        assertThat(FirstStatusWait.remaining(run, target(run, Optional.empty()), true, now))
                .isEmpty();
        BenchmarkRun withStatus = run("srv", 600);
        withStatus.setStatus(new BenchmarkRunStatus());
        assertThat(FirstStatusWait.remaining(withStatus, target(withStatus, Optional.empty()), false, now))
                .isEmpty();
        BenchmarkRun external = run(null, 600);
        external.getSpec().target.url = "http://sglang.example:30000";
        assertThat(FirstStatusWait.remaining(external, target(external, Optional.empty()), false, now))
                .isEmpty();
    }

    private static TargetState target(BenchmarkRun run, Optional<ModelServer> server) {
        return TargetState.of(run, server, new ApiKeyHosts(List.of()));
    }

    private static BenchmarkRun run(String modelServer, int waitTimeoutSeconds) {
        BenchmarkRun run = new BenchmarkRun();
        run.setMetadata(new ObjectMetaBuilder()
                .withName("run")
                .withNamespace("ns")
                .withCreationTimestamp(CREATED.toString())
                .build());
        run.setSpec(new BenchmarkRunSpec());
        run.getSpec().target = new BenchmarkTarget();
        run.getSpec().target.modelServer = modelServer;
        run.getSpec().target.model = "m";
        run.getSpec().waitTimeoutSeconds = waitTimeoutSeconds;
        return run;
    }

    private static ModelServer server(ModelServerStatus status) {
        ModelServer server = new ModelServer();
        server.setMetadata(
                new ObjectMetaBuilder().withName("srv").withNamespace("ns").build());
        server.setStatus(status);
        return server;
    }
}
