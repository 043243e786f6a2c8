package dev.llmops.serving.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.ProjectCrds;
import dev.llmops.serving.e2e.support.ServingResources;
import dev.llmops.serving.e2e.support.TestNamespace;
import dev.llmops.serving.operator.toolkit.StatusWrite;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A status computed from a copy the server has since moved past is refused, on the API server the operator talks to:
 * what keeps a reconcile on a stale cache (after a leader change, or before the informer caught up with the operator's
 * own last write) from writing an old view and recording a transition a second time. Both ways of writing are held
 * to it: server-side apply, as in production, and replacing the status, where server-side apply is switched off.
 */
@E2eTest
class StatusWriteOnRealClusterIT {

    private static final String FIELD_MANAGER = "llm-serving-operator";

    @BeforeAll
    static void installCrds(KubernetesClient client) {
        ProjectCrds.install(client);
    }

    @ParameterizedTest(name = "server-side apply: {0}")
    @ValueSource(booleans = {true, false})
    void aStatusComputedFromAStaleCopyIsRefusedAndTheWrittenOneStays(
            boolean serverSideApply, KubernetesClient client, TestNamespace namespace) {
        String name = "stale-" + serverSideApply;
        BenchmarkRun read = ServingResources.createRun(
                client, namespace, ServingResources.quickRunManifest(name, "absent", "1", 1, 8, ""));

        BenchmarkRun first = withStatus(read, BenchmarkRunPhase.Succeeded, List.of("runner pod lost"));
        BenchmarkRun written = StatusWrite.overReadVersion(client, FIELD_MANAGER, serverSideApply, first);
        assertThat(written.getStatus().phase).isEqualTo(BenchmarkRunPhase.Succeeded);

        BenchmarkRun stale = withStatus(read, BenchmarkRunPhase.Running, List.of());
        assertThatThrownBy(() -> StatusWrite.overReadVersion(client, FIELD_MANAGER, serverSideApply, stale))
                .as("a write over the version read before the first write")
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        refused -> assertThat(refused.getCode()).isEqualTo(409));
        assertThat(onServer(client, namespace, name).getStatus().phase).isEqualTo(BenchmarkRunPhase.Succeeded);

        BenchmarkRun current = withStatus(written, BenchmarkRunPhase.Succeeded, List.of());
        StatusWrite.overReadVersion(client, FIELD_MANAGER, serverSideApply, current);
        assertThat(onServer(client, namespace, name).getStatus().warnings)
                .as("a field the new status no longer has")
                .isEmpty();
    }

    private static BenchmarkRun withStatus(BenchmarkRun read, BenchmarkRunPhase phase, List<String> warnings) {
        BenchmarkRun copy = new BenchmarkRun();
        copy.setMetadata(read.getMetadata());
        copy.setSpec(read.getSpec());
        BenchmarkRunStatus status = new BenchmarkRunStatus();
        status.phase = phase;
        status.warnings.addAll(warnings);
        copy.setStatus(status);
        return copy;
    }

    private static BenchmarkRun onServer(KubernetesClient client, TestNamespace namespace, String name) {
        return client.resources(BenchmarkRun.class)
                .inNamespace(namespace.name())
                .withName(name)
                .get();
    }
}
