package dev.llmops.serving.operator.modelserver;

import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.modelserver.Diagnosis;
import dev.llmops.serving.api.v1alpha1.modelserver.InferenceProbeResult;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerPhase;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerStatus;
import dev.llmops.serving.operator.toolkit.Conditions;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Turns what the reconciler observed into the ModelServer's status: the phase, the six conditions, the diagnosis and
 * the figures kubectl shows. Ready means every desired replica's serving pod generated tokens on its last probe.
 */
public final class StatusReport {

    /** Everything the status is computed from, gathered by the reconciler. */
    public record Observation(
            List<SpecValidator.Problem> problems,
            List<Pod> servingPods,
            List<Pod> workerPods,
            Map<String, PodInference> inference,
            List<PodDiagnoser.Finding> findings,
            String image,
            List<String> serverArgs) {}

    private StatusReport() {}

    public static ModelServerStatus build(ModelServer server, Observation observed, Conditions conditions) {
        ModelServerStatus previous = server.getStatus() == null ? new ModelServerStatus() : server.getStatus();
        ModelServerStatus status = new ModelServerStatus();
        Long generation = server.getMetadata().getGeneration();
        int desired = server.getSpec().replicas;
        int workersPerGroup = server.getSpec().parallelism.nodes - 1;
        Map<String, Long> readyWorkers = observed.workerPods().stream()
                .filter(StatusReport::containerReady)
                .collect(Collectors.groupingBy(StatusReport::group, Collectors.counting()));
        List<Pod> readyPods = observed.servingPods().stream()
                .filter(pod -> generates(pod, observed.inference()))
                .filter(leader -> readyWorkers.getOrDefault(group(leader), 0L) >= workersPerGroup)
                .toList();
        int ready = Math.min(readyPods.size(), desired);

        status.observedGeneration = generation;
        status.conditions = new ArrayList<>(previous.conditions == null ? List.of() : previous.conditions);
        status.endpoint = ServerServiceDependent.endpoint(server);
        status.replicas = desired;
        status.readyReplicas = ready;
        status.readyReplicasText = ready + "/" + desired;
        status.image = observed.image();
        status.serverArgs = observed.serverArgs();
        status.lastInferenceProbe = observed.inference().values().stream()
                .map(PodInference::lastSuccess)
                .filter(Objects::nonNull)
                .max(Comparator.comparing((InferenceProbeResult r) -> r.time))
                .orElse(previous.lastInferenceProbe);

        Optional<PodDiagnoser.Finding> worst =
                observed.findings().stream().min(Comparator.comparing(PodDiagnoser.Finding::severity));
        boolean invalid = !observed.problems().isEmpty();
        boolean allReady = !invalid && desired > 0 && ready >= desired;
        boolean failing =
                worst.filter(f -> f.severity() == PodDiagnoser.Severity.STALLED).isPresent();
        boolean generatedBefore =
                observed.inference().values().stream().anyMatch(i -> i.lastSuccess() != null && !i.generating());
        ModelServerPhase phase = phase(observed, desired, ready, allReady, failing, generatedBefore);
        status.phase = phase;
        status.diagnosis = allReady ? null : diagnosis(observed, worst, previous.diagnosis, conditions);

        String summary = "%d/%d replicas generate".formatted(ready, desired);
        String why = status.diagnosis == null ? summary : summary + ": " + status.diagnosis.message;
        String reason = status.diagnosis == null ? phase.name() : status.diagnosis.reason;
        conditions.set(
                status.conditions,
                ConditionTypes.READY,
                allReady ? Conditions.TRUE : Conditions.FALSE,
                allReady ? "Ready" : reason,
                why,
                generation);
        setScheduled(status, observed, conditions, generation);
        setInferenceReady(status, observed, desired, ready, conditions, generation);
        conditions.set(
                status.conditions,
                ConditionTypes.DEGRADED,
                phase == ModelServerPhase.Degraded ? Conditions.TRUE : Conditions.FALSE,
                phase == ModelServerPhase.Degraded ? reason : "NotDegraded",
                phase == ModelServerPhase.Degraded ? why : "",
                generation);
        boolean stalled = !allReady && (invalid || failing);
        conditions.set(
                status.conditions,
                ConditionTypes.STALLED,
                stalled ? Conditions.TRUE : Conditions.FALSE,
                stalled ? reason : "NotStalled",
                stalled ? why : "",
                generation);
        boolean reconciling = !allReady && !stalled;
        conditions.set(
                status.conditions,
                ConditionTypes.RECONCILING,
                reconciling ? Conditions.TRUE : Conditions.FALSE,
                reconciling ? phase.name() : allReady ? "Ready" : "Stalled",
                reconciling ? why : "",
                generation);
        return status;
    }

