package dev.llmops.serving.runner.shard;

import dev.llmops.serving.api.contract.SampleSet;
import dev.llmops.serving.runner.output.BenchmarkReport;
import dev.llmops.serving.runner.output.CompactSummaryWriter;
import dev.llmops.serving.runner.output.RequestSamples;
import dev.llmops.serving.runner.output.StageReport;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Merges the results of a run's shards into the report and samples one runner would have written for all their
 * requests: each stage's figures added up ({@link StageFigures#add}), the single-request phase, quality outputs and
 * server figures of shard 0, which alone measured them. {@code report merge} and the operator both merge with it.
 */
public final class ShardMerge {

    private ShardMerge() {}

    /**
     * The merged run.
     *
     * @param samples the merged samples; null when no shard kept any
     * @param notes what the merge itself had to cut or could not do, for the person reading it
     */
    public record Merged(BenchmarkReport report, SampleSet samples, List<String> notes) {

        /** The compact summary of the merged run, as one runner leaves it in its termination message. */
        public String summary() {
            return CompactSummaryWriter.write(report);
        }
    }

    /**
     * Merges {@code results}, one per shard of one run, in any order.
     *
     * @throws IllegalArgumentException when they are not every shard of one run once, naming the shard at fault
     */
    public static Merged merge(List<ShardResult> results) {
        if (results.isEmpty()) {
            throw new IllegalArgumentException("there is no shard result to merge");
        }
        List<ShardResult> shards = new ArrayList<>(results);
        shards.sort(Comparator.comparingInt(ShardResult::shard));
        ShardResult first = shards.get(0);
        int count = first.count();
        for (int i = 0; i < shards.size(); i++) {
            ShardResult shard = shards.get(i);
            if (shard.count() != count) {
                throw new IllegalArgumentException("shard " + shard.shard() + " is one of " + shard.count()
                        + " shards, shard " + first.shard() + " one of " + count + ": they are not of one run");
            }
            if (shard.shard() != i) {
                throw new IllegalArgumentException(
                        (shard.shard() < i ? "shard " + shard.shard() + " appears twice" : "shard " + i + " is missing")
                                + " (" + shards.size() + " results for " + count + " shards)");
            }
            sameRun(first, shard);
        }
        if (shards.size() != count) {
            throw new IllegalArgumentException(
                    "shard " + shards.size() + " is missing (" + shards.size() + " results for " + count + " shards)");
        }
        List<StageReport> stages = new ArrayList<>();
        for (int j = 0; j < first.stages().size(); j++) {
            StageFigures merged = first.stages().get(j);
            for (ShardResult shard : shards.subList(1, count)) {
                merged.add(shard.stages().get(j));
            }
            stages.add(merged.report());
        }
        List<String> runWarnings = new ArrayList<>(first.runWarnings() == null ? List.of() : first.runWarnings());
        for (ShardResult shard : shards.subList(1, count)) {
            if (shard.runWarnings() != null) {
                shard.runWarnings().stream()
                        .filter(warning -> !runWarnings.contains(warning))
                        .forEach(warning -> runWarnings.add("shard " + shard.shard() + ": " + warning));
            }
        }
        List<String> notes = new ArrayList<>();
        return new Merged(
                first.report().withStages(stages, runWarnings).ofShards(count), samples(shards, notes), notes);
    }

    /** The shards' samples merged; null when none kept any, and a note for each shard that kept none. */
    private static SampleSet samples(List<ShardResult> shards, List<String> notes) {
        List<SampleSet> sets = new ArrayList<>();
        for (ShardResult shard : shards) {
            SampleSet set = shard.sampleSet();
            if (set == null) {
                notes.add("shard " + shard.shard() + " kept no samples");
            } else {
                sets.add(set);
            }
        }
        return sets.isEmpty() ? null : RequestSamples.merge(sets, notes::add);
    }

    private static void sameRun(ShardResult first, ShardResult shard) {
        BenchmarkReport a = first.report();
        BenchmarkReport b = shard.report();
        if (!Objects.equals(a.workload(), b.workload())
                || !Objects.equals(a.model(), b.model())
                || !Objects.equals(a.baseUrl(), b.baseUrl())) {
            throw new IllegalArgumentException(
                    "shard " + shard.shard() + " measured " + b.model() + " at " + b.baseUrl()
                            + " with workload " + b.workload() + ", shard " + first.shard() + " " + a.model() + " at "
                            + a.baseUrl() + " with workload " + a.workload() + ": they are not of one run");
        }
        boolean sameStages = first.stages().size() == shard.stages().size();
        for (int j = 0; sameStages && j < first.stages().size(); j++) {
            sameStages = first.stages().get(j).sameStageAs(shard.stages().get(j));
        }
        if (!sameStages) {
            throw new IllegalArgumentException("shard " + shard.shard() + " ran stages "
                    + shard.stages().stream().map(StageFigures::name).toList() + ", shard " + first.shard() + " "
                    + first.stages().stream().map(StageFigures::name).toList() + ": they are not of one run");
        }
    }
}
