package dev.llmops.serving.runner.workload;

import dev.llmops.serving.runner.transport.CompletionRequest;
import dev.llmops.serving.runner.transport.Exchange;
import java.util.List;
import java.util.Map;

/**
 * One measured request as the dataset defines it: what is asked and how many tokens may come back.
 *
 * @param systemPrompt the shared system prompt of a shared-prefix group, else null
 * @param history a session's earlier turns, oldest first; empty outside sessions
 * @param prompt the user's prompt
 * @param maxTokens max_tokens of the request
 * @param index its position in the stage's request sequence: the same request in two runs of one workload
 * @param turn its turn in a session, from 1; 0 outside sessions
 * @param headers extra HTTP headers: a session's sticky-routing header
 */
public record DatasetRequest(
        String systemPrompt,
        List<Exchange> history,
        String prompt,
        int maxTokens,
        long index,
        int turn,
        Map<String, String> headers) {

    /** A request outside any session. */
    public DatasetRequest(String systemPrompt, String prompt, int maxTokens, long index) {
        this(systemPrompt, List.of(), prompt, maxTokens, index, 0, Map.of());
    }

    /** {@code template} asking this request. */
    public CompletionRequest applyTo(CompletionRequest template) {
        return template.toBuilder()
                .systemPrompt(systemPrompt)
                .history(history)
                .prompt(prompt)
                .maxTokens(maxTokens)
                .headers(headers)
                .build();
    }
}
