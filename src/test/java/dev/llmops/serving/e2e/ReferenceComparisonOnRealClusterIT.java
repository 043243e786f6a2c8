package dev.llmops.serving.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.demo.SimulatedServerProfile;
import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.LocalControlPlane;
import dev.llmops.serving.e2e.support.OperatorUnderTest;
import dev.llmops.serving.e2e.support.ServingResources;
import dev.llmops.serving.e2e.support.TestNamespace;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A reference comparison through the real Job controller, as a pipeline gating an upgrade uses it: a run names an
 * earlier run as {@code spec.reference}, the operator reads both runs' per-request samples from their benchmark pods'
 * logs (through the API server and the fleet's kubelet log endpoint), and the run's {@code Regressed} condition flags
 * a server 20 % slower per token and calls a 1 % slower one within noise.
 *
 * <p>The manifests and status reads are generic (YAML and paths), not the typed API, so the test states the contract
 * of {@code spec.reference} and the Regressed condition independently of the Java classes behind them.
 */
@E2eTest
class ReferenceComparisonOnRealClusterIT {

    private static final String BASELINE_SERVER = "ref-baseline";
    private static final String SLOWER_SERVER = "ref-slower-20";
    private static final String NEAR_SERVER = "ref-slower-1";
    private static final String REFERENCE = "reference";
    private static final String SLOWER = "slower-20";
    private static final String NEAR = "slower-1";
    private static final String SWEEP_STAGE = "c2";
    private static final String API_VERSION = "serving.llmops.dev/v1alpha1";
    private static final String KIND = "BenchmarkRun";
    private static final int REQUESTS = 12;
    private static final Duration VERDICT_TIMEOUT = Duration.ofSeconds(60);

    @RegisterExtension
    static final OperatorUnderTest operator = OperatorUnderTest.installed()
            .onFakeGpuFleet()
            .beforeStart((cluster, namespace) -> {
                cluster.simulate(namespace, BASELINE_SERVER, perTokenSlower(1.0));
                cluster.simulate(namespace, SLOWER_SERVER, perTokenSlower(1.2));
                cluster.simulate(namespace, NEAR_SERVER, perTokenSlower(1.01));
            })
            .deletingServersBeforeStop(BASELINE_SERVER, SLOWER_SERVER, NEAR_SERVER);

    private static GenericKubernetesResource slower;
    private static GenericKubernetesResource near;

    @BeforeAll
    static void runReferenceAndCandidates(KubernetesClient client, TestNamespace namespace) {
        for (String server : List.of(BASELINE_SERVER, SLOWER_SERVER, NEAR_SERVER)) {
            ServingResources.sm120Server(client, namespace, server, 1, 1);
        }
        // One after the other, so that no run's timing suffers from another's load on the machine.
        create(client, namespace, run(REFERENCE, BASELINE_SERVER, ""));
        assertThat(phase(awaitFinished(client, namespace, REFERENCE))).isEqualTo("Succeeded");
        create(client, namespace, run(SLOWER, SLOWER_SERVER, REFERENCE));
        slower = awaitVerdict(client, namespace, SLOWER);
        create(client, namespace, run(NEAR, NEAR_SERVER, REFERENCE));
        near = awaitVerdict(client, namespace, NEAR);
    }

    @Test
    void aServerTwentyPercentSlowerPerTokenRegressed() {
        Map<String, Object> regressed = condition(slower, "Regressed").orElseThrow();
        assertThat(regressed)
                .as("Regressed of %s", status(slower))
                .containsEntry("status", "True")
                .containsEntry("reason", "Regressed");
        assertThat((String) regressed.get("message")).contains(SWEEP_STAGE);
        Map<String, Object> stage = comparedStage(slower, SWEEP_STAGE);
        assertThat(stage).containsEntry("verdict", "Slower");
        // 24 tokens: 30 ms to the first, then 23 steps of 12 instead of 10 ms, about 0.85 of the reference's tok/s
        assertThat(number(stage.get("throughputSpeedup"))).isBetween(0.75, 0.93);
        assertThat(number(interval(stage).get("high"))).isLessThan(1.0);
    }

    @Test
    void aServerOnePercentSlowerIsWithinNoise() {
        assertThat(condition(near, "Regressed").orElseThrow())
                .as("Regressed of %s", status(near))
                .containsEntry("status", "False")
                .containsEntry("reason", "WithinNoise");
        assertThat(condition(near, "Improved"))
                .hasValueSatisfying(improved -> assertThat(improved).doesNotContainEntry("status", "True"));
        Map<String, Object> stage = comparedStage(near, SWEEP_STAGE);
        assertThat(stage).containsEntry("verdict", "NoSignificantDifference");
        assertThat(number(stage.get("throughputSpeedup"))).isBetween(0.95, 1.05);
    }

    @Test
    void bothComparisonsPairedTheSameRequests() {
        for (GenericKubernetesResource run : List.of(slower, near)) {
            assertThat((Object) run.get("status", "referenceComparison", "workloadMatched"))
                    .as("workloadMatched of %s", run.getMetadata().getName())
                    .isEqualTo(true);
            assertThat(number(comparedStage(run, SWEEP_STAGE).get("pairs"))).isEqualTo(REQUESTS);
            assertThat((String) run.get("status", "samples"))
                    .isEqualTo(run.getMetadata().getName() + "-samples");
        }
    }

    @Test
    void theChartGrantsEveryCallTheOperatorMade() {
        operator.process().assertNothingForbidden();
    }

    /**
     * One short single request and {@value #REQUESTS} requests at concurrency 2 of a few dozen tokens: enough pairs
     * (more than the comparison's minimum of five) for an interval, a few seconds of benchmarking.
     */
    private static String run(String name, String server, String reference) {
        return ServingResources.quickRunManifest(
                name,
                server,
                "2",
                REQUESTS,
                24,
                "  quality:\n    maxTokens: 8\n"
                        + (reference.isEmpty() ? "" : "  reference:\n    name: " + reference + "\n"));
    }

    /** The suite's quick server with each decode step {@code factor} times as long (TTFT unchanged). */
    private static SimulatedServerProfile perTokenSlower(double factor) {
        return LocalControlPlane.SIMULATED_SERVER.withStepDelayScaledBy(factor);
    }

    private static void create(KubernetesClient client, TestNamespace namespace, String yaml) {
        GenericKubernetesResource run =
                client.getKubernetesSerialization().unmarshal(yaml, GenericKubernetesResource.class);
        client.resource(run).inNamespace(namespace.name()).create();
    }

    private static GenericKubernetesResource awaitFinished(
            KubernetesClient client, TestNamespace namespace, String name) {
        return await(KIND + " " + name + " finished")
                .atMost(ServingResources.RUN_TIMEOUT)
                .pollInterval(Duration.ofMillis(500))
                .until(
                        () -> get(client, namespace, name),
                        run -> run != null && ("Succeeded".equals(phase(run)) || "Failed".equals(phase(run))));
    }

    /** Waits until the run finished and its Regressed condition is True or False (the comparison was made). */
    private static GenericKubernetesResource awaitVerdict(
            KubernetesClient client, TestNamespace namespace, String name) {
        GenericKubernetesResource finished = awaitFinished(client, namespace, name);
        assertThat(phase(finished))
                .as("phase of %s: %s", name, status(finished))
                .isEqualTo("Succeeded");
        return await(KIND + " " + name + " compared with its reference")
                .atMost(VERDICT_TIMEOUT)
                .pollInterval(Duration.ofMillis(500))
                .until(
                        () -> get(client, namespace, name),
                        run -> condition(run, "Regressed")
                                .map(c -> List.of("True", "False").contains(c.get("status")))
                                .orElse(false));
    }

    private static GenericKubernetesResource get(KubernetesClient client, TestNamespace namespace, String name) {
        return client.genericKubernetesResources(API_VERSION, KIND)
                .inNamespace(namespace.name())
                .withName(name)
                .get();
    }

    private static Map<String, Object> status(GenericKubernetesResource run) {
        return run.get("status");
    }

    private static String phase(GenericKubernetesResource run) {
        return run.get("status", "phase");
    }

    private static Optional<Map<String, Object>> condition(GenericKubernetesResource run, String type) {
        List<Map<String, Object>> conditions = run.get("status", "conditions");
        return conditions == null
                ? Optional.empty()
                : conditions.stream().filter(c -> type.equals(c.get("type"))).findFirst();
    }

    private static Map<String, Object> comparedStage(GenericKubernetesResource run, String stage) {
        List<Map<String, Object>> stages = run.get("status", "referenceComparison", "stages");
        assertThat(stages)
                .as("referenceComparison.stages of %s", run.getMetadata().getName())
                .isNotNull();
        return stages.stream()
                .filter(s -> stage.equals(s.get("name")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no stage " + stage + " in " + stages));
    }

    private static Map<String, Object> interval(Map<String, Object> stage) {
        @SuppressWarnings("unchecked")
        Map<String, Object> interval = (Map<String, Object>) stage.get("throughputSpeedupInterval");
        assertThat(interval).as("throughputSpeedupInterval of %s", stage).isNotNull();
        return interval;
    }

    private static double number(Object value) {
        assertThat(value).isInstanceOf(Number.class);
        return ((Number) value).doubleValue();
    }
}
