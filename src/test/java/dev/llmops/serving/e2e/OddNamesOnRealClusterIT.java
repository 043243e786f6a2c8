package dev.llmops.serving.e2e;

import static dev.llmops.serving.e2e.support.ServingResources.awaitFinished;
import static dev.llmops.serving.e2e.support.ServingResources.awaitServer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerPhase;
import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.OperatorUnderTest;
import dev.llmops.serving.e2e.support.ServingResources;
import dev.llmops.serving.e2e.support.TestNamespace;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Names the API server accepts but a derived object's kind would not: a dot (no Service name may hold one), a leading
 * digit (no Service name before Kubernetes 1.34), the longest label value, a run name that is neither a label value
 * nor a short name. Each such ModelServer serves behind a Service of a derived name, the run finishes, and a name that
 * can never work is refused at admission, naming metadata.name and the limit.
 */
@E2eTest
class OddNamesOnRealClusterIT {

    private static final String DOTTED = "qwen3.8b";
    private static final String DIGIT_FIRST = "8b-chat";
    private static final String LONGEST = "qwen3-8b-instruct-" + "x".repeat(63 - "qwen3-8b-instruct-".length());
    private static final String RUN = "nightly.qwen3.8b." + "r".repeat(80);

    @RegisterExtension
    static final OperatorUnderTest operator = OperatorUnderTest.installed()
            .onFakeGpuFleet()
            .deletingServersBeforeStop(servers().toArray(String[]::new));

    @BeforeAll
    static void createServers(KubernetesClient client, TestNamespace namespace) {
        for (String name : servers()) {
            ServingResources.sm120Server(client, namespace, name, 1, 1);
        }
    }

    static List<String> servers() {
        return List.of(DOTTED, DIGIT_FIRST, LONGEST);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void aServerOfAnOddButValidNameTurnsReadyBehindAServiceItsEndpointNames(
            String name, KubernetesClient client, TestNamespace namespace) {
        ModelServer server = awaitServer(
                client,
                namespace,
                name,
                s -> s.getStatus() != null && s.getStatus().phase != null,
                "with a phase (" + name + ")");
        server = awaitServer(
                client,
                namespace,
                name,
                s -> s.getStatus().phase == ModelServerPhase.Ready,
                "Ready, not " + server.getStatus().phase + " " + server.getStatus().conditions);

        String host = URI.create(server.getStatus().endpoint).getHost();
        Service service = client.services()
                .inNamespace(namespace.name())
                .withName(host.substring(0, host.indexOf('.')))
                .get();
        assertThat(service).as("Service of " + server.getStatus().endpoint).isNotNull();
        assertThat(service.getMetadata().getName()).matches("[a-z]([-a-z0-9]{0,61}[a-z0-9])?");
        assertThat(client.apps()
                        .deployments()
                        .inNamespace(namespace.name())
                        .withName(name)
                        .get())
                .as("the Deployment keeps the ModelServer's name")
                .isNotNull();
    }

    @Test
    void aRunOfALongDottedNameFinishesAgainstADottedServer(KubernetesClient client, TestNamespace namespace) {
        ServingResources.quickBenchmark(client, namespace, RUN, DOTTED, 2, 4, 16);

        BenchmarkRun finished = awaitFinished(client, namespace, RUN);

        assertThat(finished.getStatus().phase)
                .as("status %s", finished.getStatus().conditions)
                .isEqualTo(BenchmarkRunPhase.Succeeded);
        assertThat(finished.getStatus().jobName).hasSizeLessThanOrEqualTo(63);
    }

    @Test
    void aServerNameLongerThanALabelValueIsRefusedAtAdmission(KubernetesClient client, TestNamespace namespace) {
        String tooLong = LONGEST + "y";

        KubernetesClientException refusal = catchThrowableOfType(
                KubernetesClientException.class, () -> ServingResources.sm120Server(client, namespace, tooLong, 1, 1));

        assertThat(refusal).as(tooLong + " was accepted").isNotNull();
        assertThat(refusal.getCode()).isEqualTo(422);
        assertThat(refusal.getStatus().getMessage()).contains("metadata.name may have at most 63 characters");
    }

    @Test
    void theChartGrantsEveryCallTheOperatorMade() {
        operator.process().assertNothingForbidden();
    }
}
