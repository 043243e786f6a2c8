package dev.llmops.serving.operator.benchmark;

import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.RetentionStatus;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.RetentionGroup;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.RetentionSpec;
import dev.llmops.serving.operator.config.OperatorConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What becomes of a finished run under its retention (spec.retention, else the operator's default): kept until its
 * time to live ends or keepLast newer runs of its group have finished, then deleted with its Job and samples; kept past
 * that while other runs name it as their baseline or reference, so their comparisons keep their samples. Decides
 * only; the reconciler supplies the runs and the time, and deletes.
 */
final class RunRetention {

    /**
     * Orders runs newest first by when they finished, then (timestamps have whole seconds) by when they were created,
     * then by name from the last (nightly-10 before nightly-9 is wrong, but no worse than any other order of runs that
     * finished and were created in the same second), so every reconcile ranks a group the same.
     */
    private static final Comparator<BenchmarkRun> NEWEST_FIRST = Comparator.comparing(RunRetention::finishedAt)
            .thenComparing(run -> Instant.parse(run.getMetadata().getCreationTimestamp()))
            .thenComparing(run -> run.getMetadata().getName())
            .reversed();

    private RunRetention() {}

    /** Delete the run now (with the reason for its event), or keep it and decide again after a while, if ever. */
    record Decision(boolean delete, String reason, Optional<Duration> recheckAfter, RetentionStatus status) {

        /** The same, except that a run to delete is kept until the archive has its record. */
        Decision untilArchived() {
            if (!delete) {
                return this;
            }
            status.message = reason + " Kept until it is archived (its Archived condition says why it is not yet).";
            return new Decision(false, null, Optional.empty(), status);
        }
    }

    /**
     * The run's own retention, else the operator's default when that sets anything; none for a run of a
     * ServingExperiment, which goes with its experiment (its owner) and which the experiment reads for its results.
     */
    static Optional<RetentionSpec> policy(BenchmarkRun run, OperatorConfig.Benchmark.Retention defaults) {
        Map<String, String> labels = run.getMetadata().getLabels();
        if (labels != null && labels.containsKey(Labels.EXPERIMENT)) {
            return Optional.empty();
        }
        if (run.getSpec().retention != null) {
            return Optional.of(run.getSpec().retention);
        }
        if (defaults.ttlSecondsAfterFinished().isEmpty() && defaults.keepLast().isEmpty()) {
            return Optional.empty();
        }
        RetentionSpec policy = new RetentionSpec();
        policy.ttlSecondsAfterFinished = defaults.ttlSecondsAfterFinished().orElse(null);
        policy.keepLast = defaults.keepLast().orElse(null);
        policy.groupBy = defaults.groupBy();
        return Optional.of(policy);
    }

    /**
     * Decides for the finished {@code run}: {@code runs} are its namespace's runs (the finished ones of its group are
     * counted), {@code referrers} the names of the runs that compare with it.
     */
    static Decision decide(
            RetentionSpec policy,
            BenchmarkRun run,
            Collection<BenchmarkRun> runs,
            Collection<String> referrers,
            Instant now) {
        RetentionStatus status = new RetentionStatus();
        List<String> expiredBecause = new ArrayList<>();
        List<String> rules = new ArrayList<>();
        Optional<Duration> recheck = Optional.empty();
        if (policy.ttlSecondsAfterFinished != null) {
            Instant expiresAt = finishedAt(run).plusSeconds(policy.ttlSecondsAfterFinished);
            status.expiresAt = expiresAt.toString();
            if (now.isBefore(expiresAt)) {
                recheck = Optional.of(Duration.between(now, expiresAt));
                rules.add("at " + expiresAt + ", " + policy.ttlSecondsAfterFinished + " s after it finished");
            } else {
                expiredBecause.add(
                        "it finished more than " + policy.ttlSecondsAfterFinished + " s ago (ttlSecondsAfterFinished)");
            }
        }
        Optional<String> group = group(run, policy.groupBy);
        if (policy.keepLast != null && group.isPresent()) {
            long newer = runs.stream()
                    .filter(other ->
                            RunStatusReport.isFinished(other.getStatus() == null ? null : other.getStatus().phase))
                    .filter(other -> group.equals(group(other, policy.groupBy)))
                    .filter(other -> NEWEST_FIRST.compare(other, run) < 0)
                    .count();
            String ofGroup = "runs of " + describe(run, policy.groupBy) + " have finished";
            if (newer >= policy.keepLast) {
                expiredBecause.add(newer + " newer " + ofGroup + " (keepLast " + policy.keepLast + ")");
            } else {
                rules.add("once " + policy.keepLast + " newer " + ofGroup);
            }
        }
        if (expiredBecause.isEmpty()) {
            status.message = "Deleted with its Job and samples " + String.join(", or ", rules) + ".";
            return new Decision(false, null, recheck, status);
        }
        String expired = "Expired: " + String.join("; ", expiredBecause);
        if (!referrers.isEmpty()) {
            status.keptFor = referrers.stream().sorted().toList();
            status.message = expired + ". Kept while " + String.join(", ", status.keptFor)
                    + " compare with it (spec.baseline or spec.reference); deleted when they are gone.";
            return new Decision(false, null, Optional.empty(), status);
        }
        status.message = expired + ".";
        return new Decision(true, expired + ".", Optional.empty(), status);
    }

    /** The key of the run's group under {@code by}; empty when it has none (no reference to group by). */
    private static Optional<String> group(BenchmarkRun run, RetentionGroup by) {
        var spec = run.getSpec();
        return switch (by) {
            case Target ->
                Optional.of(
                        spec.target.modelServer != null
                                ? "modelServer/" + spec.target.modelServer
                                : "url/" + spec.target.url);
            case Reference -> Optional.ofNullable(spec.reference).map(reference -> "reference/" + reference.name);
        };
    }

    private static String describe(BenchmarkRun run, RetentionGroup by) {
        var spec = run.getSpec();
        return switch (by) {
            case Target ->
                spec.target.modelServer != null
                        ? "ModelServer " + spec.target.modelServer
                        : "target " + spec.target.url;
            case Reference -> "reference " + Objects.requireNonNull(spec.reference).name;
        };
    }

    /** When the run finished: status.completionTime; a run that failed before recording one, when it was created. */
    static Instant finishedAt(BenchmarkRun run) {
        String completion = run.getStatus() == null ? null : run.getStatus().completionTime;
        return Instant.parse(completion != null ? completion : run.getMetadata().getCreationTimestamp());
    }
}
