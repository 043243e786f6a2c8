package dev.llmops.serving.runner.workload;

import dev.llmops.serving.runner.transport.CompletionRequest;

/**
 * One measured request as the dataset defines it: what is asked and how many tokens may come back.
 *
 * @param systemPrompt the shared system prompt of a shared-prefix group, else null
 * @param prompt the user's prompt
 * @param maxTokens max_tokens of the request
 * @param index its position in the stage's request sequence: the same request in two runs of one workload
 */
public record DatasetRequest(String systemPrompt, String prompt, int maxTokens, long index) {

    /** {@code template} asking this request. */
    public CompletionRequest applyTo(CompletionRequest template) {
        return template.toBuilder()
                .systemPrompt(systemPrompt)
                .prompt(prompt)
                .maxTokens(maxTokens)
                .build();
    }
}
