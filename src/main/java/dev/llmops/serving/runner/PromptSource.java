package dev.llmops.serving.runner;

import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Prompts for the measured requests and, separately, for warm-up: warm-up prompts start with a tag no measured
 * prompt has, so a prefix cache warmed by them cannot flatter the measured TTFT.
 */
final class PromptSource {

    private static final String[] WORDS = ("time person year way day thing man world life hand part child eye woman "
                    + "place work week case point government company number group problem fact river mountain engine "
                    + "garden window letter market picture question answer system program theory signal memory network "
                    + "music paper winter summer forest ocean island bridge castle rocket planet silver copper glass "
                    + "stone cloud storm light shadow energy matter motion pressure balance measure pattern surface")
            .split(" ");

    private final Dataset dataset;
    private final List<String> prompts;
    private final int inputLength;
    private final Random random;
    private final String runTag;
    private final AtomicLong measured = new AtomicLong();
    private final AtomicLong warmups = new AtomicLong();

    PromptSource(BenchmarkConfig config) {
        this.dataset = config.dataset();
        this.prompts = config.prompts();
        this.inputLength = config.inputLength() == null ? 0 : config.inputLength();
        this.random = new Random(config.seed());
        this.runTag = Long.toHexString(new Random(config.seed() ^ System.nanoTime()).nextLong());
    }

    /** The next measured prompt: the configured prompts in rotation, or a fresh random one. */
    String next() {
        long index = measured.getAndIncrement();
        if (dataset == Dataset.PROMPTS) {
            return prompts.get((int) (index % prompts.size()));
        }
        StringBuilder prompt = new StringBuilder(inputLength * 8);
        synchronized (random) {
            for (int i = 0; i < inputLength; i++) {
                prompt.append(i == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
            }
        }
        return prompt.toString();
    }

    /** A warm-up (or readiness check) prompt that shares no prefix with any measured prompt. */
    String warmup() {
        return "[warm-up " + runTag + "-" + warmups.incrementAndGet()
                + "] Write a short story about a lighthouse keeper and a storm.";
    }
}
