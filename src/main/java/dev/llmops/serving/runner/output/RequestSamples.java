package dev.llmops.serving.runner.output;

import dev.llmops.serving.api.contract.QualityOutput;
import dev.llmops.serving.api.contract.SampleSet;
import dev.llmops.serving.api.contract.StageSamples;
import dev.llmops.serving.runner.BenchmarkListener;
import dev.llmops.serving.runner.plan.BenchmarkConfig;
import dev.llmops.serving.runner.plan.StagePlan;
import dev.llmops.serving.runner.transport.RequestResult;
import dev.llmops.serving.runner.workload.WorkloadDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * Collects, as a run goes, what a paired comparison with another run needs: every successful measured request's
 * figures by its position in the stage's request sequence (the lowest {@link StageSamples#MAX_REQUESTS} positions of
 * each stage) and the quality stage's outputs; then builds the run's {@link SampleSet}.
 */
public final class RequestSamples implements BenchmarkListener {

    private final String workload;
    /** Per stage, in the order the stages started, its samples with the highest index on top. */
    private final Map<String, PriorityQueue<Sample>> stages = new LinkedHashMap<>();

    private List<QualityOutput> quality = List.of();

    public RequestSamples(BenchmarkConfig config) {
        this(WorkloadDigest.of(config));
    }

    private RequestSamples(String workload) {
        this.workload = workload;
    }

    private record Sample(int index, int outputTokens, double ttftMillis, double tpotMillis, double e2eMillis) {}

    /**
     * The samples of one run from its shards' samples, added one shard at a time: each stage's requests of every shard
     * by position, the lowest kept as one runner keeps them (each shard kept its own lowest, so none of the lowest
     * overall is missing), and the quality outputs of the shard that ran the quality stage.
     */
    public static final class Merge {
        private RequestSamples merged;

        public void add(SampleSet shard) {
            if (merged == null) {
                merged = new RequestSamples(shard.workload());
            }
            for (StageSamples stage : shard.stages()) {
                merged.samplesOf(stage.name());
                for (int i = 0; i < stage.size(); i++) {
                    merged.add(
                            stage.name(),
                            new Sample(
                                    stage.index()[i],
                                    stage.outputTokens()[i],
                                    stage.ttftMillis()[i],
                                    stage.tpotMillis()[i],
                                    stage.e2eMillis()[i]));
                }
            }
            if (!shard.quality().isEmpty()) {
                merged.quality = shard.quality();
            }
        }

        /** The merged samples, bounded as {@link RequestSamples#sampleSet} bounds them; null when none were added. */
        public SampleSet sampleSet(Consumer<String> warn) {
            return merged == null ? null : merged.sampleSet(warn);
        }
    }

    @Override
    public synchronized void stageStarted(StagePlan stage, int index, int stageCount) {
        samplesOf(stage.name());
    }

    @Override
    public void requestFinished(StagePlan stage, long index, long intendedNanos, RequestResult result) {
        if (!result.succeeded() || index < 0 || index > Integer.MAX_VALUE) {
            return;
        }
        add(
                stage.name(),
                new Sample(
                        (int) index,
                        result.outputTokens(),
                        (result.firstTokenNanos() - intendedNanos) / 1e6,
                        result.tpotMillis().orElse(0),
                        (result.endNanos() - intendedNanos) / 1e6));
    }

    /** Keeps {@code sample} if it is among the stage's lowest positions so far. */
    private synchronized void add(String stageName, Sample sample) {
        PriorityQueue<Sample> samples = samplesOf(stageName);
        if (samples.size() < StageSamples.MAX_REQUESTS) {
            samples.add(sample);
        } else if (sample.index() < samples.peek().index()) {
            samples.poll();
            samples.add(sample);
        }
    }

    @Override
    public synchronized void qualityFinished(List<QualityOutput> outputs) {
        quality = List.copyOf(outputs);
    }

