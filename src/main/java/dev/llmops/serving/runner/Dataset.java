package dev.llmops.serving.runner;

/** Where the measured requests' prompts come from. */
public enum Dataset {
    /** The configured prompts, in rotation. */
    PROMPTS,
    /** Fresh random word sequences of a fixed length, so no two requests share a prefix. */
    RANDOM
}
