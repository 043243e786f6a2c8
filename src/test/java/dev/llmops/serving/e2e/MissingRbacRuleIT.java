package dev.llmops.serving.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.e2e.support.E2eCluster;
import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.OperatorUnderTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The permission check bites: the operator started with one rule fewer than the chart grants is refused by the API
 * server, which the audit log records and the operator's log says, and it does not report ready at any moment of a
 * window after the refusal, so a rule missing from the chart fails the suite.
 */
@E2eTest
class MissingRbacRuleIT {

    @RegisterExtension
    static final OperatorUnderTest operator =
            OperatorUnderTest.installed().withoutGrant("jobs").notAwaitedReady();

    @Test
    void withoutTheJobsRuleTheOperatorIsForbiddenAndNeverReady(E2eCluster cluster) {
        await("the API server's refusal in the operator log")
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> operator.process().log().toLowerCase().contains("forbidden"));
        assertThat(operator.process().log()).containsIgnoringCase("jobs");
        if (cluster.audit().isPresent()) {
            assertThat(operator.process().forbiddenCalls()).anyMatch(call -> call.contains(" jobs"));
        }
        await("never ready while refused")
                .during(Duration.ofSeconds(15))
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> !operator.process().ready());
    }
}
