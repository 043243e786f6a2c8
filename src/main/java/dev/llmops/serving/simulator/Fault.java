package dev.llmops.serving.simulator;

/** Ways the simulated server misbehaves on purpose; switchable while it runs. */
public enum Fault {
    /** Behaves. */
    NONE,
    /** Lists its model and answers /health, but every generation fails with HTTP 500: the classic half-ready server. */
    HALF_READY,
    /** Accepts generation requests and never answers them. */
    HANG,
    /** Ends every stream halfway through, without finish_reason and without [DONE]. */
    DISCONNECT,
    /**
     * A draft model that fools the verifier: with speculative decoding every step accepts the most tokens a step can
     * (faster), and every answer differs from the healthy one after its first two tokens.
     */
    BROKEN_DRAFT
}
