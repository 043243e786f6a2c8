package dev.llmops.serving.operator.modelserver;

import dev.llmops.serving.api.v1alpha1.ConditionReasons;
import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Sets the pod's {@value SglangPodTemplate#INFERENCE_READY_GATE} condition from the last real generation, so the
 * kubelet counts the pod Ready (and the Service sends it traffic) only while it really generates. Patches pods/status
 * with a JSON patch that touches only this condition, guarded by a test of its position.
 */
public class InferenceReadyGate {

    private final KubernetesClient client;

    public InferenceReadyGate(KubernetesClient client) {
        this.client = client;
    }

    /** True when the pod carries the gate condition with status True. */
    public static boolean isOpen(Pod pod) {
        return PodDiagnoser.condition(pod, ConditionTypes.POD_INFERENCE_READY)
                .map(c -> "True".equals(c.getStatus()))
                .orElse(false);
    }

    /** Writes the condition when the probe's verdict differs from the pod's; a pod never probed is left alone. */
    public void sync(Pod pod, PodInference inference) {
        if (!inference.probed()) {
            return;
        }
        String status = inference.generating() ? "True" : "False";
        String reason =
                inference.generating() ? ConditionReasons.GENERATION_SUCCEEDED : ConditionReasons.GENERATION_FAILED;
        Optional<PodCondition> current = PodDiagnoser.condition(pod, ConditionTypes.POD_INFERENCE_READY);
        if (current.isPresent()
                && status.equals(current.get().getStatus())
                && reason.equals(current.get().getReason())) {
            return;
        }
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        PodCondition condition = new PodConditionBuilder()
                .withType(ConditionTypes.POD_INFERENCE_READY)
                .withStatus(status)
                .withReason(reason)
                .withMessage(
                        inference.generating()
                                ? "A chat completion returned %d tokens in %d ms"
                                        .formatted(
                                                inference.lastSuccess().outputTokens,
                                                inference.lastSuccess().latencyMillis)
                                : "The last chat completion failed: " + inference.lastError())
                .withLastProbeTime(now)
                .withLastTransitionTime(now)
                .build();
        client.pods()
                .inNamespace(pod.getMetadata().getNamespace())
                .withName(pod.getMetadata().getName())
                .subresource("status")
                .patch(
                        PatchContext.of(PatchType.JSON),
                        client.getKubernetesSerialization().asJson(patch(pod, condition)));
    }

    private static List<Map<String, Object>> patch(Pod pod, PodCondition condition) {
        List<PodCondition> conditions =
                pod.getStatus() == null ? null : pod.getStatus().getConditions();
        if (conditions == null) {
            return List.of(operation("add", "/status/conditions", List.of(condition)));
        }
        int index = conditions.indexOf(
                PodDiagnoser.condition(pod, condition.getType()).orElse(null));
        if (index < 0) {
            return List.of(operation("add", "/status/conditions/-", condition));
        }
        return List.of(
                operation("test", "/status/conditions/" + index + "/type", condition.getType()),
                operation("replace", "/status/conditions/" + index, condition));
    }

    private static Map<String, Object> operation(String op, String path, Object value) {
        Map<String, Object> operation = new LinkedHashMap<>();
        operation.put("op", op);
        operation.put("path", path);
        operation.put("value", value);
        return operation;
    }
}
