package dev.llmops.serving.operator.modelserver;

import dev.llmops.serving.api.v1alpha1.modelserver.ReadinessSpec;
import dev.llmops.serving.runner.transport.CompletionRequest;
import dev.llmops.serving.runner.transport.EndpointResponse;
import dev.llmops.serving.runner.transport.OpenAiClient;
import dev.llmops.serving.runner.transport.RequestResult;
import dev.llmops.serving.runner.transport.ResponseLimits;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The operator's probes over the runner's non-blocking OpenAI client: one streamed chat completion, or GET /health.
 * One event loop and one GET thread, started on the first probe, are plenty for probes; both close with the bean.
 *
 * <p>The server is a tenant's image, and a probe needs a few tokens, so it reads with caps far below the runner's
 * (which fit a benchmark's 4096-token answers): {@link #PROBE_LIMITS}, and {@value #HEALTH_BODY_BYTES} bytes of a
 * /health body. Whatever a server sends, a generation probe then holds its caps' worth (headers of 8 KiB, a body of 64
 * KiB or a line and an event of 16 KiB each), the socket read being parsed (at most 64 KiB), the chunk being parsed
 * (briefly a few times its size) and 16 bytes for each of at most 2 × {@value ReadinessSpec#MAX_PROBE_TOKENS} + 64
 * chunks, and no text or token pieces: under 0.5 MiB. A /health check holds its small body and the headers the JDK
 * client reads, up to its {@code jdk.http.maxHeaderSize} (384 KiB by default): under 1 MiB. {@link InferenceProbes}
 * bounds how many run at once.
 */
@ApplicationScoped
public class RunnerInferenceClient implements InferenceClient {

    /** Headers 8 KiB, a whole answer 64 KiB, a stream's line and event 16 KiB each; a real probe's answer is ~1 KiB. */
    static final ResponseLimits PROBE_LIMITS = new ResponseLimits(8 * 1024, 64 * 1024, 16 * 1024, 16 * 1024);

    /** SGLang answers /health with an empty body. */
    static final int HEALTH_BODY_BYTES = 4 * 1024;

    private final OpenAiClient client = OpenAiClient.create(1, Duration.ofSeconds(5));

    @Override
    public CompletableFuture<Generation> generate(
            URI baseUrl, String model, String prompt, int maxTokens, Duration timeout, String apiKey) {
        CompletionRequest request = CompletionRequest.builder(baseUrl, model)
                .prompt(prompt)
                .maxTokens(Math.min(maxTokens, ReadinessSpec.MAX_PROBE_TOKENS))
                .timeout(timeout)
                .apiKey(apiKey)
                .limits(PROBE_LIMITS)
                .build();
        return client.complete(request).thenApply(RunnerInferenceClient::generation);
    }

    @Override
    public CompletableFuture<Boolean> healthy(URI baseUrl, Duration timeout) {
        return client.get(baseUrl, "/health", null, timeout, HEALTH_BODY_BYTES).thenApply(EndpointResponse::isOk);
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
