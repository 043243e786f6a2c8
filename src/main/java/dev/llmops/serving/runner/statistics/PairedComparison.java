package dev.llmops.serving.runner.statistics;

import dev.llmops.serving.api.contract.QualityOutput;
import dev.llmops.serving.api.contract.SampleSet;
import dev.llmops.serving.api.contract.StageSamples;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * Compares two runs of one workload request by request: the speedup per stage with a 95 % paired bootstrap interval,
 * a verdict that tells a real change from noise, and how far the greedy outputs of the two servers agree.
 */
public final class PairedComparison {

    public static final int RESAMPLES = 2000;
    public static final int MIN_PAIRS = 5;

    private static final double LOWER_QUANTILE = 0.025;
    private static final double UPPER_QUANTILE = 0.975;

    /** 95 % percentile bootstrap; the estimate is the statistic on all pairs. Above 1 = `run` faster. */
    public record Interval(double estimate, double low, double high) {}

    /** What the throughput interval says about the run against the other one. */
    public enum Verdict {
        FASTER,
        SLOWER,
        NO_SIGNIFICANT_DIFFERENCE
    }

    /** One stage present in both runs; intervals and verdict are null below {@link #MIN_PAIRS} pairs. */
    public record StageComparison(
            String name,
            int pairs,
            Interval throughputSpeedup,
            Interval tpotP50Speedup,
            Interval ttftP50Speedup,
            Verdict verdict) {}

    /** Agreement of the quality stages' greedy outputs over the prompts both runs answered. */
    public record QualityAgreement(
            int prompts, double exactMatchShare, double meanSharedPrefixTokens, double prefixAgreement) {}

    /**
     * The comparison; {@code message} says why figures are missing (null when nothing is), {@code quality} is null
     * when either run has no quality outputs or the workloads differ.
     */
    public record Result(boolean sameWorkload, String message, List<StageComparison> stages, QualityAgreement quality) {
        public Result {
            stages = List.copyOf(stages);
        }
    }

    private PairedComparison() {}

    /** seed fixes the resampling so the same two runs always give the same figures (no status flapping). */
    public static Result compare(SampleSet run, SampleSet baseline, double tolerance, long seed) {
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(baseline, "baseline");
        if (!(tolerance >= 0 && tolerance < 1)) {
            throw new IllegalArgumentException("tolerance " + tolerance + " is not in [0, 1)");
        }
        if (run.workload() == null || !run.workload().equals(baseline.workload())) {
            return new Result(false, workloadMismatch(run.workload(), baseline.workload()), List.of(), null);
        }
        List<StageComparison> stages = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (StageSamples runStage : run.stages()) {
            StageSamples baseStage = baseline.stage(runStage.name());
            if (baseStage == null) {
                continue;
            }
            StageComparison stage = compareStage(runStage, baseStage, tolerance, stageSeed(seed, runStage.name()));
            if (stage.pairs() < MIN_PAIRS) {
                notes.add("stage " + stage.name() + " has " + stage.pairs() + " paired requests, fewer than "
                        + MIN_PAIRS + ": no interval or verdict");
            }
            stages.add(stage);
        }
        if (stages.isEmpty()) {
            notes.add("the runs have no stage in common");
        }
        String message = notes.isEmpty() ? null : String.join("; ", notes);
        return new Result(true, message, stages, quality(run.quality(), baseline.quality()));
    }

    private static String workloadMismatch(String run, String baseline) {
        if (run == null || baseline == null) {
            return "a run does not record its workload, so its requests cannot be paired";
        }
        return "the runs sent different requests (workload " + run + " vs " + baseline
                + "): give both the same dataset, seed, temperature, top_p, max_tokens and single-request prompts";
    }

    private static long stageSeed(long seed, String stage) {
        return seed * 0x9E3779B97F4A7C15L + stage.hashCode();
    }

    private static StageComparison compareStage(StageSamples run, StageSamples base, double tolerance, long seed) {
        Pairs pairs = Pairs.of(run, base);
        if (pairs.size() < MIN_PAIRS) {
            return new StageComparison(run.name(), pairs.size(), null, null, null, null);
        }
        Intervals intervals = pairs.bootstrap(seed);
        return new StageComparison(
                run.name(),
                pairs.size(),
                intervals.throughput(),
                intervals.tpotP50(),
                intervals.ttftP50(),
                verdict(intervals.throughput(), tolerance));
    }

    private static Verdict verdict(Interval throughput, double tolerance) {
        if (throughput == null) {
            return null;
        }
        if (throughput.low() > 1 && throughput.estimate() >= 1 + tolerance) {
            return Verdict.FASTER;
        }
        if (throughput.high() < 1 && throughput.estimate() <= 1 - tolerance) {
            return Verdict.SLOWER;
        }
        return Verdict.NO_SIGNIFICANT_DIFFERENCE;
    }

    private static QualityAgreement quality(List<QualityOutput> run, List<QualityOutput> base) {
        if (run.isEmpty() || base.isEmpty()) {
            return null;
        }
        Map<Integer, QualityOutput> byPrompt = new HashMap<>();
        base.forEach(output -> byPrompt.putIfAbsent(output.prompt(), output));
        int prompts = 0;
        int exact = 0;
        long sharedTokens = 0;
        double agreement = 0;
        for (QualityOutput output : run) {
            QualityOutput other = byPrompt.remove(output.prompt());
            if (other == null) {
                continue;
            }
            List<String> a = output.tokens();
            List<String> b = other.tokens();
            int shared = sharedPrefix(a, b);
            int longer = Math.max(a.size(), b.size());
            prompts++;
            exact += a.equals(b) ? 1 : 0;
            sharedTokens += shared;
            agreement += longer == 0 ? 1 : (double) shared / longer;
        }
        if (prompts == 0) {
            return null;
        }
        return new QualityAgreement(
                prompts, (double) exact / prompts, (double) sharedTokens / prompts, agreement / prompts);
    }

