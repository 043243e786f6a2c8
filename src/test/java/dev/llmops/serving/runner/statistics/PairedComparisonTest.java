package dev.llmops.serving.runner.statistics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.llmops.serving.api.contract.QualityOutput;
import dev.llmops.serving.api.contract.SampleSet;
import dev.llmops.serving.api.contract.StageSamples;
import dev.llmops.serving.runner.statistics.PairedComparison.Interval;
import dev.llmops.serving.runner.statistics.PairedComparison.QualityAgreement;
import dev.llmops.serving.runner.statistics.PairedComparison.Result;
import dev.llmops.serving.runner.statistics.PairedComparison.StageComparison;
import dev.llmops.serving.runner.statistics.PairedComparison.Verdict;
import java.util.List;
import java.util.Random;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;

class PairedComparisonTest {

    private static final String WORKLOAD = "0123456789abcdef";

    @Test
    void intervalsOfTwoRunsFromOneDistributionCoverOneAtTheirNominalRate() {
        int trials = 200;
        int throughputCovers = 0;
        int tpotCovers = 0;
        int ttftCovers = 0;
        int noDifference = 0;
        for (int trial = 0; trial < trials; trial++) {
            Random random = new Random(trial);
            StageSamples[] stages = pairedStages(random, 200, 1.0, i -> true);
            StageComparison stage = onlyStage(compare(stages[0], stages[1], 0, trial));
            throughputCovers += covers(stage.throughputSpeedup()) ? 1 : 0;
            tpotCovers += covers(stage.tpotP50Speedup()) ? 1 : 0;
            ttftCovers += covers(stage.ttftP50Speedup()) ? 1 : 0;
            noDifference += stage.verdict() == Verdict.NO_SIGNIFICANT_DIFFERENCE ? 1 : 0;
        }
        assertThat(throughputCovers).isBetween(180, 198);
        assertThat(tpotCovers).isBetween(180, 198);
        assertThat(ttftCovers).isBetween(180, 198);
        assertThat(noDifference).isEqualTo(throughputCovers);
    }