    private static ModelServerPhase phase(
            Observation observed, int desired, int ready, boolean allReady, boolean failing, boolean generatedBefore) {
        if (!observed.problems().isEmpty()) {
            return ModelServerPhase.Failed;
        }
        if (allReady) {
            return ModelServerPhase.Ready;
        }
        if (failing) {
            return ready > 0 ? ModelServerPhase.Degraded : ModelServerPhase.Failed;
        }
        if (ready > 0 || generatedBefore) {
            return ModelServerPhase.Degraded;
        }
        if (desired == 0 || observed.servingPods().isEmpty()) {
            return ModelServerPhase.Pending;
        }
        return observed.servingPods().stream().allMatch(StatusReport::scheduled)
                ? ModelServerPhase.Loading
                : ModelServerPhase.Scheduling;
    }

    private static Diagnosis diagnosis(
            Observation observed, Optional<PodDiagnoser.Finding> worst, Diagnosis previous, Conditions conditions) {
        Diagnosis diagnosis;
        if (!observed.problems().isEmpty()) {
            diagnosis = new Diagnosis();
            diagnosis.reason = observed.problems().get(0).reason();
            diagnosis.message = observed.problems().stream()
                    .map(SpecValidator.Problem::message)
                    .collect(Collectors.joining("; "));
            diagnosis.hint = "Fix "
                    + observed.problems().stream()
                            .map(SpecValidator.Problem::field)
                            .distinct()
                            .collect(Collectors.joining(", "))
                    + "; nothing was changed in the cluster until then.";
        } else if (worst.isPresent()) {
            diagnosis = worst.get().diagnosis();
        } else {
            return null;
        }
        boolean same = previous != null
                && Objects.equals(previous.reason, diagnosis.reason)
                && Objects.equals(previous.pod, diagnosis.pod);
        diagnosis.since = same && previous.since != null ? previous.since : conditions.now();
        return diagnosis;
    }

    private static void setScheduled(
            ModelServerStatus status, Observation observed, Conditions conditions, Long generation) {
        if (observed.servingPods().isEmpty()) {
            conditions.set(
                    status.conditions,
                    ConditionTypes.SCHEDULED,
                    Conditions.UNKNOWN,
                    "NoPods",
                    "No server pod exists yet",
                    generation);
            return;
        }
        Optional<PodDiagnoser.Finding> unscheduled = observed.findings().stream()
                .filter(f -> f.severity() == PodDiagnoser.Severity.UNSCHEDULED)
                .findFirst();
        if (unscheduled.isPresent()) {
            Diagnosis d = unscheduled.get().diagnosis();
            conditions.set(
                    status.conditions, ConditionTypes.SCHEDULED, Conditions.FALSE, d.reason, d.message, generation);
        } else if (observed.servingPods().stream().allMatch(StatusReport::scheduled)) {
            conditions.set(
                    status.conditions,
                    ConditionTypes.SCHEDULED,
                    Conditions.TRUE,
                    "Scheduled",
                    "Every server pod is on a node",
                    generation);
        } else {
            conditions.set(
                    status.conditions,
                    ConditionTypes.SCHEDULED,
                    Conditions.FALSE,
                    "Pending",
                    "Waiting for the scheduler",
                    generation);
        }
    }

