package dev.llmops.serving.runner.transport;

import java.util.Objects;

/**
 * One earlier turn of a conversation, sent again with every later turn: what the user asked and what the assistant
 * answered.
 */
public record Exchange(String user, String assistant) {

    public Exchange {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(assistant, "assistant");
    }
}