    private static int sharedPrefix(List<String> a, List<String> b) {
        int limit = Math.min(a.size(), b.size());
        int i = 0;
        while (i < limit && a.get(i).equals(b.get(i))) {
            i++;
        }
        return i;
    }

    /** The three statistics' intervals from one set of resamples; each null when undefined. */
    private record Intervals(Interval throughput, Interval tpotP50, Interval ttftP50) {}

    /**
     * The paired requests of one stage as primitive columns, and the bootstrap over them: each resample draws a
     * multiplicity per pair, so sums are weighted sums and medians are weighted walks over a presorted order.
     */
    private static final class Pairs {
        private final int size;
        private final double[] runTokens;
        private final double[] runE2e;
        private final double[] baseTokens;
        private final double[] baseE2e;
        private final WeightedMedian runTpot;
        private final WeightedMedian baseTpot;
        private final WeightedMedian runTtft;
        private final WeightedMedian baseTtft;

        private Pairs(int size) {
            this.size = size;
            runTokens = new double[size];
            runE2e = new double[size];
            baseTokens = new double[size];
            baseE2e = new double[size];
            runTpot = new WeightedMedian(size);
            baseTpot = new WeightedMedian(size);
            runTtft = new WeightedMedian(size);
            baseTtft = new WeightedMedian(size);
        }

        static Pairs of(StageSamples run, StageSamples base) {
            Map<Integer, Integer> basePosition = new HashMap<>();
            for (int k = 0; k < base.size(); k++) {
                basePosition.putIfAbsent(base.index()[k], k);
            }
            int[] runAt = new int[run.size()];
            int[] baseAt = new int[run.size()];
            int n = 0;
            for (int k = 0; k < run.size(); k++) {
                Integer other = basePosition.remove(run.index()[k]);
                if (other != null) {
                    runAt[n] = k;
                    baseAt[n] = other;
                    n++;
                }
            }
            Pairs pairs = new Pairs(n);
            for (int j = 0; j < n; j++) {
                int r = runAt[j];
                int b = baseAt[j];
                pairs.runTokens[j] = run.outputTokens()[r];
                pairs.runE2e[j] = run.e2eMillis()[r];
                pairs.baseTokens[j] = base.outputTokens()[b];
                pairs.baseE2e[j] = base.e2eMillis()[b];
                boolean tpotDefined = run.outputTokens()[r] > 1 && base.outputTokens()[b] > 1;
                pairs.runTpot.set(j, run.tpotMillis()[r], tpotDefined);
                pairs.baseTpot.set(j, base.tpotMillis()[b], tpotDefined);
                pairs.runTtft.set(j, run.ttftMillis()[r], true);
                pairs.baseTtft.set(j, base.ttftMillis()[b], true);
            }
            return pairs;
        }

        int size() {
            return size;
        }

        /** The intervals of all three statistics, from the same resampled pairs. */
        Intervals bootstrap(long seed) {
            for (WeightedMedian median : List.of(runTpot, baseTpot, runTtft, baseTtft)) {
                median.sort();
            }
            int[] weights = new int[size];
            Arrays.fill(weights, 1);
            double throughput = throughputSpeedup(weights);
            double tpot = ratio(baseTpot.median(weights), runTpot.median(weights));
            double ttft = ratio(baseTtft.median(weights), runTtft.median(weights));
            double[] throughputs = new double[RESAMPLES];
            double[] tpots = new double[RESAMPLES];
            double[] ttfts = new double[RESAMPLES];
            SplittableRandom random = new SplittableRandom(seed);
            for (int r = 0; r < RESAMPLES; r++) {
                Arrays.fill(weights, 0);
                for (int k = 0; k < size; k++) {
                    weights[random.nextInt(size)]++;
                }
                throughputs[r] = throughputSpeedup(weights);
                tpots[r] = ratio(baseTpot.median(weights), runTpot.median(weights));
                ttfts[r] = ratio(baseTtft.median(weights), runTtft.median(weights));
            }
            return new Intervals(
                    interval(throughput, throughputs),
                    runTpot.defined() < MIN_PAIRS ? null : interval(tpot, tpots),
                    interval(ttft, ttfts));
        }

        private double throughputSpeedup(int[] weights) {
            double runTok = 0;
            double runMs = 0;
            double baseTok = 0;
            double baseMs = 0;
            for (int j = 0; j < size; j++) {
                int w = weights[j];
                if (w != 0) {
                    runTok += w * runTokens[j];
                    runMs += w * runE2e[j];
                    baseTok += w * baseTokens[j];
                    baseMs += w * baseE2e[j];
                }
            }
            return ratio(ratio(runTok, runMs), ratio(baseTok, baseMs));
        }

        private static double ratio(double numerator, double denominator) {
            return denominator > 0 && Double.isFinite(numerator) ? numerator / denominator : Double.NaN;
        }

        /** Null when the statistic is undefined on all pairs or on any resample (a zero denominator). */
        private static Interval interval(double estimate, double[] resampled) {
            if (!Double.isFinite(estimate)) {
                return null;
            }
            for (double value : resampled) {
                if (!Double.isFinite(value)) {
                    return null;
                }
            }
            Arrays.sort(resampled);
            return new Interval(estimate, quantile(resampled, LOWER_QUANTILE), quantile(resampled, UPPER_QUANTILE));
        }

        private static double quantile(double[] sorted, double q) {
            double position = q * (sorted.length - 1);
            int below = (int) Math.floor(position);
            int above = Math.min(below + 1, sorted.length - 1);
            return sorted[below] + (position - below) * (sorted[above] - sorted[below]);
        }
    }
}
