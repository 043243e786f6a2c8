package dev.llmops.serving.operator.toolkit;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.AggregatedOperatorException;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Says in a status what a failed reconcile ran into: the API server's own message (for example why it refused an
 * object) rather than a Java exception's text with its request URL, and whether retrying the same request can help.
 */
public final class ReconcileErrors {

    /** Refusals the API server repeats for the same request: the object is invalid or malformed. */
    private static final Set<Integer> PERMANENT = Set.of(400, 422);

    private ReconcileErrors() {}

    /** One line per failed step, e.g. {@code service: Service "a.b" is invalid: ... (HTTP 422)}. */
    public static String describe(Exception error) {
        return workflowSteps(error)
                .map(steps -> steps.entrySet().stream()
                        .map(step -> step.getKey() + ": " + describeOne(step.getValue()))
                        .collect(Collectors.joining("; ")))
                .orElseGet(() -> describeOne(error));
    }

    /** Whether every failed step was refused by the API server as invalid, so retries only repeat the refusal. */
    public static boolean isPermanent(Exception error) {
        List<Exception> failures =
                workflowSteps(error).map(steps -> List.copyOf(steps.values())).orElse(List.of(error));
        return !failures.isEmpty()
                && failures.stream()
                        .allMatch(failure -> apiError(failure)
                                .filter(api -> PERMANENT.contains(api.getCode()))
                                .isPresent());
    }

    /**
     * What follows a failed reconcile whose status was written: no retry for a permanent refusal (only a spec change,
     * which is an event, can help); after the last retry, another reconcile after {@code recheck} (the operator SDK
     * would otherwise wait for an event, and a denying webhook or a missing permission fixed later sends none);
     * otherwise the operator SDK's retry.
     */
    public static <P extends HasMetadata> ErrorStatusUpdateControl<P> afterFailure(
            P resource, Exception error, boolean lastAttempt, Duration recheck) {
        ErrorStatusUpdateControl<P> control = ErrorStatusUpdateControl.patchStatus(resource);
        if (isPermanent(error)) {
            return control.withNoRetry();
        }
        return lastAttempt ? control.withNoRetry().rescheduleAfter(recheck) : control;
    }

    /** The failed steps of a workflow, by dependent name, when the error is (or wraps) a workflow's failure. */
    private static Optional<Map<String, Exception>> workflowSteps(Throwable error) {
        for (Throwable cause = error; cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            if (cause instanceof AggregatedOperatorException aggregated
                    && !aggregated.getAggregatedExceptions().isEmpty()) {
                return Optional.of(aggregated.getAggregatedExceptions());
            }
        }
        return Optional.empty();
    }

    /**
     * The first message along the cause chain that is not merely a wrapper's copy of its cause: the API server's for a
     * refused request, else the exception's own (which may say more than an API error it wraps).
     */
    private static String describeOne(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof KubernetesClientException api && api.getCode() > 0) {
                String message = api.getStatus() != null && api.getStatus().getMessage() != null
                        ? api.getStatus().getMessage()
                        : api.getMessage();
                return message + " (HTTP " + api.getCode() + ")";
            }
            Throwable next = cause.getCause();
            boolean wrapper = next != null
                    && next != cause
                    && (cause.getMessage() == null || cause.getMessage().equals(next.toString()));
            if (!wrapper) {
                return cause.getMessage() != null
                        ? cause.getMessage()
                        : cause.getClass().getSimpleName();
            }
        }
        return error.getClass().getSimpleName();
    }

    private static Optional<KubernetesClientException> apiError(Throwable error) {
        for (Throwable cause = error; cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            if (cause instanceof KubernetesClientException api && api.getCode() > 0) {
                return Optional.of(api);
            }
        }
        return Optional.empty();
    }
}
