package dev.llmops.serving.operator.benchmark;

import dev.llmops.serving.api.v1alpha1.ConditionReasons;
import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.BenchmarkTarget;
import dev.llmops.serving.api.v1alpha1.modelserver.Diagnosis;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.operator.toolkit.Conditions;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.Optional;

/**
 * What a run's target looks like right now: whether it can be benchmarked, at which URL, under which model name, and if
 * not, why. An external URL is always ready (the runner itself exits 3 if it does not generate); a ModelServer is ready
 * once its InferenceReady condition is True and it publishes an endpoint. A target the run must never be started
 * against (an API key bound for a host the operator does not allow, or a key of the run's choosing for a ModelServer,
 * which takes only its own) carries the refusal instead.
 */
public record TargetState(
        String description,
        boolean ready,
        String url,
        String model,
        Optional<ModelServer> modelServer,
        String notReadyReason,
        Optional<Refusal> refusal) {

    /** Why the run fails before its Job exists: a condition reason and a message naming the fields at fault. */
    public record Refusal(String reason, String message) {}

    public TargetState(
            String description,
            boolean ready,
            String url,
            String model,
            Optional<ModelServer> modelServer,
            String notReadyReason) {
        this(description, ready, url, model, modelServer, notReadyReason, Optional.empty());
    }

    public static TargetState of(BenchmarkRun run, Optional<ModelServer> modelServer, ApiKeyHosts apiKeyHosts) {
        BenchmarkTarget target = run.getSpec().target;
        if (target.url != null) {
            Optional<Refusal> refusal = apiKeyHosts.refusal(target);
            return new TargetState(
                    target.url,
                    refusal.isEmpty(),
                    target.url,
                    target.model,
                    Optional.empty(),
                    refusal.map(Refusal::message).orElse(null),
                    refusal);
        }
        if (target.apiKeySecret != null) {
            String refusal = ("spec.target.apiKeySecret (Secret %s) is for an external spec.target.url; a run of "
                            + "ModelServer %s sends that server's own spec.apiKeySecret, so no Job was created. Remove "
                            + "spec.target.apiKeySecret and create the run again.")
                    .formatted(target.apiKeySecret.name, target.modelServer);
            return new TargetState(
                    target.modelServer,
                    false,
                    null,
                    target.model,
                    modelServer,
                    refusal,
                    Optional.of(new Refusal(ConditionReasons.SECRET_NOT_SERVERS, refusal)));
        }
        if (modelServer.isEmpty()) {
            return new TargetState(
                    target.modelServer,
                    false,
                    null,
                    target.model,
                    modelServer,
                    "ModelServer " + target.modelServer + " does not exist");
        }
        ModelServer server = modelServer.get();
        String model = target.model != null
                ? target.model
                : server.getSpec().model.servedModelName != null
                        ? server.getSpec().model.servedModelName
                        : server.getSpec().model.path;
        String endpoint = server.getStatus() == null ? null : server.getStatus().endpoint;
        Optional<Condition> inferenceReady = server.getStatus() == null
                ? Optional.empty()
                : Conditions.find(server.getStatus().conditions, ConditionTypes.INFERENCE_READY);
        boolean ready =
                inferenceReady.map(c -> Conditions.TRUE.equals(c.getStatus())).orElse(false) && endpoint != null;
        return new TargetState(
                target.modelServer,
                ready,
                endpoint,
                model,
                modelServer,
                ready ? null : notReady(server, inferenceReady));
    }

    private static String notReady(ModelServer server, Optional<Condition> inferenceReady) {
        String name = "ModelServer " + server.getMetadata().getName();
        Diagnosis diagnosis = server.getStatus() == null ? null : server.getStatus().diagnosis;
        if (diagnosis != null && diagnosis.reason != null) {
            StringBuilder text =
                    new StringBuilder(name).append(" is not inference-ready: ").append(diagnosis.reason);
            if (diagnosis.message != null) {
                text.append(": ").append(diagnosis.message);
            }
            if (diagnosis.hint != null) {
                text.append(" Hint: ").append(diagnosis.hint);
            }
            return text.toString();
        }
        return inferenceReady
                .map(c -> name + " is not inference-ready: InferenceReady=" + c.getStatus() + " (" + c.getReason() + ")"
                        + (c.getMessage() == null || c.getMessage().isBlank() ? "" : ": " + c.getMessage()))
                .orElse(name + " has not reported InferenceReady yet");
    }
}
