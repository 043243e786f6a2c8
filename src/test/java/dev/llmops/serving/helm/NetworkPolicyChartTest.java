package dev.llmops.serving.helm;

import static dev.llmops.serving.helm.RenderedChart.NAMESPACE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.operator.benchmark.BenchmarkJobDependent;
import dev.llmops.serving.operator.modelserver.ModelServerLabels;
import dev.llmops.serving.operator.modelserver.SglangPodTemplate;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The chart's optional NetworkPolicy selects the SGLang serving pods by the labels the operator puts on them and lets
 * their HTTP port be reached only by the operator's pods, the benchmark runner pods and the configured extra peers.
 */
class NetworkPolicyChartTest {

    private static final ModelServer SERVER = server("llm");
    private static final Map<String, String> SERVING_POD = ModelServerLabels.pod(SERVER, Labels.SERVER);
    private static final Map<String, String> WORKER_POD = ModelServerLabels.pod(SERVER, Labels.WORKER);
    private static final Map<String, String> OTHER_SERVING_POD = ModelServerLabels.pod(server("other"), Labels.SERVER);
    private static final Map<String, String> RUNNER_POD =
            BenchmarkJobDependent.labels(BenchmarkJobDependent.jobName("sweep"));

    @Test
    void theDefaultChartRendersNoNetworkPolicy() {
        assertThat(RenderedChart.render(Map.of()).all(NetworkPolicy.class)).isEmpty();
    }

    @Test
    void oneNetworkPolicyPerWatchedNamespaceSelectsEveryServingPodAndNoOtherPod() {
        RenderedChart chart = RenderedChart.render(
                Map.of("networkPolicy.enabled", true, "watchNamespaces[0]", "team-a", "watchNamespaces[1]", "team-b"));

        List<NetworkPolicy> policies = chart.all(NetworkPolicy.class).toList();
        assertThat(policies).extracting(p -> p.getMetadata().getNamespace()).containsExactly("team-a", "team-b");
        for (NetworkPolicy policy : policies) {
            LabelSelector servers = policy.getSpec().getPodSelector();
            assertThat(servers.getMatchExpressions()).isNullOrEmpty();
            assertThat(selects(servers, SERVING_POD)).isTrue();
            assertThat(selects(servers, OTHER_SERVING_POD)).isTrue();
            assertThat(selects(servers, WORKER_POD)).isFalse();
            assertThat(selects(servers, RUNNER_POD)).isFalse();
            assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress");
        }
    }

    @Test
    void theServerPortAdmitsTheOperatorPodsAndTheRunnerPodsOnly() {
        RenderedChart chart = RenderedChart.render(Map.of("networkPolicy.enabled", true));
        NetworkPolicy policy = chart.all(NetworkPolicy.class).findFirst().orElseThrow();
        NetworkPolicyIngressRule http = policy.getSpec().getIngress().get(0);

        assertThat(policy.getMetadata().getNamespace()).isEqualTo(NAMESPACE);
        assertThat(http.getPorts())
                .extracting(NetworkPolicyPort::getPort)
                .containsExactly(new IntOrString(SglangPodTemplate.PORT_NAME));
        assertThat(http.getFrom()).hasSize(2);
        NetworkPolicyPeer operator = http.getFrom().get(0);
        Map<String, String> operatorPod =
                chart.deployment().getSpec().getTemplate().getMetadata().getLabels();
        assertThat(operator.getNamespaceSelector().getMatchLabels())
                .containsExactly(Map.entry("kubernetes.io/metadata.name", NAMESPACE));
        assertThat(operator.getPodSelector().getMatchLabels())
                .isEqualTo(chart.deployment().getSpec().getSelector().getMatchLabels());
        assertThat(selects(operator.getPodSelector(), operatorPod)).isTrue();
        NetworkPolicyPeer runners = http.getFrom().get(1);
        assertThat(runners.getNamespaceSelector())
                .as("runner pods of the server's own namespace")
                .isNull();
        assertThat(selects(runners.getPodSelector(), RUNNER_POD)).isTrue();
        assertThat(selects(runners.getPodSelector(), SERVING_POD)).isFalse();
        assertThat(selects(runners.getPodSelector(), operatorPod)).isFalse();
    }

    @Test
    void theNamespacePolicyOpensTheHttpPortOnlyAndTheOperatorIsToldToIsolateMultiNodeServers() {
        RenderedChart chart = RenderedChart.render(Map.of("networkPolicy.enabled", true));
        NetworkPolicy policy = chart.all(NetworkPolicy.class).findFirst().orElseThrow();

        assertThat(policy.getSpec().getIngress())
                .as("no rule lets one server's pods reach another server's pods on every port")
                .hasSize(1);
        assertThat(HelmChartTest.env(chart.operatorContainer())).containsEntry("LLMOPS_NETWORK_POLICY_ENABLED", "true");
        assertThat(HelmChartTest.env(RenderedChart.render(Map.of()).operatorContainer()))
                .doesNotContainKey("LLMOPS_NETWORK_POLICY_ENABLED");
    }

    @Test
    void extraPeersReachTheServerPort() {
        NetworkPolicy policy = RenderedChart.render(Map.of(
                        "networkPolicy.enabled",
                        true,
                        "networkPolicy.extraPeers[0].namespaceSelector.matchLabels.kubernetes\\.io/metadata\\.name",
                        "monitoring",
                        "networkPolicy.extraPeers[0].podSelector.matchLabels.app\\.kubernetes\\.io/name",
                        "prometheus"))
                .all(NetworkPolicy.class)
                .findFirst()
                .orElseThrow();

        NetworkPolicyPeer prometheus =
                policy.getSpec().getIngress().get(0).getFrom().get(2);
        assertThat(prometheus.getNamespaceSelector().getMatchLabels())
                .containsExactly(Map.entry("kubernetes.io/metadata.name", "monitoring"));
        assertThat(prometheus.getPodSelector().getMatchLabels())
                .containsExactly(Map.entry("app.kubernetes.io/name", "prometheus"));
    }

    @Test
    void watchingAllNamespacesIsRefusedWithTheValuesNamed() {
        assertThatThrownBy(
                        () -> RenderedChart.render(Map.of("networkPolicy.enabled", true, "watchAllNamespaces", true)))
                .hasMessageContaining("networkPolicy.enabled")
                .hasMessageContaining("watchAllNamespaces");
    }

    @Test
    void aMistypedPeerIsRefusedBySchema() {
        assertThatThrownBy(() -> RenderedChart.render(Map.of(
                        "networkPolicy.enabled", true, "networkPolicy.extraPeers[0].podSelektor.matchLabels.a", "b")))
                .hasMessageContaining("podSelektor");
    }

    /** Whether a matchLabels selector (the chart uses no expressions) selects a pod with these labels. */
    private static boolean selects(LabelSelector selector, Map<String, String> labels) {
        assertThat(selector.getMatchExpressions()).isNullOrEmpty();
        return labels.entrySet().containsAll(selector.getMatchLabels().entrySet());
    }

    private static ModelServer server(String name) {
        ModelServer server = new ModelServer();
        server.setMetadata(
                new ObjectMetaBuilder().withName(name).withNamespace("team-a").build());
        return server;
    }
}
