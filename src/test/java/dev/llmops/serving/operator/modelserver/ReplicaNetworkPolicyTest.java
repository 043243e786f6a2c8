package dev.llmops.serving.operator.modelserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.operator.benchmark.BenchmarkJobDependent;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The NetworkPolicy of a multi-node ModelServer opens every port between that server's own pods and to no pod of
 * another server in the namespace, and exists only where the platform enabled NetworkPolicies and replicas span nodes.
 */
class ReplicaNetworkPolicyTest {

    private final ModelServer kimi = multiNode("kimi");
    private final ModelServer other = multiNode("kimi-other");

    @Test
    void itSelectsTheLeaderAndWorkersOfItsServerOnly() {
        LabelSelector selected =
                ReplicaNetworkPolicyDependent.desired(kimi).getSpec().getPodSelector();

        assertThat(selects(selected, ModelServerLabels.pod(kimi, Labels.SERVER)))
                .isTrue();
        assertThat(selects(selected, ModelServerLabels.pod(kimi, Labels.WORKER)))
                .isTrue();
        assertThat(selects(selected, ModelServerLabels.pod(other, Labels.SERVER)))
                .isFalse();
        assertThat(selects(selected, ModelServerLabels.pod(other, Labels.WORKER)))
                .isFalse();
    }

    @Test
    void onlyThePodsOfTheSameServerGetInOnEveryPort() {
        NetworkPolicy policy = ReplicaNetworkPolicyDependent.desired(kimi);

        assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress");
        NetworkPolicyIngressRule rule = policy.getSpec().getIngress().get(0);
        assertThat(policy.getSpec().getIngress()).hasSize(1);
        assertThat(rule.getPorts()).as("every port").isNullOrEmpty();
        assertThat(rule.getFrom()).singleElement().satisfies(peer -> {
            assertThat(peer.getNamespaceSelector()).as("this namespace only").isNull();
            assertThat(peer.getIpBlock()).isNull();
            assertThat(selects(peer.getPodSelector(), ModelServerLabels.pod(kimi, Labels.WORKER)))
                    .isTrue();
            assertThat(selects(peer.getPodSelector(), ModelServerLabels.pod(kimi, Labels.SERVER)))
                    .isTrue();
            assertThat(selects(peer.getPodSelector(), ModelServerLabels.pod(other, Labels.WORKER)))
                    .isFalse();
            assertThat(selects(peer.getPodSelector(), ModelServerLabels.pod(other, Labels.SERVER)))
                    .isFalse();
            Map<String, String> runner = BenchmarkJobDependent.labels(BenchmarkJobDependent.jobName("sweep"));
            assertThat(selects(peer.getPodSelector(), runner)).isFalse();
        });
    }

    @Test
    void itIsNamedAndLabelledAfterItsServer() {
        NetworkPolicy policy = ReplicaNetworkPolicyDependent.desired(kimi);

        assertThat(policy.getMetadata().getName()).isEqualTo("kimi-replica");
        assertThat(policy.getMetadata().getNamespace()).isEqualTo("team-a");
        assertThat(policy.getMetadata().getLabels()).containsAllEntriesOf(ModelServerLabels.common(kimi));
    }

    @Test
    void itIsWantedOnlyForMultiNodeServersWithNetworkPoliciesEnabled() {
        ModelServer singleNode = multiNode("qwen");
        singleNode.getSpec().parallelism.nodes = 1;

        assertThat(wanted(kimi, true)).isTrue();
        assertThat(wanted(singleNode, true)).isFalse();
        assertThat(wanted(kimi, false)).isFalse();
    }

    private static boolean wanted(ModelServer server, boolean networkPoliciesEnabled) {
        ReplicaNetworkPolicyDependent dependent = new ReplicaNetworkPolicyDependent();
        dependent.config = TestModelServers.networkPolicies(networkPoliciesEnabled);
        return new NetworkPoliciesEnabled().isMet(dependent, server, null)
                && new ReplicaNetworkPolicyWanted().isMet(dependent, server, null);
    }

    /** Whether a matchLabels selector selects a pod with these labels. */
    private static boolean selects(LabelSelector selector, Map<String, String> labels) {
        assertThat(selector.getMatchExpressions()).isNullOrEmpty();
        return labels.entrySet().containsAll(selector.getMatchLabels().entrySet());
    }

    private static ModelServer multiNode(String name) {
        ModelServer server = TestModelServers.example("kimi-k2-rtx-pro-6000-autoregressive.yaml", "team-a");
        server.getMetadata().setName(name);
        server.getSpec().parallelism.nodes = 2;
        return server;
    }
}
