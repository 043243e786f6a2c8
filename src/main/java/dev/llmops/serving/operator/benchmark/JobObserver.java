package dev.llmops.serving.operator.benchmark;

import dev.llmops.serving.api.contract.ProgressLine;
import dev.llmops.serving.operator.benchmark.comparison.SampleDecoding;
import dev.llmops.serving.operator.toolkit.Owners;
import dev.llmops.serving.operator.toolkit.PodLogs;
import dev.llmops.serving.operator.toolkit.StatusText;
import dev.llmops.serving.runner.shard.ShardMerge;
import dev.llmops.serving.runner.shard.ShardResult;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads a benchmark Job's state: its terminal conditions, the exit code and termination message of its pod, while it
 * runs the last {@link ProgressLine} of the pod's log, once it completed the end of that log, with the samples, and
 * which of its pods were lost on the way. The Job and its pods arrive through separate watches, so a Job can be seen
 * complete while its pod still looks running: the run then waits for the pod, instead of failing for want of a
 * summary.
 */
public class JobObserver {

    static final int LOG_LINES = 100;
    /** The samples line is the runner's last; a few more lines in case something printed after it. */
    static final int SAMPLES_LOG_LINES = 5;
    /** Bound of the log read for the samples: the line itself is at most 768 KiB. */
    static final int SAMPLES_LOG_BYTES = 1024 * 1024;
    /** Bound of the log read for a shard's result: the line itself is at most 2 MiB. */
    static final int SHARD_LOG_BYTES = ShardResult.MAX_ENCODED_CHARS + 256 * 1024;

    /**
     * How many times the samples log of a completed Job's pod is read before its samples are given up for lost: a read
     * fails when the API server cannot reach the node's kubelet for a moment, and nothing else wakes the run again.
     */
    static final int SAMPLES_LOG_READS = 3;

    static final Duration SAMPLES_LOG_RETRY = Duration.ofSeconds(5);

    private final PodLogs logs;
    /**
     * Failed reads of samples logs so far, by "namespace/pod"; an entry goes when its pod's log is read or given up on
     * (one stays, a few bytes, when its run is deleted between reads). An operator restart starts the count again,
     * which at worst costs a few more reads.
     */
    private final Map<String, Integer> failedSamplesReads = new ConcurrentHashMap<>();

    public JobObserver(KubernetesClient client) {
        this.logs = new PodLogs(client);
    }

    /** Where the Job stands, from the Job and its pods ({@code pods} may hold other Jobs' pods too). */
    public JobOutcome observe(Job job, Set<Pod> benchmarkPods) {
        String name = job.getMetadata().getName();
        List<Pod> pods = podsOf(job, benchmarkPods);
        Optional<JobCondition> failed = terminalCondition(job, "Failed");
        if (failed.isPresent()) {
            // The pod that failed says why; with shards, the others are stopped with the Job and say nothing.
            Optional<ContainerStateTerminated> last = pods.stream()
                    .filter(p -> terminated(p).isPresent())
                    .max(Comparator.<Pod, Boolean>comparing(p -> terminated(p)
                                    .filter(t -> t.getExitCode() != null && t.getExitCode() != 0)
                                    .isPresent())
                            .thenComparing(
                                    p -> p.getMetadata().getCreationTimestamp(),
                                    Comparator.nullsFirst(Comparator.naturalOrder())))
                    .flatMap(JobObserver::terminated);
            return new JobOutcome.Failed(
                    last.map(ContainerStateTerminated::getExitCode).orElse(null),
                    failed.get().getReason(),
                    failed.get().getMessage(),
                    last.map(ContainerStateTerminated::getMessage).orElse(null));
        }
        int shards = job.getSpec() == null || job.getSpec().getCompletions() == null
                ? 1
                : job.getSpec().getCompletions();
        if (terminalCondition(job, "Complete").isPresent() && shards > 1) {
            return completedShards(name, pods, shards);
        }
        if (terminalCondition(job, "Complete").isPresent()) {
            Optional<Pod> succeeded = pods.stream()
                    .filter(p -> terminated(p)
                            .filter(t -> Integer.valueOf(0).equals(t.getExitCode()))
                            .isPresent())
                    .findFirst();
            if (succeeded.isPresent()) {
                return completed(succeeded.get());
            }
            if (pods.stream().anyMatch(JobObserver::stillRunsInThisCopy)) {
                // The Job's controller saw its pod finish; the pod informer has not delivered that yet, and will.
                return new JobOutcome.Running(null);
            }
            return new JobOutcome.Completed(
                    null, "no finished pod of Job " + name + " is left to read the summary from", null);
        }
        return new JobOutcome.Running(pods.stream()
                .filter(p ->
                        p.getStatus() != null && "Running".equals(p.getStatus().getPhase()))
                .min(Comparator.comparing(JobObserver::shardIndex))
                .map(this::progress)
                .orElse(null));
    }

