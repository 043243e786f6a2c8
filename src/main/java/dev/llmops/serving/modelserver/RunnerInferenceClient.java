package dev.llmops.serving.modelserver;

import dev.llmops.serving.runner.CompletionRequest;
import dev.llmops.serving.runner.EndpointResponse;
import dev.llmops.serving.runner.OpenAiClient;
import dev.llmops.serving.runner.RequestResult;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The operator's probes over the runner's non-blocking OpenAI client: one streamed chat completion, or GET /health. One
 * event loop and one GET thread, started on the first probe, are plenty for probes; both close with the bean.
 */
@ApplicationScoped
public class RunnerInferenceClient implements InferenceClient {

    private final OpenAiClient client = OpenAiClient.create(1, Duration.ofSeconds(5));

    @Override
    public CompletableFuture<Generation> generate(
            URI baseUrl, String model, String prompt, int maxTokens, Duration timeout, String apiKey) {
        CompletionRequest request = CompletionRequest.builder(baseUrl, model)
                .prompt(prompt)
                .maxTokens(maxTokens)
                .timeout(timeout)
                .apiKey(apiKey)
                .build();
        return client.complete(request).thenApply(RunnerInferenceClient::generation);
    }

    @Override
    public CompletableFuture<Boolean> healthy(URI baseUrl, Duration timeout) {
        return client.get(baseUrl, "/health", null, timeout).thenApply(EndpointResponse::isOk);
    }

    @PreDestroy
    void close() {
        client.close();
    }

    static Generation generation(RequestResult result) {
        boolean tokens = result.succeeded() && result.outputTokens() > 0;
        String error = tokens
                ? null
                : result.succeeded()
                        ? "the completion returned no tokens"
                        : result.failureClass() + (result.errorMessage() == null ? "" : ": " + result.errorMessage());
        return new Generation(tokens, result.outputTokens(), result.latency(), error);
    }
}
