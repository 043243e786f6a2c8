package dev.llmops.serving.operator.benchmark.archive;

import dev.llmops.serving.api.v1alpha1.ConditionReasons;
import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.ArchiveStatus;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.archive.ArchiveException;
import dev.llmops.serving.archive.RunArchive;
import dev.llmops.serving.llmd.LlmdReport;
import dev.llmops.serving.operator.benchmark.comparison.SampleStore;
import dev.llmops.serving.operator.toolkit.Conditions;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Writes a finished run's record into the archive: the run as it finished (run.json), the samples its ConfigMap holds
 * and its llm-d reports per stage. Never in the reconcile that finishes the run, whose results are written first; a
 * failed attempt sets the Archived condition to why and is retried with backoff, the run's phase untouched.
 */
public final class RunArchiver {

    /** The wait after the first failed attempt, doubled after each further one up to {@link #LONGEST_WAIT}. */
    static final Duration FIRST_WAIT = Duration.ofSeconds(10);

    static final Duration LONGEST_WAIT = Duration.ofMinutes(10);

    /** Annotations not worth keeping: kubectl's copy of the applied manifest repeats the spec. */
    private static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

    private final RunArchive archive;
    private final SampleStore samples;
    private final Conditions conditions;
    private final Clock clock;

    public RunArchiver(RunArchive archive, SampleStore samples, Conditions conditions, Clock clock) {
        this.archive = archive;
        this.samples = samples;
        this.conditions = conditions;
        this.clock = clock;
    }

    /** Whether the run's record is yet to be written. */
    public static boolean pending(BenchmarkRunStatus status) {
        return status.archive == null || status.archive.url == null;
    }

    /**
     * Writes the run's record when an attempt is due, into its status: where it went, or why not and when the next
     * attempt is; returns how long until that one, empty once written.
     */
    public Optional<Duration> archive(BenchmarkRun run) {
        BenchmarkRunStatus status = run.getStatus();
        Instant now = clock.instant();
        ArchiveStatus previous = status.archive;
        if (previous != null && previous.nextAttemptAt != null) {
            Instant next = Instant.parse(previous.nextAttemptAt);
            if (now.isBefore(next)) {
                return Optional.of(Duration.between(now, next));
            }
        }
        Long generation = run.getMetadata().getGeneration();
        try {
            RunArchive.Written written = archive.write(
                    run.getMetadata().getNamespace(),
                    run.getMetadata().getName(),
                    run.getMetadata().getUid(),
                    entries(run));
            ArchiveStatus archived = new ArchiveStatus();
            archived.url = written.url();
            archived.archivedAt = now.toString();
            archived.objects = written.objects();
            archived.bytes = written.bytes();
            status.archive = archived;
            conditions.set(
                    status.conditions,
                    ConditionTypes.ARCHIVED,
                    Conditions.TRUE,
                    ConditionReasons.ARCHIVED,
                    "Archived to " + written.url() + " (" + written.objects() + " objects, " + written.bytes()
                            + " bytes).",
                    generation);
            return Optional.empty();
        } catch (ArchiveException e) {
            int failed = (previous == null || previous.failedAttempts == null ? 0 : previous.failedAttempts) + 1;
            Duration wait = waitAfter(failed);
            ArchiveStatus retrying = new ArchiveStatus();
            retrying.failedAttempts = failed;
            retrying.nextAttemptAt = now.plus(wait).toString();
            status.archive = retrying;
            conditions.set(
                    status.conditions,
                    ConditionTypes.ARCHIVED,
                    Conditions.FALSE,
                    reason(e.kind()),
                    e.getMessage() + " Attempt " + failed + " failed; the next is at " + retrying.nextAttemptAt
                            + ". The run's results are unaffected; it is not deleted under its retention until"
                            + " archived.",
                    generation);
            return Optional.of(wait);
        }
    }

    /** 10 s after the first failure, doubling, at most 10 minutes. */
    static Duration waitAfter(int failedAttempts) {
        int doublings = Math.min(failedAttempts - 1, 10);
        Duration wait = FIRST_WAIT.multipliedBy(1L << doublings);
        return wait.compareTo(LONGEST_WAIT) > 0 ? LONGEST_WAIT : wait;
    }

    private List<RunArchive.Entry> entries(BenchmarkRun run) {
        List<RunArchive.Entry> entries = new ArrayList<>();
        BenchmarkRunStatus status = run.getStatus();
        if (status.samples != null) {
            samples.gzip(run.getMetadata().getNamespace(), status.samples, status.samplesSha256)
                    .ifPresent(gzip -> entries.add(new RunArchive.Entry(RunArchive.SAMPLES, gzip, "application/gzip")));
        }
        List<LlmdReport.Stage> stages = LlmdReport.render(run);
        for (int index = 0; index < stages.size(); index++) {
            LlmdReport.Stage stage = stages.get(index);
            entries.add(new RunArchive.Entry(
                    RunArchive.LLMD + index + "_" + stage.name().replaceAll("[^A-Za-z0-9._-]", "_") + ".yaml",
                    LlmdReport.yaml(stage.report()).getBytes(StandardCharsets.UTF_8),
                    "application/yaml"));
        }
        entries.add(new RunArchive.Entry(
                RunArchive.RUN,
                Serialization.asJson(record(run)).getBytes(StandardCharsets.UTF_8),
                "application/json"));
        return entries;
    }

    /** The run as archived: its spec and status, and of its metadata what identifies it and what users set. */
    private static BenchmarkRun record(BenchmarkRun run) {
        ObjectMeta metadata = run.getMetadata();
        Map<String, String> annotations = metadata.getAnnotations() == null
                ? null
                : metadata.getAnnotations().entrySet().stream()
                        .filter(annotation -> !annotation.getKey().equals(LAST_APPLIED))
                        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        BenchmarkRun record = new BenchmarkRun();
        record.setMetadata(new ObjectMetaBuilder()
                .withName(metadata.getName())
                .withNamespace(metadata.getNamespace())
                .withUid(metadata.getUid())
                .withGeneration(metadata.getGeneration())
                .withCreationTimestamp(metadata.getCreationTimestamp())
                .withLabels(metadata.getLabels())
                .withAnnotations(annotations)
                .build());
        record.setSpec(run.getSpec());
        record.setStatus(run.getStatus());
        return record;
    }

    private static String reason(ArchiveException.Kind kind) {
        return switch (kind) {
            case Unreachable -> ConditionReasons.ARCHIVE_UNREACHABLE;
            case AccessDenied -> ConditionReasons.ARCHIVE_ACCESS_DENIED;
            case NoSuchBucket -> ConditionReasons.ARCHIVE_BUCKET_MISSING;
            case Invalid, Failed -> ConditionReasons.ARCHIVE_FAILED;
        };
    }
}