    @Test
    void aTwentyPercentSlowdownIsSlower() {
        StageSamples[] stages = pairedStages(new Random(7), 300, 1.25, i -> true);

        StageComparison stage = onlyStage(compare(stages[0], stages[1], 0.05, 1));

        assertThat(stage.verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(stage.throughputSpeedup().estimate()).isCloseTo(0.8, within(0.03));
        assertThat(stage.throughputSpeedup().high()).isLessThan(1);
        assertThat(stage.tpotP50Speedup().estimate()).isCloseTo(0.8, within(0.05));
        for (Interval interval : List.of(stage.throughputSpeedup(), stage.tpotP50Speedup(), stage.ttftP50Speedup())) {
            assertThat(interval.estimate()).isBetween(interval.low(), interval.high());
            assertThat(interval.high()).isLessThan(1);
        }
        assertThat(stage.pairs()).isEqualTo(300);
    }

    @Test
    void theMirroredSlowdownIsFaster() {
        StageSamples[] stages = pairedStages(new Random(7), 300, 1.25, i -> true);

        StageComparison stage = onlyStage(compare(stages[1], stages[0], 0.05, 1));

        assertThat(stage.verdict()).isEqualTo(Verdict.FASTER);
        assertThat(stage.throughputSpeedup().low()).isGreaterThan(1);
    }

    @Test
    void aOnePercentChangeIsWithinTheTolerance() {
        StageSamples[] stages = pairedStages(new Random(11), StageSamples.MAX_REQUESTS, 0.99, i -> true);

        StageComparison withTolerance = onlyStage(compare(stages[0], stages[1], 0.05, 3));
        StageComparison withoutTolerance = onlyStage(compare(stages[0], stages[1], 0, 3));

        assertThat(withTolerance.verdict()).isEqualTo(Verdict.NO_SIGNIFICANT_DIFFERENCE);
        assertThat(withTolerance.throughputSpeedup().estimate()).isCloseTo(1.01, within(0.01));
        assertThat(withoutTolerance.throughputSpeedup().low()).isGreaterThan(1);
        assertThat(withoutTolerance.verdict()).isEqualTo(Verdict.FASTER);
    }

    @Test
    void theSameSeedGivesTheSameFiguresAndAnotherSeedOthers() {
        StageSamples[] stages = pairedStages(new Random(5), 100, 1.0, i -> true);

        Result first = compare(stages[0], stages[1], 0, 42);
        Result again = compare(stages[0], stages[1], 0, 42);
        Result other = compare(stages[0], stages[1], 0, 43);

        assertThat(again).isEqualTo(first);
        assertThat(onlyStage(other).throughputSpeedup().low())
                .isNotEqualTo(onlyStage(first).throughputSpeedup().low());
        assertThat(onlyStage(other).throughputSpeedup().estimate())
                .isEqualTo(onlyStage(first).throughputSpeedup().estimate());
    }

    @Test
    void requestsArePairedByTheirIndexInTheStage() {
        StageSamples[] stages = pairedStages(new Random(3), 50, 1.0, i -> i % 5 != 0);
        StageSamples base = pairedStages(new Random(3), 50, 1.0, i -> i % 2 == 0)[1];

        StageComparison stage = onlyStage(compare(stages[0], base, 0, 1));

        assertThat(stage.pairs()).isEqualTo(20);
    }

    @Test
    void theStatisticIsTheRatioOverAllPairs() {
        StageSamples run = stage(
                "c1",
                new int[] {0, 1, 2, 3, 4},
                new int[] {10, 10, 10, 10, 10},
                new double[] {10, 20, 30, 40, 50},
                new double[] {1, 2, 3, 4, 5},
                new double[] {100, 100, 100, 100, 50});
        StageSamples base = stage(
                "c1",
                new int[] {4, 3, 2, 1, 0},
                new int[] {10, 10, 10, 10, 20},
                new double[] {20, 40, 60, 80, 100},
                new double[] {2, 2, 2, 2, 2},
                new double[] {200, 200, 200, 200, 200});

        StageComparison stage = onlyStage(compare(run, base, 0, 1));

        double runTokPerMs = 50.0 / 450;
        double baseTokPerMs = 60.0 / 1000;
        assertThat(stage.throughputSpeedup().estimate()).isCloseTo(runTokPerMs / baseTokPerMs, within(1e-12));
        assertThat(stage.ttftP50Speedup().estimate()).isEqualTo(60.0 / 30);
        assertThat(stage.tpotP50Speedup().estimate()).isEqualTo(2.0 / 3);
        assertThat(stage.throughputSpeedup().low())
                .isLessThanOrEqualTo(stage.throughputSpeedup().high());
    }

    @Test
    void oneTokenOutputsHaveNoTpotAndDoNotCount() {
        int[] index = {0, 1, 2, 3, 4, 5};
        int[] oneToken = {1, 1, 1, 1, 1, 1};
        double[] ms = {10, 11, 12, 13, 14, 15};
        double[] zero = new double[6];
        StageSamples run = stage("c1", index, oneToken, ms, zero, ms);

        StageComparison stage = onlyStage(compare(run, run, 0, 1));

        assertThat(stage.tpotP50Speedup()).isNull();
        assertThat(stage.ttftP50Speedup().estimate()).isEqualTo(1.0);
        assertThat(stage.verdict()).isEqualTo(Verdict.NO_SIGNIFICANT_DIFFERENCE);
    }

    @Test
    void fewerThanMinPairsGiveNoIntervalAndSaySo() {
        StageSamples[] stages = pairedStages(new Random(1), PairedComparison.MIN_PAIRS - 1, 1.0, i -> true);

        Result result = compare(stages[0], stages[1], 0, 1);

        StageComparison stage = onlyStage(result);
        assertThat(stage.pairs()).isEqualTo(PairedComparison.MIN_PAIRS - 1);
        assertThat(stage.throughputSpeedup()).isNull();
        assertThat(stage.tpotP50Speedup()).isNull();
        assertThat(stage.ttftP50Speedup()).isNull();
        assertThat(stage.verdict()).isNull();
        assertThat(result.message()).contains("stage c4", "fewer than " + PairedComparison.MIN_PAIRS);
    }

    @Test
    void differentWorkloadsGiveNoStagesNoQualityAndSayWhatToAlign() {
        StageSamples[] stages = pairedStages(new Random(1), 50, 1.0, i -> true);
        List<QualityOutput> quality = List.of(new QualityOutput(0, List.of("a"), "stop"));
        SampleSet run = new SampleSet(1, "aaaaaaaaaaaaaaaa", List.of(stages[0]), quality);
        SampleSet base = new SampleSet(1, "bbbbbbbbbbbbbbbb", List.of(stages[1]), quality);

        Result result = PairedComparison.compare(run, base, 0, 1);

        assertThat(result.sameWorkload()).isFalse();
        assertThat(result.stages()).isEmpty();
        assertThat(result.quality()).isNull();
        assertThat(result.message()).contains("different requests", "dataset", "seed", "aaaaaaaaaaaaaaaa");
    }

    @Test
    void stagesOfOnlyOneRunAreLeftOut() {
        StageSamples[] stages = pairedStages(new Random(1), 50, 1.0, i -> true);
        SampleSet run = new SampleSet(1, WORKLOAD, List.of(stages[0]), List.of());
        SampleSet base = new SampleSet(1, WORKLOAD, List.of(rename(stages[1], "c8")), List.of());

        Result result = PairedComparison.compare(run, base, 0, 1);

        assertThat(result.sameWorkload()).isTrue();
        assertThat(result.stages()).isEmpty();
        assertThat(result.message()).contains("no stage in common");
    }

    @Test
    void qualityAgreementCountsExactMatchesAndSharedPrefixes() {
        List<QualityOutput> run = List.of(
                new QualityOutput(0, List.of("The", " cat", " sat"), "stop"),
                new QualityOutput(1, List.of("A", " dog", " ran", " far"), "length"),
                new QualityOutput(2, List.of(), "stop"),
                new QualityOutput(3, List.of("x", "y"), "stop"),
                new QualityOutput(9, List.of("only", " here"), "stop"));
        List<QualityOutput> base = List.of(
                new QualityOutput(3, List.of("z", "y"), "stop"),
                new QualityOutput(2, List.of(), "stop"),
                new QualityOutput(1, List.of("A", " dog", " sat"), "stop"),
                new QualityOutput(0, List.of("The", " cat", " sat"), "stop"));

        QualityAgreement quality = PairedComparison.compare(
                        new SampleSet(1, WORKLOAD, List.of(), run), new SampleSet(1, WORKLOAD, List.of(), base), 0, 1)
                .quality();

        assertThat(quality.prompts()).isEqualTo(4);
        assertThat(quality.exactMatchShare()).isEqualTo(0.5);
        assertThat(quality.meanSharedPrefixTokens()).isEqualTo((3 + 2 + 0 + 0) / 4.0);
        assertThat(quality.prefixAgreement()).isCloseTo((1 + 2 / 4.0 + 1 + 0) / 4, within(1e-12));
    }

    @Test
    void qualityIsNullWhenEitherRunHasNoOutputs() {
        List<QualityOutput> outputs = List.of(new QualityOutput(0, List.of("a"), "stop"));

        Result result = PairedComparison.compare(
                new SampleSet(1, WORKLOAD, List.of(), outputs), new SampleSet(1, WORKLOAD, List.of(), List.of()), 0, 1);

        assertThat(result.quality()).isNull();
    }

    @Test
    void aToleranceOutsideZeroToOneIsRefused() {
        SampleSet samples = new SampleSet(1, WORKLOAD, List.of(), List.of());

        assertThatThrownBy(() -> PairedComparison.compare(samples, samples, 1.0, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tolerance");
        assertThatThrownBy(() -> PairedComparison.compare(samples, samples, -0.1, 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static boolean covers(Interval interval) {
        return interval.low() <= 1 && interval.high() >= 1;
    }

    private static Result compare(StageSamples run, StageSamples base, double tolerance, long seed) {
        return PairedComparison.compare(
                new SampleSet(1, WORKLOAD, List.of(run), List.of()),
                new SampleSet(1, WORKLOAD, List.of(base), List.of()),
                tolerance,
                seed);
    }

    private static StageComparison onlyStage(Result result) {
        assertThat(result.sameWorkload()).isTrue();
        assertThat(result.stages()).hasSize(1);
        return result.stages().get(0);
    }

    /**
     * A stage of two runs on one workload: each request has its own length and difficulty (shared by both runs), and
     * each run adds its own noise; the first run's latencies are {@code slowdown} times the second's.
     */
    private static StageSamples[] pairedStages(Random random, int requests, double slowdown, IntPredicate kept) {
        double[][] run = new double[4][requests];
        double[][] base = new double[4][requests];
        int[] tokens = new int[requests];
        for (int i = 0; i < requests; i++) {
            tokens[i] = 20 + random.nextInt(300);
            double difficulty = Math.exp(0.3 * random.nextGaussian());
            fill(run, i, tokens[i], difficulty * slowdown, random);
            fill(base, i, tokens[i], difficulty, random);
        }
        int[] index = java.util.stream.IntStream.range(0, requests).filter(kept).toArray();
        return new StageSamples[] {
            stage("c" + requests, index, pick(tokens, index), run, index),
            stage("c" + requests, index, pick(tokens, index), base, index)
        };
    }

    private static void fill(double[][] columns, int i, int tokens, double scale, Random random) {
        double ttft = 40 * scale * Math.exp(0.25 * random.nextGaussian());
        double tpot = 12 * scale * Math.exp(0.15 * random.nextGaussian());
        columns[0][i] = ttft;
        columns[1][i] = tpot;
        columns[2][i] = ttft + tpot * (tokens - 1);
    }

    private static StageSamples stage(String name, int[] index, int[] tokens, double[][] columns, int[] kept) {
        return stage(name, index, tokens, pick(columns[0], kept), pick(columns[1], kept), pick(columns[2], kept));
    }

    private static StageSamples stage(
            String name, int[] index, int[] tokens, double[] ttft, double[] tpot, double[] e2e) {
        return new StageSamples(name, index, tokens, ttft, tpot, e2e);
    }

    private static StageSamples rename(StageSamples stage, String name) {
        return new StageSamples(
                name, stage.index(), stage.outputTokens(), stage.ttftMillis(), stage.tpotMillis(), stage.e2eMillis());
    }

    private static int[] pick(int[] values, int[] at) {
        return java.util.Arrays.stream(at).map(i -> values[i]).toArray();
    }

    private static double[] pick(double[] values, int[] at) {
        return java.util.Arrays.stream(at).mapToDouble(i -> values[i]).toArray();
    }
}