    /**
     * The Job's pods that were lost before they finished — deleted, evicted (or otherwise disrupted) or failed — one
     * line each for the run's warnings, naming the pod and what happened to it.
     */
    public static List<String> lostRunners(Job job, Set<Pod> benchmarkPods) {
        return podsOf(job, benchmarkPods).stream()
                .sorted(Comparator.comparing(
                        p -> p.getMetadata().getCreationTimestamp(), Comparator.nullsFirst(Comparator.naturalOrder())))
                .flatMap(pod -> lost(pod).stream())
                .toList();
    }

    private static Optional<String> lost(Pod pod) {
        Optional<String> how = disruption(pod)
                .map(c -> "evicted or disrupted: " + c.getReason() + ", " + c.getMessage())
                .or(() -> Optional.ofNullable(pod.getMetadata().getDeletionTimestamp())
                        .map(deleted -> "deleted"))
                .or(() -> pod.getStatus() != null
                                && "Failed".equals(pod.getStatus().getPhase())
                        ? Optional.of("failed"
                                + terminated(pod)
                                        .map(t -> ", exit code " + t.getExitCode()
                                                + (t.getReason() == null ? "" : " (" + t.getReason() + ")"))
                                        .orElse(""))
                        : Optional.empty());
        return how.map(text -> StatusText.bounded(
                RunnerLosses.PREFIX + pod.getMetadata().getName() + " was lost before it finished: " + text + "."));
    }

    private static Optional<PodCondition> disruption(Pod pod) {
        return pod.getStatus() == null || pod.getStatus().getConditions() == null
                ? Optional.empty()
                : pod.getStatus().getConditions().stream()
                        .filter(c -> "DisruptionTarget".equals(c.getType()) && "True".equals(c.getStatus()))
                        .findFirst();
    }

    /**
     * The pods the Job's controller made: those whose controller reference names the Job's UID, as the Job controller
     * itself counts them. A pod that only carries the Job's labels is anyone's and never supplies results.
     */
    private static List<Pod> podsOf(Job job, Set<Pod> benchmarkPods) {
        return benchmarkPods.stream()
                .filter(pod -> job.getMetadata()
                        .getNamespace()
                        .equals(pod.getMetadata().getNamespace()))
                .filter(pod -> Owners.isControlledBy(pod, job))
                .toList();
    }

    private static Optional<JobCondition> terminalCondition(Job job, String type) {
        return job.getStatus() == null || job.getStatus().getConditions() == null
                ? Optional.empty()
                : job.getStatus().getConditions().stream()
                        .filter(c -> type.equals(c.getType()) && "True".equals(c.getStatus()))
                        .findFirst();
    }

    /** A pod this operator's copy shows neither finished nor deleted. */
    private static boolean stillRunsInThisCopy(Pod pod) {
        return terminated(pod).isEmpty() && pod.getMetadata().getDeletionTimestamp() == null;
    }