    private static void setInferenceReady(
            ModelServerStatus status,
            Observation observed,
            int desired,
            int ready,
            Conditions conditions,
            Long generation) {
        InferenceProbeResult last = status.lastInferenceProbe;
        if (desired > 0 && ready >= desired) {
            conditions.set(
                    status.conditions,
                    ConditionTypes.INFERENCE_READY,
                    Conditions.TRUE,
                    "GenerationSucceeded",
                    "Last real generation: %d tokens in %d ms on %s at %s"
                            .formatted(last.outputTokens, last.latencyMillis, last.pod, last.time),
                    generation);
            return;
        }
        Optional<PodInference> failed = observed.inference().values().stream()
                .filter(i -> i.probed() && !i.generating())
                .findFirst();
        if (failed.isPresent() && PodDiagnoser.warmingUp(failed.get())) {
            conditions.set(
                    status.conditions,
                    ConditionTypes.INFERENCE_READY,
                    Conditions.FALSE,
                    PodDiagnoser.WAITING_FOR_FIRST_GENERATION,
                    "The first real chat completion against pod %s has not succeeded yet: %s"
                            .formatted(failed.get().podName(), failed.get().lastError()),
                    generation);
        } else if (failed.isPresent()) {
            conditions.set(
                    status.conditions,
                    ConditionTypes.INFERENCE_READY,
                    Conditions.FALSE,
                    "GenerationFailed",
                    "A real chat completion against pod %s failed: %s"
                            .formatted(failed.get().podName(), failed.get().lastError()),
                    generation);
        } else {
            conditions.set(
                    status.conditions,
                    ConditionTypes.INFERENCE_READY,
                    Conditions.FALSE,
                    PodDiagnoser.WAITING_FOR_FIRST_GENERATION,
                    "%d/%d replicas have generated; a pod counts once a real chat completion against it returns tokens"
                            .formatted(ready, desired),
                    generation);
        }
    }

    /**
     * A serving pod counts when its containers are ready and its last real generation succeeded; a multi-node group's
     * leader, also only while each of its group's workers runs ready (a leader that still answers has lost a worker
     * its next batch needs).
     */
    static boolean generates(Pod pod, Map<String, PodInference> inference) {
        PodInference probe = inference.get(pod.getMetadata().getUid());
        return probe != null && probe.generating() && containerReady(pod);
    }

    private static boolean containerReady(Pod pod) {
        return PodDiagnoser.sglangStatus(pod).map(ContainerStatus::getReady).orElse(false);
    }

    /** The LeaderWorkerSet group a pod belongs to, from LWS's labels; the same empty key for every pod of none. */
    private static String group(Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        return labels == null
                ? ""
                : labels.getOrDefault(LeaderWorkerSet.NAME_LABEL, "") + "/"
                        + labels.getOrDefault(LeaderWorkerSet.GROUP_INDEX_LABEL, "");
    }

    private static boolean scheduled(Pod pod) {
        return PodDiagnoser.condition(pod, "PodScheduled")
                .map(c -> "True".equals(c.getStatus()))
                .orElse(pod.getSpec().getNodeName() != null);
    }

    /** A server that stalled before it had any phase is Failed, its diagnosis and Ready saying what Stalled says. */
    public static void stalledBeforeAnyPhase(ModelServerStatus status, Conditions conditions, Long generation) {
        Condition why =
                Conditions.find(status.conditions, ConditionTypes.STALLED).orElseThrow();
        status.phase = ModelServerPhase.Failed;
        status.diagnosis = new Diagnosis();
        status.diagnosis.reason = why.getReason();
        status.diagnosis.message = why.getMessage();
        status.diagnosis.since = why.getLastTransitionTime();
        conditions.set(
                status.conditions,
                ConditionTypes.READY,
                Conditions.FALSE,
                why.getReason(),
                why.getMessage(),
                generation);
    }
}
