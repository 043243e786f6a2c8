package dev.llmops.serving.runner.workload;

import java.util.Locale;

/** Where the measured requests' prompts and output lengths come from; see {@link PromptSource} for each kind. */
public enum Dataset {
    /** The configured prompts, in rotation. */
    PROMPTS,
    /**
     * Fresh random word sequences, so no two requests share a prefix: of the given lengths, or else of lengths drawn
     * from {@link RandomLengths#DEFAULT}.
     */
    RANDOM,
    /** The first user turn of conversations from a ShareGPT-format file, with its reply's length. */
    SHAREGPT,
    /** Groups of requests sharing a system prompt, each with a unique question: the prefix-cache workload. */
    SHARED_PREFIX,
    /**
     * A Mooncake-format trace replayed at its timestamps, prompts synthesised so that equal hash ids are equal blocks.
     */
    TRACE,
    /**
     * Conversations of several turns, one per closed-loop stream at a time, each turn's request carrying the whole
     * history before it.
     */
    SESSIONS;

    /** The name {@code --dataset} and the JSON report use: {@code prompts}, {@code shared-prefix}, ... */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
