package dev.llmops.serving.operator.modelserver;

import dev.llmops.serving.api.v1alpha1.modelserver.Diagnosis;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerSpec;
import dev.llmops.serving.operator.toolkit.PodLogs;
import dev.llmops.serving.operator.toolkit.StatusText;
import dev.llmops.serving.runner.transport.FailureClass;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Says in plain words why an SGLang pod is not serving: from its PodScheduled condition and scheduler events (the
 * message names which of the two it quotes), its container states, and its container's last log lines matched against
 * {@link FailureSignatures}. Events are listed per pod, only for a pod that needs a diagnosis: they carry no labels,
 * so a cache could not be kept to this operator's pods and would hold every pod's events in the cluster.
 */
public class PodDiagnoser {

    /**
     * How bad a finding is: a stalled pod will not recover by waiting; an unscheduled one may once capacity frees up.
     */
    public enum Severity {
        STALLED,
        UNSCHEDULED,
        NOT_GENERATING
    }

    /**
     * A diagnosis and how bad it is. {@code eventPending}: the scheduler has marked the pod unschedulable but its
     * FailedScheduling event, recorded a moment later, was not there yet; events do not trigger a reconcile, so the
     * caller looks again after {@link #EVENT_RECHECK}.
     */
    public record Finding(Diagnosis diagnosis, Severity severity, boolean eventPending) {
        Finding(Diagnosis diagnosis, Severity severity) {
            this(diagnosis, severity, false);
        }
    }

    /** The reason a started server gives until its first real generation, while it fails only as one warming up. */
    public static final String WAITING_FOR_FIRST_GENERATION = "WaitingForFirstGeneration";

    /** How a probe fails against a server that is up but still warming up: no answer yet, or a gateway's 502–504. */
    private static final List<String> WARMING_UP_FAILURES = List.of(
            FailureClass.CONNECT,
            FailureClass.TIMEOUT,
            FailureClass.DISCONNECT,
            FailureClass.http(502),
            FailureClass.http(503),
            FailureClass.http(504));

    /** How soon to look again for a scheduler event that had not been recorded yet. */
    public static final Duration EVENT_RECHECK = Duration.ofSeconds(5);

    private static final int LOG_TAIL_LINES = 200;
    private static final int LOG_CACHE_ENTRIES = 256;
    private static final Set<String> IMAGE_PULL_FAILURES =
            Set.of("ImagePullBackOff", "ErrImagePull", "InvalidImageName", "ErrImageNeverPull");
    private static final Set<String> START_FAILURES =
            Set.of("RunContainerError", "CreateContainerError", "StartError", "ContainerCannotRun");
    private static final Logger LOG = Logger.getLogger(PodDiagnoser.class);
    private static final Pattern GROUP_INDEX = Pattern.compile("0|[1-9][0-9]{0,5}");

