package dev.llmops.serving.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The permission check bites: the operator started with one rule fewer than the chart grants is refused by the API
 * server, which the audit log records and the operator's log says, and it does not report ready at any moment of a
 * window after the refusal, so a rule missing from the chart fails the suite.
 */
@E2eTest
class MissingRbacRuleIT {

    private OperatorProcess operator;

    @AfterEach
    void stopOperator() {
        if (operator != null) {
            operator.close();
        }
    }

    @Test
    void withoutTheJobsRuleTheOperatorIsForbiddenAndNeverReady(
            E2eCluster cluster, KubernetesClient client, TestNamespace namespace) {
        ProjectCrds.install(client);
        operator = OperatorProcess.in(cluster, namespace).withoutGrant("jobs").start();

        await("the API server's refusal in the operator log")
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> operator.log().toLowerCase().contains("forbidden"));
        assertThat(operator.log()).containsIgnoringCase("jobs");
        if (cluster.audit().isPresent()) {
            assertThat(operator.forbiddenCalls()).anyMatch(call -> call.contains(" jobs"));
        }
        await("never ready while refused")
                .during(Duration.ofSeconds(15))
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> !operator.ready());
    }
}
