package dev.llmops.serving.simulator;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * How many tokens a simulated speculative-decoding step (one verify call) delivers: probabilities for 1, 2, ..., N
 * accepted tokens (the bonus token included), drawn anew for every step, so acceptance varies as it does on a real
 * server instead of being a constant.
 */
public final class SpeculativeAcceptance {

    public static final int MAX_TOKENS_PER_STEP = 64;
    private static final double SUM_TOLERANCE = 1e-6;

    private final double[] probabilities;
    private final double[] cumulative;

    private SpeculativeAcceptance(double[] probabilities) {
        this.probabilities = probabilities;
        this.cumulative = new double[probabilities.length];
        double total = 0;
        for (int i = 0; i < probabilities.length; i++) {
            total += probabilities[i];
            cumulative[i] = total;
        }
    }

    /**
     * Probabilities of 1, 2, ... accepted tokens per step, each between 0 and 1, adding up to 1.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static SpeculativeAcceptance of(List<Double> probabilities) {
        if (probabilities.isEmpty() || probabilities.size() > MAX_TOKENS_PER_STEP) {
            throw new IllegalArgumentException("needs between 1 and " + MAX_TOKENS_PER_STEP
                    + " probabilities (for 1, 2, ... accepted tokens), got " + probabilities.size());
        }
        double[] values = new double[probabilities.size()];
        double sum = 0;
        for (int i = 0; i < values.length; i++) {
            Double value = probabilities.get(i);
            if (value == null || !(value >= 0 && value <= 1)) {
                throw new IllegalArgumentException(
                        "the probability of " + (i + 1) + " accepted tokens must be between 0 and 1, was " + value);
            }
            values[i] = value;
            sum += value;
        }
        if (Math.abs(sum - 1) > SUM_TOLERANCE) {
            throw new IllegalArgumentException("the probabilities must add up to 1, they add up to " + sum);
        }
        return new SpeculativeAcceptance(values);
    }

    /** Always {@code tokens} accepted tokens per step. */
    public static SpeculativeAcceptance exactly(int tokens) {
        if (tokens < 1 || tokens > MAX_TOKENS_PER_STEP) {
            throw new IllegalArgumentException(
                    "tokens per step must be between 1 and " + MAX_TOKENS_PER_STEP + ", was " + tokens);
        }
        double[] values = new double[tokens];
        values[tokens - 1] = 1;
        return new SpeculativeAcceptance(values);
    }

    /** The expected tokens per step. */
    public double mean() {
        double mean = 0;
        for (int i = 0; i < probabilities.length; i++) {
            mean += (i + 1) * probabilities[i];
        }
        return mean;
    }

    /** The most tokens one step can deliver. */
    public int maxTokensPerStep() {
        return probabilities.length;
    }

    /** One step's accepted tokens. */
    int draw(SplittableRandom random) {
        double u = random.nextDouble() * cumulative[cumulative.length - 1];
        for (int i = 0; i < cumulative.length; i++) {
            if (u < cumulative[i]) {
                return i + 1;
            }
        }
        return cumulative.length;
    }

    @Override
    public String toString() {
        return "SpeculativeAcceptance" + Arrays.toString(probabilities);
    }
}
