package dev.llmops.serving.helm;

import static org.assertj.core.api.Assertions.assertThat;

import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

/**
 * The operator offers the operator SDK a leader-election configuration; unconfigured, the lease is in its own
 * namespace.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true)
class LeaderElectionTest {

    @Inject
    LeaderElectionConfiguration leaderElection;

    @Test
    void leaseHasADefaultNameAndTheOperatorsNamespace() {
        assertThat(leaderElection.getLeaseName()).isEqualTo("llm-serving-operator");
        assertThat(leaderElection.getLeaseNamespace()).isEmpty();
    }
}
