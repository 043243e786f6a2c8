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
    BROKEN_DRAFT,
    /**
     * Hostile: a generation answers 200 as an event stream and sends one {@code data:} line that never ends. Other
     * endpoints behave, so a probe gets as far as the generation.
     */
    ENDLESS_LINE,
    /** Hostile: a generation answers 200 as an event stream and sends {@code data:} lines of one endless event. */
    ENDLESS_EVENT,
    /**
     * Hostile: {@code /health}, {@code /health_generate}, {@code /v1/models} and {@code /get_server_info} answer 200
     * with a body that never ends, as does a non-streamed generation; a streamed one sends token chunks without end,
     * far past max_tokens.
     */
    HUGE_BODY,
    /**
     * Hostile: every endpoint but {@code /metrics} answers 200 and then sends one byte every
     * {@link HostileAnswers#DRIP_INTERVAL}, never finishing.
     */
    SLOW_DRIP;

    /** Whether this fault attacks the client rather than just failing: its answers never end. */
    public boolean hostile() {
        return this == ENDLESS_LINE || this == ENDLESS_EVENT || this == HUGE_BODY || this == SLOW_DRIP;
    }
}
