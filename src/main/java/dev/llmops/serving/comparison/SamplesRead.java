package dev.llmops.serving.comparison;

import dev.llmops.serving.api.contract.SampleSet;

/**
 * A run's per-request samples as read from its log or its ConfigMap, or why there are none: {@code rejected} when
 * samples were there but broke the format or its bounds, which a real runner never does.
 */
public record SamplesRead(SampleSet samples, String problem, boolean rejected) {

    public static SamplesRead of(SampleSet samples) {
        return new SamplesRead(samples, null, false);
    }

    public static SamplesRead missing(String problem) {
        return new SamplesRead(null, problem, false);
    }

    public static SamplesRead rejected(String problem) {
        return new SamplesRead(null, problem, true);
    }

    public boolean present() {
        return samples != null;
    }
}
