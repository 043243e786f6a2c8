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
 * server figures of shard 0, which alone measured them. Shards are folded in one by one, in index order, so a merge
 * holds one shard's result at a time besides what it has added up. {@code report merge} and the operator both merge
 * with it.
 */
public final class ShardMerge {

    private ShardResult first;
    private int next;
    private final List<String> runWarnings = new ArrayList<>();
    private final RequestSamples.Merge samples = new RequestSamples.Merge();
    private final List<String> notes = new ArrayList<>();

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
        List<ShardResult> shards = new ArrayList<>(results);
        shards.sort(Comparator.comparingInt(ShardResult::shard));
        ShardMerge merge = new ShardMerge();
        shards.forEach(merge::add);
        return merge.finish();
    }

    /**
     * Folds in the next shard's result: shard 0 first, then 1, and so on.
     *
     * @throws IllegalArgumentException when it is not the next shard of the run, or of another run
     */
    public void add(ShardResult shard) {
        if (shard.shard() != next) {
            throw new IllegalArgumentException((shard.shard() < next
                            ? "shard " + shard.shard() + " appears twice"
                            : "shard " + next + " is missing")
                    + " (" + (next + 1) + " results for " + shard.count() + " shards)");
        }
        if (first == null) {
            first = shard;
            runWarnings.addAll(shard.runWarnings() == null ? List.of() : shard.runWarnings());
        } else {
            sameRun(shard);
            for (int j = 0; j < first.stages().size(); j++) {
                first.stages().get(j).add(shard.stages().get(j));
            }
            if (shard.runWarnings() != null) {
                shard.runWarnings().stream()
                        .filter(warning -> !first.runWarnings().contains(warning))
                        .forEach(warning -> runWarnings.add("shard " + shard.shard() + ": " + warning));
            }
        }
        SampleSet set = shard.sampleSet();
        if (set == null) {
            notes.add("shard " + shard.shard() + " kept no samples");
        } else {
            samples.add(set);
        }
        next++;
    }

    /**
     * The merged run, once every shard was added.
     *
     * @throws IllegalArgumentException when a shard is missing
     */
    public Merged finish() {
        if (first == null) {
            throw new IllegalArgumentException("there is no shard result to merge");
        }
        if (next != first.count()) {
            throw new IllegalArgumentException(
                    "shard " + next + " is missing (" + next + " results for " + first.count() + " shards)");
        }
        List<StageReport> stages =
                first.stages().stream().map(StageFigures::report).toList();
        return new Merged(
                first.report().withStages(stages, runWarnings, first.count()), samples.sampleSet(notes::add), notes);
    }

    private void sameRun(ShardResult shard) {
        if (shard.count() != first.count()) {
            throw new IllegalArgumentException("shard " + shard.shard() + " is one of " + shard.count()
                    + " shards, shard 0 one of " + first.count() + ": they are not of one run");
        }
        BenchmarkReport a = first.report();
        BenchmarkReport b = shard.report();
        if (!Objects.equals(a.workload(), b.workload())
                || !Objects.equals(a.model(), b.model())
                || !Objects.equals(a.baseUrl(), b.baseUrl())) {
            throw new IllegalArgumentException(
                    "shard " + shard.shard() + " measured " + b.model() + " at " + b.baseUrl()
                            + " with workload " + b.workload() + ", shard 0 " + a.model() + " at " + a.baseUrl()
                            + " with workload " + a.workload() + ": they are not of one run");
        }
        boolean sameStages = first.stages().size() == shard.stages().size();
        for (int j = 0; sameStages && j < first.stages().size(); j++) {
            sameStages = first.stages().get(j).sameStageAs(shard.stages().get(j));
        }
        if (!sameStages) {
            throw new IllegalArgumentException("shard " + shard.shard() + " ran stages "
                    + shard.stages().stream().map(StageFigures::name).toList() + ", shard 0 "
                    + first.stages().stream().map(StageFigures::name).toList() + ": they are not of one run");
        }
    }
}
