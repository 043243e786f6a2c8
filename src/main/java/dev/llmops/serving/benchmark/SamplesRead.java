package dev.llmops.serving.benchmark;

import dev.llmops.serving.runner.SampleSet;

/** A run's per-request samples as read from its log or its ConfigMap, or why there are none. */
public record SamplesRead(SampleSet samples, String problem) {

    public static SamplesRead of(SampleSet samples) {
        return new SamplesRead(samples, null);
    }

    public static SamplesRead missing(String problem) {
        return new SamplesRead(null, problem);
    }

    public boolean present() {
        return samples != null;
    }
}