    private final KubernetesClient client;
    private final PodLogs logs;
    /**
     * Log verdicts per container incarnation, so a crash-looping pod's log is read once per restart, not per reconcile.
     */
    private final Map<String, Optional<FailureSignatures.Match>> logVerdicts =
            Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Optional<FailureSignatures.Match>> eldest) {
                    return size() > LOG_CACHE_ENTRIES;
                }
            });

    public PodDiagnoser(KubernetesClient client) {
        this.client = client;
        this.logs = new PodLogs(client);
    }

    /** The finding for one pod, if anything is wrong with it that Kubernetes can see. */
    public Optional<Finding> diagnose(ModelServer server, Pod pod) {
        Optional<PodCondition> scheduled = condition(pod, "PodScheduled");
        if (scheduled.isPresent() && "False".equals(scheduled.get().getStatus())) {
            return Optional.of(unscheduled(server, pod, scheduled.get()));
        }
        return sglangStatus(pod).flatMap(status -> diagnoseContainer(server, pod, status));
    }

    /**
     * A server that is up (its start-up probe passed) yet does not generate. A failure the server's words match in
     * {@link FailureSignatures#STARTUP} will not pass by waiting (a GPU architecture the image's kernels were not built
     * for): the server has failed. One that a server still warming up gives (refused, timed out, 502 to 504) before
     * its first success is waited for; any other is the half-ready server, waited for until it generates.
     */
    public static Optional<Finding> notGenerating(Pod pod, PodInference inference) {
        boolean started =
                sglangStatus(pod).map(s -> Boolean.TRUE.equals(s.getStarted())).orElse(false);
        if (!started || !inference.probed() || inference.generating()) {
            return Optional.empty();
        }
        String error = inference.lastError();
        Optional<FailureSignatures.Match> known = FailureSignatures.find(FailureSignatures.STARTUP, error);
        if (known.isPresent()) {
            FailureSignatures.Signature signature = known.get().signature();
            return Optional.of(finding(
                    pod,
                    signature.reason(),
                    signature.message() + " A real chat completion fails: " + error,
                    signature.hint() + " The request's traceback: " + logsCommand(pod, "") + ".",
                    Severity.STALLED));
        }
        if (warmingUp(inference)) {
            return Optional.of(finding(
                    pod,
                    WAITING_FOR_FIRST_GENERATION,
                    "The server answers /health; its first real chat completion has not succeeded yet: " + error,
                    "Nothing to do while the server warms up; if this lasts, read its log (" + logsCommand(pod, "")
                            + ").",
                    Severity.NOT_GENERATING));
        }
        return Optional.of(finding(
                pod,
                "GenerationFailing",
                "The server is up and answers /health, but a real chat completion fails: " + error,
                "A listed model and a passing /health do not prove the GPU path works: read the server log ("
                        + logsCommand(pod, "") + ") for the request's traceback.",
                Severity.NOT_GENERATING));
    }

    /** Whether the pod has never generated and its last probe failed as a server still warming up fails. */
    static boolean warmingUp(PodInference inference) {
        String error = inference.lastError() == null ? "" : inference.lastError();
        return inference.lastSuccess() == null
                && WARMING_UP_FAILURES.stream().anyMatch(kind -> error.equals(kind) || error.startsWith(kind + ":"));
    }

    /** {@code kubectl logs} for the pod's SGLang container, runnable as printed; {@code flags} such as --previous. */
    static String logsCommand(Pod pod, String flags) {
        return "kubectl logs -n " + pod.getMetadata().getNamespace() + " "
                + pod.getMetadata().getName() + " -c " + SglangPodTemplate.CONTAINER + flags;
    }

    /** {@code kubectl describe pod} for the pod, runnable as printed. */
    static String describeCommand(Pod pod) {
        return "kubectl describe pod -n " + pod.getMetadata().getNamespace() + " "
                + pod.getMetadata().getName();
    }

    private Finding unscheduled(ModelServer server, Pod pod, PodCondition scheduled) {
        Optional<Event> event = events(pod, "FailedScheduling").stream().reduce((first, last) -> last);
        String schedulerSays = event.map(e -> "(FailedScheduling event) " + e.getMessage())
                .orElse("(PodScheduled condition) " + scheduled.getMessage());
        String text = scheduled.getMessage() + "\n" + schedulerSays;
        String request = gpuRequest(server.getSpec());
        Finding finding = FailureSignatures.find(FailureSignatures.SCHEDULING, text)
                .map(match -> finding(
                        pod,
                        match.signature().reason(),
                        match.signature().message() + " The pod requests " + request + ". Scheduler: " + schedulerSays,
                        match.signature().hint(),
                        Severity.UNSCHEDULED))
                .orElseGet(() -> finding(
                        pod,
                        "Unschedulable",
                        "The pod (" + request + ") cannot be scheduled. Scheduler: " + schedulerSays,
                        "Check " + describeCommand(pod) + " for the scheduler's reasons.",
                        Severity.UNSCHEDULED));
        return new Finding(finding.diagnosis(), finding.severity(), event.isEmpty());
    }

    private Optional<Finding> diagnoseContainer(ModelServer server, Pod pod, ContainerStatus status) {
        ContainerStateWaiting waiting =
                status.getState() == null ? null : status.getState().getWaiting();
        String waitingReason = waiting == null ? "" : String.valueOf(waiting.getReason());
        String waitingMessage = waiting == null || waiting.getMessage() == null ? "" : waiting.getMessage();
        if (IMAGE_PULL_FAILURES.contains(waitingReason)) {
            return Optional.of(finding(
                    pod,
                    "ImagePullFailed",
                    "The image " + status.getImage() + " cannot be pulled (" + waitingReason + "): " + waitingMessage,
                    "Check spec.image (tag and registry), and that the namespace can pull from that registry.",
                    Severity.STALLED));
        }
        if ("CreateContainerConfigError".equals(waitingReason)) {
            return Optional.of(configError(server.getSpec(), pod, waitingMessage));
        }
        ContainerStateTerminated lastTermination = startedAgain(status) ? null : lastTermination(status);
        String terminationMessage =
                lastTermination == null || lastTermination.getMessage() == null ? "" : lastTermination.getMessage();
        Optional<FailureSignatures.Match> runtime =
                FailureSignatures.find(FailureSignatures.STARTUP, waitingMessage + "\n" + terminationMessage);
        if (runtime.isPresent() || START_FAILURES.contains(waitingReason)) {
            return Optional.of(runtime.map(match -> signatureFinding(pod, match))
                    .orElseGet(() -> finding(
                            pod,
                            waitingReason,
                            "The container cannot start: " + waitingMessage,
                            "Check the pod events (" + describeCommand(pod) + ").",
                            Severity.STALLED)));
        }
        if (lastTermination != null && "OOMKilled".equals(lastTermination.getReason())) {
            return Optional.of(finding(
                    pod,
                    "HostMemoryTooLow",
                    "The container was killed for using more than its memory limit (" + memoryLimit(server.getSpec())
                            + ") and restarted " + status.getRestartCount()
                            + " times; loading a model needs host memory well above its shard size.",
                    "Raise spec.resources.memory.",
                    Severity.STALLED));
        }
        boolean crashed = "CrashLoopBackOff".equals(waitingReason) || lastTermination != null;
        if (!crashed) {
            return Optional.empty();
        }
        Optional<FailureSignatures.Match> fromLog = logVerdict(pod, status);
        if (fromLog.isPresent()) {
            return Optional.of(signatureFinding(pod, fromLog.get()));
        }
        List<Event> startupFailures = events(pod, "Unhealthy").stream()
                .filter(e -> e.getMessage() != null && e.getMessage().startsWith("Startup probe failed"))
                .toList();
        if (!startupFailures.isEmpty()) {
            return Optional.of(finding(
                    pod,
                    "StartupProbeFailed",
                    "The server did not answer /health within spec.readiness.startupTimeoutSeconds ("
                            + server.getSpec().readiness.startupTimeoutSeconds + " s), so the kubelet restarted it: "
                            + startupFailures.get(startupFailures.size() - 1).getMessage(),
                    "Raise spec.readiness.startupTimeoutSeconds above the model's load time (large models take 10+ "
                            + "minutes), and check the log for a hang.",
                    Severity.STALLED));
        }
        String exit = lastTermination == null
                ? ""
                : " (exit code " + lastTermination.getExitCode() + ", " + lastTermination.getReason() + ")";
        return Optional.of(finding(
                pod,
                "CrashLoopBackOff",
                "The SGLang container keeps exiting" + exit + " and has restarted " + status.getRestartCount()
                        + " times; its log matches no known failure.",
                "Read the log of the crashed container: " + logsCommand(pod, " --previous"),
                Severity.STALLED));
    }

    /** The kubelet names a missing Secret or key here; the diagnosis is read from that message, not from the Secret. */
    private static Finding configError(ModelServerSpec spec, Pod pod, String message) {
        if (spec.huggingFaceTokenSecret != null && message.contains(spec.huggingFaceTokenSecret.name)) {
            return finding(
                    pod,
                    "HuggingFaceTokenSecretMissing",
                    "spec.huggingFaceTokenSecret: the pod cannot start because " + message,
                    "Create Secret " + spec.huggingFaceTokenSecret.name + " with key " + spec.huggingFaceTokenSecret.key
                            + " in namespace " + pod.getMetadata().getNamespace()
                            + ", or fix spec.huggingFaceTokenSecret.",
                    Severity.STALLED);
        }
        if (spec.apiKeySecret != null && message.contains(spec.apiKeySecret.name)) {
            return finding(
                    pod,
                    ServerApiKey.NOT_FOUND,
                    "spec.apiKeySecret: the pod cannot start because " + message,
                    "Create Secret " + spec.apiKeySecret.name + " with key " + spec.apiKeySecret.key + " in namespace "
                            + pod.getMetadata().getNamespace() + ", or fix spec.apiKeySecret.",
                    Severity.STALLED);
        }
        return finding(
                pod,
                "ContainerConfigError",
                "The container cannot be created: " + message,
                "Check the Secrets and ConfigMaps that spec.env refers to.",
                Severity.STALLED);
    }

    private Optional<FailureSignatures.Match> logVerdict(Pod pod, ContainerStatus status) {
        boolean previous = status.getRestartCount() > 0
                && (status.getState() == null || status.getState().getTerminated() == null);
        String key = pod.getMetadata().getUid() + "/" + status.getRestartCount() + "/" + previous;
        Optional<FailureSignatures.Match> cached = logVerdicts.get(key);
        if (cached != null) {
            return cached;
        }
        Optional<FailureSignatures.Match> verdict =
                FailureSignatures.find(FailureSignatures.STARTUP, logTail(pod, previous));
        logVerdicts.put(key, verdict);
        return verdict;
    }

    private String logTail(Pod pod, boolean previous) {
        return logs.tail(pod, SglangPodTemplate.CONTAINER, LOG_TAIL_LINES, previous)
                .orElse("");
    }

    private List<Event> events(Pod pod, String reason) {
        try {
            return client
                    .v1()
                    .events()
                    .inNamespace(pod.getMetadata().getNamespace())
                    .withField("involvedObject.name", pod.getMetadata().getName())
                    .list()
                    .getItems()
                    .stream()
                    .filter(e -> e.getInvolvedObject() != null
                            && pod.getMetadata()
                                    .getName()
                                    .equals(e.getInvolvedObject().getName()))
                    .filter(e -> reason.equals(e.getReason()))
                    .toList();
        } catch (KubernetesClientException e) {
            LOG.debugf("No events for pod %s: %s", pod.getMetadata().getName(), e.getMessage());
            return List.of();
        }
    }

    private static Finding signatureFinding(Pod pod, FailureSignatures.Match match) {
        return finding(
                pod,
                match.signature().reason(),
                match.signature().message() + " Evidence: " + match.evidence(),
                match.signature().hint(),
                Severity.STALLED);
    }

    private static Finding finding(Pod pod, String reason, String message, String hint, Severity severity) {
        Diagnosis diagnosis = new Diagnosis();
        diagnosis.reason = reason;
        diagnosis.message =
                StatusText.bounded(groupMember(pod).map(member -> member + ": ").orElse("") + message);
        diagnosis.hint = hint;
        diagnosis.pod = pod.getMetadata().getName();
        return new Finding(diagnosis, severity);
    }

    /**
     * Which pod of a multi-node group this is, as the labels LeaderWorkerSet put on it say: {@code Group 0's worker 1
     * (pod kimi-0-1)}, or its leader; empty for a pod of no group, or labels that are not small whole numbers.
     */
    static Optional<String> groupMember(Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        String group = labels == null ? null : labels.get(LeaderWorkerSet.GROUP_INDEX_LABEL);
        String worker = labels == null ? null : labels.get(LeaderWorkerSet.WORKER_INDEX_LABEL);
        if (group == null
                || worker == null
                || !GROUP_INDEX.matcher(group).matches()
                || !GROUP_INDEX.matcher(worker).matches()) {
            return Optional.empty();
        }
        String member = "0".equals(worker) ? "leader" : "worker " + worker;
        return Optional.of(
                "Group " + group + "'s " + member + " (pod " + pod.getMetadata().getName() + ")");
    }

    static Optional<ContainerStatus> sglangStatus(Pod pod) {
        return pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null
                ? Optional.empty()
                : pod.getStatus().getContainerStatuses().stream()
                        .filter(s -> SglangPodTemplate.CONTAINER.equals(s.getName()))
                        .findFirst();
    }

    static Optional<PodCondition> condition(Pod pod, String type) {
        return pod.getStatus() == null || pod.getStatus().getConditions() == null
                ? Optional.empty()
                : pod.getStatus().getConditions().stream()
                        .filter(c -> type.equals(c.getType()))
                        .findFirst();
    }

    private static ContainerStateTerminated lastTermination(ContainerStatus status) {
        if (status.getState() != null && status.getState().getTerminated() != null) {
            return status.getState().getTerminated();
        }
        return status.getLastState() == null ? null : status.getLastState().getTerminated();
    }

    /** A container that crashed before but is running and past its start-up probe again has recovered. */
    private static boolean startedAgain(ContainerStatus status) {
        return status.getState() != null
                && status.getState().getRunning() != null
                && Boolean.TRUE.equals(status.getStarted());
    }

    private static String gpuRequest(ModelServerSpec spec) {
        String accelerator = GpuPlacement.pinnedLabels(spec.accelerator).stream()
                .map(label -> label.key() + "=" + label.value())
                .collect(Collectors.joining(", "));
        return "%d nvidia.com/gpu on one node with %s"
                .formatted(spec.accelerator.gpusPerReplica / spec.parallelism.nodes, accelerator);
    }

    private static String memoryLimit(ModelServerSpec spec) {
        return spec.resources.memory == null ? "the namespace default" : spec.resources.memory;
    }
}
