package dev.llmops.serving.operator.benchmark.comparison;

import dev.llmops.serving.api.contract.QualityOutput;
import dev.llmops.serving.api.contract.SampleSet;
import dev.llmops.serving.api.contract.StageSamples;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.ToDoubleFunction;

/**
 * Per-request samples of two runs of one workload, made to measure: every request of a stage takes {@code factor}
 * times as long as in the reference run (one factor for all stages, or one per stage), give or take a few percent of
 * noise, so a comparison has a known answer.
 */
public final class PairedRuns {

    public static final String WORKLOAD = "3f9a1c2b7d4e5f60";
    public static final List<String> STAGES = List.of("single", "c8", "c16");
    private static final int REQUESTS = 40;
    private static final List<List<String>> HEALTHY = List.of(
            List.of("def", " quicksort", "(", "items", "):"),
            List.of("Entangled", " particles", " share", " one", " state"),
            List.of("Redis", " offers", " strings", ",", " lists"));

    private PairedRuns() {}

    /** Requests of the stages in {@link #STAGES}; 1.25 is a 20 % lower per-stream throughput than 1. */
    public static SampleSet samples(String workload, double factor, long noiseSeed, boolean brokenOutputs) {
        return samples(STAGES, workload, factor, noiseSeed, brokenOutputs);
    }

    /** Requests of the stages in {@link #STAGES}, each stage's {@code factorOf(stage)} times as slow. */
    public static SampleSet samples(
            String workload, ToDoubleFunction<String> factorOf, long noiseSeed, boolean brokenOutputs) {
        return samples(STAGES, workload, factorOf, noiseSeed, brokenOutputs);
    }

    /** Requests of the stages named. */
    public static SampleSet samples(
            List<String> stageNames, String workload, double factor, long noiseSeed, boolean brokenOutputs) {
        return samples(stageNames, workload, stage -> factor, noiseSeed, brokenOutputs);
    }

    /** Requests of the stages named, each stage's {@code factorOf(stage)} times as slow. */
    public static SampleSet samples(
            List<String> stageNames,
            String workload,
            ToDoubleFunction<String> factorOf,
            long noiseSeed,
            boolean brokenOutputs) {
        SplittableRandom noise = new SplittableRandom(noiseSeed);
        List<StageSamples> stages = new ArrayList<>();
        for (String stage : stageNames) {
            double factor = factorOf.applyAsDouble(stage);
            int[] index = new int[REQUESTS];
            int[] tokens = new int[REQUESTS];
            double[] ttft = new double[REQUESTS];
            double[] tpot = new double[REQUESTS];
            double[] e2e = new double[REQUESTS];
            for (int i = 0; i < REQUESTS; i++) {
                double jitter = 1 + (noise.nextDouble() - 0.5) * 0.04;
                double base = 800 + 10 * (i % 7);
                index[i] = i;
                tokens[i] = 100 + i % 5;
                ttft[i] = 120 * factor * jitter;
                tpot[i] = 8 * factor * jitter;
                e2e[i] = base * factor * jitter;
            }
            stages.add(new StageSamples(stage, index, tokens, ttft, tpot, e2e));
        }
        List<QualityOutput> quality = new ArrayList<>();
        for (int p = 0; p < HEALTHY.size(); p++) {
            List<String> tokens = new ArrayList<>(HEALTHY.get(p));
            if (brokenOutputs) {
                for (int t = 1; t < tokens.size(); t++) {
                    tokens.set(t, " lorem");
                }
            }
            quality.add(new QualityOutput(p, tokens, "length"));
        }
        return new SampleSet(SampleSet.FORMAT_VERSION, workload, stages, quality);
    }

    /** The end of a benchmark pod's log: the table's last line, then the samples. */
    public static String logTail(SampleSet samples) {
        return "c16      16   64   0        750.5\nquality: 3 prompts, 15 tokens\n" + samples.toLogLine() + "\n";
    }
}
