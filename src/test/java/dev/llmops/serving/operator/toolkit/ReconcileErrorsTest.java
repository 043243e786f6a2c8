package dev.llmops.serving.operator.toolkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.AggregatedOperatorException;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReconcileErrorsTest {

    private static final Duration RECHECK = Duration.ofSeconds(90);

    private static final String INVALID =
            "Service \"qwen3.8b\" is invalid: metadata.name: Invalid value: \"qwen3.8b\":" + " must not contain dots";
    private final Conditions conditions = new Conditions(Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));

    @Test
    void aRefusedObjectStallsAtOnceWithTheApiServersMessageAndNoRequestUrl() {
        // as the reconciler sees it: the workflow's aggregate, wrapped once more
        Exception error = new IllegalStateException(new AggregatedOperatorException(
                "Exception(s) during workflow execution.", Map.of("service", apiError(422, INVALID))));
        List<Condition> status = new ArrayList<>();

        boolean stalled = conditions.reconcileFailed(status, error, false, 3L, RECHECK);

        assertThat(stalled).isTrue();
        assertThat(ReconcileErrors.isPermanent(error)).isTrue();
        Condition condition = Conditions.find(status, ConditionTypes.STALLED).orElseThrow();
        assertThat(condition.getStatus()).isEqualTo(Conditions.TRUE);
        assertThat(condition.getReason()).isEqualTo("ReconcileError");
        assertThat(condition.getMessage())
                .isEqualTo("The API server refused a change and will refuse it until the spec changes: service: "
                        + INVALID + " (HTTP 422)");
        assertThat(Conditions.find(status, ConditionTypes.RECONCILING)
                        .orElseThrow()
                        .getStatus())
                .isEqualTo(Conditions.FALSE);
    }

    @Test
    void aPassingFailureIsRetriedAndStallsOnlyOnTheLastAttempt() {
        Exception error = apiError(503, "the server is currently unable to handle the request");
        List<Condition> status = new ArrayList<>();

        assertThat(conditions.reconcileFailed(status, error, false, 1L, RECHECK))
                .isFalse();
        assertThat(Conditions.find(status, ConditionTypes.STALLED)).isEmpty();
        assertThat(Conditions.find(status, ConditionTypes.RECONCILING)
                        .orElseThrow()
                        .getMessage())
                .isEqualTo("Reconciliation failed, retrying: the server is currently unable to handle the request"
                        + " (HTTP 503)");

        assertThat(conditions.reconcileFailed(status, error, true, 1L, RECHECK)).isTrue();
        assertThat(Conditions.find(status, ConditionTypes.STALLED).orElseThrow().getMessage())
                .startsWith("Reconciliation failed and the retries are used up; tried again every 90 s and on any"
                        + " change: the server is currently unable");
    }

    @Test
    void aStallAfterTheLastRetryIsReconciledAgainAfterTheRecheckAndARefusalOnlyOnAChange() {
        ConfigMap resource = new ConfigMap();
        Exception denied = apiError(403, "admission webhook \"policy\" denied the request");

        ErrorStatusUpdateControl<ConfigMap> retrying = ReconcileErrors.afterFailure(resource, denied, false, RECHECK);
        ErrorStatusUpdateControl<ConfigMap> exhausted = ReconcileErrors.afterFailure(resource, denied, true, RECHECK);
        ErrorStatusUpdateControl<ConfigMap> refused =
                ReconcileErrors.afterFailure(resource, apiError(422, INVALID), true, RECHECK);

        assertThat(retrying.isNoRetry()).isFalse();
        assertThat(retrying.getScheduleDelay()).isEmpty();
        assertThat(exhausted.isNoRetry()).isTrue();
        assertThat(exhausted.getScheduleDelay()).contains(RECHECK.toMillis());
        assertThat(refused.isNoRetry()).isTrue();
        assertThat(refused.getScheduleDelay()).isEmpty();
        assertThat(List.of(retrying, exhausted, refused))
                .allSatisfy(control -> assertThat(control.getResource()).containsSame(resource));
    }

    @Test
    void anExplanationWrappingAnApiErrorIsKeptAndAWrappersCopyIsSkipped() {
        var conflict = apiError(409, "jobs.batch \"run-bench\" already exists");
        var explained = new IllegalStateException("Job run-bench does not belong to this BenchmarkRun", conflict);

        assertThat(ReconcileErrors.describe(explained)).isEqualTo("Job run-bench does not belong to this BenchmarkRun");
        assertThat(ReconcileErrors.describe(new RuntimeException(conflict)))
                .isEqualTo("jobs.batch \"run-bench\" already exists (HTTP 409)");
        assertThat(ReconcileErrors.isPermanent(explained)).isFalse();
    }

    private static KubernetesClientException apiError(int code, String message) {
        return new KubernetesClientException(
                new StatusBuilder().withCode(code).withMessage(message).build());
    }
}
