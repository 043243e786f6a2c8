package dev.llmops.serving.runner;

/**
 * One measured request as the dataset defines it: what is asked and how many tokens may come back.
 *
 * @param systemPrompt the shared system prompt of a shared-prefix group, else null
 * @param prompt the user's prompt
 * @param maxTokens max_tokens of the request
 */
record DatasetRequest(String systemPrompt, String prompt, int maxTokens) {

    /** {@code template} asking this request. */
    CompletionRequest applyTo(CompletionRequest template) {
        return template.toBuilder()
                .systemPrompt(systemPrompt)
                .prompt(prompt)
                .maxTokens(maxTokens)
                .build();
    }
}
