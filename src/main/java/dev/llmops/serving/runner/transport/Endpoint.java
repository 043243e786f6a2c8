package dev.llmops.serving.runner.transport;

/** The two OpenAI-compatible generation endpoints the client can drive. */
public enum Endpoint {
    CHAT("/v1/chat/completions"),
    COMPLETIONS("/v1/completions");

    private final String path;

    Endpoint(String path) {
        this.path = path;
    }

    public String path() {
        return path;
    }
}
