package dev.llmops.serving.report;

import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.Provenance;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageSpeedup;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * One target's succeeded runs in the order they finished, each with its figures, its verdict against its reference and
 * what changed in the server since the run before (image, arguments, from the provenance): when, and with which image,
 * a regression came. What report history draws and tabulates.
 *
 * @param target the ModelServer or URL the runs measured
 * @param entries the runs, oldest first
 * @param stages the stage names of all runs, in the order the runs ran them
 * @param leftOut what was left out and why (runs of other targets, runs that did not succeed)
 */
public record RunHistory(String target, List<Entry> entries, List<String> stages, List<String> leftOut) {

    /**
     * One run: its name, when it finished, its server, each stage by name, its verdict against its reference
     * (Regressed, Improved or none), each stage's paired speedup over that reference, and the changes since the run
     * before.
     */
    public record Entry(
            String run,
            Instant finished,
            String image,
            Map<String, StageResult> stages,
            Optional<String> verdict,
            Map<String, StageSpeedup> speedups,
            List<String> changes) {}

    /**
     * The history of {@code target}, or of the one target all runs share; an error naming the targets when there are
     * several and none is given, or naming none when the target has no succeeded run.
     */
    public static RunHistory of(Collection<BenchmarkRun> runs, Optional<String> target) {
        Set<String> targets = new TreeSet<>();
        runs.forEach(run -> targets.add(target(run)));
        String chosen = target.orElseGet(() -> {
            if (targets.size() != 1) {
                throw new IllegalArgumentException("The runs measured " + targets.size() + " targets ("
                        + String.join(", ", targets) + "): choose one with --target");
            }
            return targets.iterator().next();
        });
        List<String> leftOut = new ArrayList<>();
        List<BenchmarkRun> succeeded = new ArrayList<>();
        int otherTargets = 0;
        for (BenchmarkRun run : runs) {
            if (!chosen.equals(target(run))) {
                otherTargets++;
            } else if (run.getStatus() == null
                    || run.getStatus().phase != BenchmarkRunPhase.Succeeded
                    || finished(run).isEmpty()) {
                leftOut.add(run.getMetadata().getName() + ": "
                        + (run.getStatus() == null || run.getStatus().phase == null
                                ? "no status"
                                : run.getStatus().phase.name()));
            } else {
                succeeded.add(run);
            }
        }
        if (otherTargets > 0) {
            leftOut.add(0, otherTargets + " runs of other targets");
        }
        if (succeeded.isEmpty()) {
            throw new IllegalArgumentException("No succeeded run of " + chosen + " among the " + runs.size()
                    + " runs given (targets: " + String.join(", ", targets) + ")");
        }
        succeeded.sort(Comparator.comparing((BenchmarkRun run) -> finished(run).orElseThrow())
                .thenComparing(run -> run.getMetadata().getName()));
        List<Entry> entries = new ArrayList<>();
        Set<String> stages = new LinkedHashSet<>();
        Provenance previous = null;
        for (BenchmarkRun run : succeeded) {
            Map<String, StageResult> byName = new LinkedHashMap<>();
            run.getStatus().stages.forEach(stage -> {
                byName.put(stage.name, stage);
                stages.add(stage.name);
            });
            Map<String, StageSpeedup> speedups = new LinkedHashMap<>();
            if (run.getStatus().referenceComparison != null) {
                run.getStatus().referenceComparison.stages.forEach(s -> speedups.put(s.name, s));
            }
            Provenance provenance = run.getStatus().provenance;
            entries.add(new Entry(
                    run.getMetadata().getName(),
                    finished(run).orElseThrow(),
                    provenance == null ? null : provenance.image,
                    byName,
                    verdict(run),
                    speedups,
                    previous == null || provenance == null ? List.of() : changes(previous, provenance)));
            previous = provenance == null ? previous : provenance;
        }
        return new RunHistory(chosen, entries, List.copyOf(stages), leftOut);
    }

    private static String target(BenchmarkRun run) {
        if (run.getStatus() != null && run.getStatus().target != null) {
            return run.getStatus().target;
        }
        var spec = run.getSpec().target;
        return spec.modelServer != null ? spec.modelServer : spec.url;
    }

    private static Optional<Instant> finished(BenchmarkRun run) {
        try {
            return Optional.ofNullable(run.getStatus().completionTime).map(Instant::parse);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> verdict(BenchmarkRun run) {
        return run.getStatus().conditions.stream()
                .filter(c -> "True".equals(c.getStatus()))
                .map(c -> c.getType())
                .filter(type -> type.equals(ConditionTypes.REGRESSED) || type.equals(ConditionTypes.IMPROVED))
                .findFirst();
    }

    /** What differs in the server from the run before: its image, and the arguments added and removed. */
    private static List<String> changes(Provenance before, Provenance after) {
        List<String> changes = new ArrayList<>();
        if (!Objects.equals(before.image, after.image)) {
            changes.add("image " + before.image + " → " + after.image);
        }
        List<String> added = new ArrayList<>(after.serverArgs);
        added.removeAll(before.serverArgs);
        List<String> removed = new ArrayList<>(before.serverArgs);
        removed.removeAll(after.serverArgs);
        if (!added.isEmpty() || !removed.isEmpty()) {
            List<String> parts = new ArrayList<>();
            added.forEach(arg -> parts.add("+" + arg));
            removed.forEach(arg -> parts.add("−" + arg));
            changes.add("args " + String.join(" ", parts));
        }
        return changes;
    }
}