    /**
     * The samples collected so far, within what a reader accepts: the first {@link SampleSet#MAX_STAGES} stages, at
     * most {@link SampleSet#MAX_TOTAL_SAMPLES} requests in all and {@link SampleSet#MAX_QUALITY_OUTPUTS} quality
     * outputs. When their log line would exceed {@link SampleSet#MAX_ENCODED_CHARS}, each stage keeps fewer (its
     * lowest positions), halving until the line fits, then the quality outputs likewise; each cut is told to
     * {@code warn}.
     */
    public synchronized SampleSet sampleSet(Consumer<String> warn) {
        if (stages.size() > SampleSet.MAX_STAGES) {
            warn.accept("samples: the first " + SampleSet.MAX_STAGES + " of " + stages.size() + " stages are kept");
        }
        int stagesKept = Math.min(stages.size(), SampleSet.MAX_STAGES);
        int perStageBound = Math.min(StageSamples.MAX_REQUESTS, SampleSet.MAX_TOTAL_SAMPLES / Math.max(1, stagesKept));
        int perStage = perStageBound;
        if (quality.size() > SampleSet.MAX_QUALITY_OUTPUTS) {
            warn.accept("samples: the first " + SampleSet.MAX_QUALITY_OUTPUTS + " of " + quality.size()
                    + " quality outputs are kept");
        }
        int qualityKept = Math.min(quality.size(), SampleSet.MAX_QUALITY_OUTPUTS);
        SampleSet samples = build(perStage, qualityKept);
        while (encodedChars(samples) > SampleSet.MAX_ENCODED_CHARS && (perStage > 0 || qualityKept > 0)) {
            if (perStage > 0) {
                perStage /= 2;
            } else {
                qualityKept /= 2;
            }
            samples = build(perStage, qualityKept);
        }
        if (perStageBound < StageSamples.MAX_REQUESTS) {
            warn.accept("samples: at most " + perStageBound + " requests per stage are kept (the lowest positions),"
                    + " so " + stagesKept + " stages hold at most " + SampleSet.MAX_TOTAL_SAMPLES + " in all");
        }
        if (perStage < perStageBound) {
            warn.accept("samples: at most " + perStage + " requests per stage are kept (the lowest positions), so"
                    + " the samples fit in " + SampleSet.MAX_ENCODED_CHARS + " characters");
        }
        if (qualityKept < Math.min(quality.size(), SampleSet.MAX_QUALITY_OUTPUTS)) {
            warn.accept("samples: " + qualityKept + " of " + quality.size() + " quality outputs are kept, so the"
                    + " samples fit in " + SampleSet.MAX_ENCODED_CHARS + " characters");
        }
        return samples;
    }

    private PriorityQueue<Sample> samplesOf(String stageName) {
        return stages.computeIfAbsent(
                stageName,
                name -> new PriorityQueue<>(
                        Comparator.comparingInt(Sample::index).reversed()));
    }

    private SampleSet build(int perStage, int qualityKept) {
        List<StageSamples> stageSamples = new ArrayList<>();
        stages.entrySet().stream().limit(SampleSet.MAX_STAGES).forEach(stage -> {
            String name = stage.getKey();
            List<Sample> kept = stage.getValue().stream()
                    .sorted(Comparator.comparingInt(Sample::index))
                    .limit(perStage)
                    .toList();
            int n = kept.size();
            int[] index = new int[n];
            int[] tokens = new int[n];
            double[] ttft = new double[n];
            double[] tpot = new double[n];
            double[] e2e = new double[n];
            for (int i = 0; i < n; i++) {
                Sample sample = kept.get(i);
                index[i] = sample.index();
                tokens[i] = sample.outputTokens();
                ttft[i] = sample.ttftMillis();
                tpot[i] = sample.tpotMillis();
                e2e[i] = sample.e2eMillis();
            }
            stageSamples.add(new StageSamples(name, index, tokens, ttft, tpot, e2e));
        });
        return new SampleSet(SampleSet.FORMAT_VERSION, workload, stageSamples, quality.subList(0, qualityKept));
    }

    private static int encodedChars(SampleSet samples) {
        return samples.toLogLine().length() - SampleSet.LOG_PREFIX.length();
    }
}
