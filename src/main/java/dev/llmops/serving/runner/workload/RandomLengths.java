package dev.llmops.serving.runner.workload;

import java.util.Random;

/**
 * The lengths the random dataset draws when none are given: a workload whose every request has its own prompt of
 * about a thousand tokens, so prefill costs what it costs on real traffic and no prefix cache can hide it. Each length
 * is uniform over its range, inclusive; docs/runner.md says where the ranges come from.
 *
 * @param inputMin fewest words of a prompt (about one token each)
 * @param inputMax most words of a prompt
 * @param outputMin least max_tokens of a request, before the cap of {@code --max-tokens}
 * @param outputMax most max_tokens of a request, before that cap
 */
public record RandomLengths(int inputMin, int inputMax, int outputMin, int outputMax) {

    public static final int DEFAULT_INPUT_MIN = 512;
    public static final int DEFAULT_INPUT_MAX = 1536;
    public static final int DEFAULT_OUTPUT_MIN = 128;
    public static final int DEFAULT_OUTPUT_MAX = 384;

    /** Input 1024 ± 50 % words, output 256 ± 50 % tokens. */
    public static final RandomLengths DEFAULT =
            new RandomLengths(DEFAULT_INPUT_MIN, DEFAULT_INPUT_MAX, DEFAULT_OUTPUT_MIN, DEFAULT_OUTPUT_MAX);

    /** A prompt's length in words, drawn from {@code random}. */
    public int input(Random random) {
        return inputMin + random.nextInt(inputMax - inputMin + 1);
    }

    /** A request's max_tokens, drawn from {@code random} and at most {@code cap}. */
    public int output(Random random, int cap) {
        return Math.min(cap, outputMin + random.nextInt(outputMax - outputMin + 1));
    }

    @Override
    public String toString() {
        return "input " + inputMin + "-" + inputMax + " words, output " + outputMin + "-" + outputMax + " tokens";
    }
}