    private static Optional<ContainerStateTerminated> terminated(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
            return Optional.empty();
        }
        return pod.getStatus().getContainerStatuses().stream()
                .filter(s -> BenchmarkJobDependent.CONTAINER.equals(s.getName()))
                .map(ContainerStatus::getState)
                .filter(s -> s != null && s.getTerminated() != null)
                .map(ContainerState::getTerminated)
                .findFirst();
    }

    /**
     * "done/total stage" from the last PROGRESS line of the pod's log tail; null when the log cannot be read or has
     * none.
     */
    private String progress(Pod pod) {
        return progressOf(logs.tail(pod, BenchmarkJobDependent.CONTAINER, LOG_LINES, false)
                .orElse(null));
    }

    /**
     * The outcome of a Job whose pod succeeded, with the end of the pod's log, where the runner printed its samples; a
     * failed read is tried again while the pod exists, up to {@link #SAMPLES_LOG_READS} reads, and the log is then
     * null.
     */
    private JobOutcome completed(Pod pod) {
        PodLogs.BoundedTail log = logs.tail(pod, BenchmarkJobDependent.CONTAINER, SAMPLES_LOG_LINES, SAMPLES_LOG_BYTES);
        return unread(pod, log)
                .orElseGet(() ->
                        new JobOutcome.Completed(terminated(pod).orElseThrow().getMessage(), null, log.text()));
    }

    /**
     * {@link JobOutcome.SamplesLogUnread} while the tail of a finished pod's log could not be read fewer than
     * {@link #SAMPLES_LOG_READS} times and the pod still exists; else empty, the log read or given up on.
     */
    private Optional<JobOutcome> unread(Pod pod, PodLogs.BoundedTail log) {
        String key = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
        if (log.text() == null && !log.podGone() && pod.getMetadata().getDeletionTimestamp() == null) {
            int failed = failedSamplesReads.merge(key, 1, Integer::sum);
            if (failed < SAMPLES_LOG_READS) {
                return Optional.of(
                        new JobOutcome.SamplesLogUnread(pod.getMetadata().getName(), failed));
            }
        }
        failedSamplesReads.remove(key);
        return Optional.empty();
    }

    /**
     * The outcome of an Indexed Job whose every shard succeeded: each shard's result from the end of its pod's log,
     * folded into the summary and samples one runner would have left, one shard at a time and, like samples, two runs
     * at a time in the whole operator. A log that cannot be read is read again as for one runner; a shard whose result
     * is missing or unreadable leaves the run without a summary, saying which.
     */
    private JobOutcome completedShards(String jobName, List<Pod> pods, int shards) {
        List<Pod> finished = new ArrayList<>();
        for (int index = 0; index < shards; index++) {
            int shard = index;
            Optional<Pod> succeeded = pods.stream()
                    .filter(p -> shardIndex(p) == shard)
                    .filter(p -> terminated(p)
                            .filter(t -> Integer.valueOf(0).equals(t.getExitCode()))
                            .isPresent())
                    .findFirst();
            if (succeeded.isEmpty()) {
                return pods.stream().anyMatch(JobObserver::stillRunsInThisCopy)
                        ? new JobOutcome.Running(null)
                        : new JobOutcome.Completed(
                                null, "no finished pod of shard " + shard + " of Job " + jobName + " is left", null);
            }
            finished.add(succeeded.get());
        }
        return SampleDecoding.decode(() -> merge(finished));
    }

    private JobOutcome merge(List<Pod> shardPods) {
        ShardMerge merge = new ShardMerge();
        for (int shard = 0; shard < shardPods.size(); shard++) {
            Pod pod = shardPods.get(shard);
            PodLogs.BoundedTail log =
                    logs.tail(pod, BenchmarkJobDependent.CONTAINER, SAMPLES_LOG_LINES, SHARD_LOG_BYTES);
            Optional<JobOutcome> unread = unread(pod, log);
            if (unread.isPresent()) {
                return unread.get();
            }
            try {
                ShardResult result = ShardResult.fromLog(log.text());
                if (result == null) {
                    return missingShard(shard, pod, "its log has no result line");
                }
                merge.add(result);
            } catch (IllegalArgumentException e) {
                return missingShard(shard, pod, e.getMessage());
            }
        }
        try {
            ShardMerge.Merged merged = merge.finish();
            return new JobOutcome.Completed(
                    merged.summary(),
                    null,
                    merged.samples() == null ? null : merged.samples().toLogLine());
        } catch (IllegalArgumentException e) {
            return new JobOutcome.Completed(
                    null, StatusText.bounded("the shards' results do not merge: " + e.getMessage()), null);
        }
    }

    private static JobOutcome missingShard(int shard, Pod pod, String why) {
        return new JobOutcome.Completed(
                null,
                StatusText.bounded("the result of shard " + shard + " (pod "
                        + pod.getMetadata().getName() + ") could not be read: " + why),
                null);
    }

    /** The completion index of an Indexed Job's pod; 0 for a pod of a Job of one runner. */
    static int shardIndex(Pod pod) {
        String index = pod.getMetadata().getAnnotations() == null
                ? null
                : pod.getMetadata().getAnnotations().get(BenchmarkJobDependent.COMPLETION_INDEX_ANNOTATION);
        try {
            return index == null ? 0 : Integer.parseInt(index);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    static String progressOf(String log) {
        if (log == null) {
            return null;
        }
        String[] lines = log.split("\\R");
        for (int i = lines.length - 1; i >= 0; i--) {
            Optional<String> progress = ProgressLine.parse(lines[i]);
            if (progress.isPresent()) {
                return progress.get();
            }
        }
        return null;
    }
}
