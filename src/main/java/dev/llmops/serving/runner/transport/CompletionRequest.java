package dev.llmops.serving.runner.transport;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One generation request against an OpenAI-compatible server: where to send it, what to ask and how long to wait.
 *
 * @param baseUrl server root, e.g. {@code http://10.0.0.5:30000}; the endpoint path is appended
 * @param systemPrompt null for none; sent as a system message on the chat endpoint, and before the prompt (followed by
 *     a blank line) on the completions endpoint
 * @param history the conversation's earlier turns, oldest first: user and assistant messages on the chat endpoint,
 *     their texts separated by blank lines before the prompt on the completions endpoint
 * @param temperature null leaves the server's default
 * @param topP null leaves the server's default
 * @param ignoreEos ask the server (SGLang, vLLM) to generate exactly {@code maxTokens}
 * @param stream stream the answer as server-sent events (needed for TTFT and ITL)
 * @param continuousUsage ask for usage on every chunk ({@code stream_options.continuous_usage_stats}) so each chunk's
 *     token count comes from the server; without it chunk token counts are estimated
 * @param apiKey sent as a bearer token when not null
 * @param timeout the whole request, from its submission (waiting for a connection included) to the last byte
 * @param captureText keep the generated text (up to {@value RequestResult#MAX_CAPTURED_CHARS} characters per channel)
 * @param logprobs ask for {@code logprobs} and keep the output's token pieces (see {@link RequestResult#tokenPieces})
 * @param limits how much of the answer the client may hold before failing the request
 * @param headers extra HTTP headers, such as a session's sticky-routing header
 */
public record CompletionRequest(
        URI baseUrl,
        Endpoint endpoint,
        String model,
        String systemPrompt,
        List<Exchange> history,
        String prompt,
        int maxTokens,
        Double temperature,
        Double topP,
        boolean ignoreEos,
        boolean stream,
        boolean continuousUsage,
        String apiKey,
        Duration timeout,
        boolean captureText,
        boolean logprobs,
        ResponseLimits limits,
        Map<String, String> headers) {

    public CompletionRequest {
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(prompt, "prompt");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(limits, "limits");
        history = List.copyOf(history);
        headers = Map.copyOf(headers);
        if (maxTokens < 1) {
            throw new IllegalArgumentException("maxTokens must be at least 1, was " + maxTokens);
        }
    }

    /**
     * A streaming chat completion of {@code prompt} with 16 output tokens, a 60 s timeout and the runner's
     * {@link ResponseLimits#RUNNER}; adjust with the builder.
     */
    public static Builder builder(URI baseUrl, String model) {
        return new Builder(baseUrl, model);
    }

    public static Builder builder(String baseUrl, String model) {
        return new Builder(URI.create(baseUrl), model);
    }

    public URI uri() {
        return resolve(baseUrl, endpoint.path());
    }

    /** {@code path} under {@code baseUrl}, with or without a trailing slash on the base. */
    static URI resolve(URI baseUrl, String path) {
        String base = baseUrl.toString();
        return URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + path);
    }

    public CompletionRequest withPrompt(String newPrompt) {
        return toBuilder().prompt(newPrompt).build();
    }

    public CompletionRequest withMaxTokens(int newMaxTokens) {
        return toBuilder().maxTokens(newMaxTokens).build();
    }

    /** A builder holding this request's values. */
    public Builder toBuilder() {
        return new Builder(baseUrl, model)
                        .endpoint(endpoint)
                        .systemPrompt(systemPrompt)
                        .history(history)
                        .prompt(prompt)
                        .maxTokens(maxTokens)
                        .temperature(temperature)
                        .topP(topP)
                        .ignoreEos(ignoreEos)
                        .stream(stream)
                        .continuousUsage(continuousUsage)
                        .apiKey(apiKey)
                        .timeout(timeout)
                        .captureText(captureText)
                        .logprobs(logprobs)
                        .limits(limits)
                        .headers(headers);
    }

    /** Builds a {@link CompletionRequest}; every setter is optional. */
    public static final class Builder {
        private final URI baseUrl;
        private final String model;
        private Endpoint endpoint = Endpoint.CHAT;
        private String systemPrompt;
        private List<Exchange> history = List.of();
        private String prompt = "Say hello.";
        private int maxTokens = 16;
        private Double temperature;
        private Double topP;
        private boolean ignoreEos;
        private boolean stream = true;
        private boolean continuousUsage = true;
        private String apiKey;
        private Duration timeout = Duration.ofSeconds(60);
        private boolean captureText;
        private boolean logprobs;
        private ResponseLimits limits = ResponseLimits.RUNNER;
        private Map<String, String> headers = Map.of();

        private Builder(URI baseUrl, String model) {
            this.baseUrl = baseUrl;
            this.model = model;
        }

        public Builder endpoint(Endpoint value) {
            this.endpoint = value;
            return this;
        }

        public Builder systemPrompt(String value) {
            this.systemPrompt = value;
            return this;
        }

        public Builder history(List<Exchange> value) {
            this.history = value;
            return this;
        }

        public Builder prompt(String value) {
            this.prompt = value;
            return this;
        }

        public Builder maxTokens(int value) {
            this.maxTokens = value;
            return this;
        }

        public Builder temperature(Double value) {
            this.temperature = value;
            return this;
        }

        public Builder topP(Double value) {
            this.topP = value;
            return this;
        }

        public Builder ignoreEos(boolean value) {
            this.ignoreEos = value;
            return this;
        }

        public Builder stream(boolean value) {
            this.stream = value;
            return this;
        }

        public Builder continuousUsage(boolean value) {
            this.continuousUsage = value;
            return this;
        }

        public Builder apiKey(String value) {
            this.apiKey = value;
            return this;
        }

        public Builder timeout(Duration value) {
            this.timeout = value;
            return this;
        }

        public Builder captureText(boolean value) {
            this.captureText = value;
            return this;
        }

        public Builder logprobs(boolean value) {
            this.logprobs = value;
            return this;
        }

        public Builder limits(ResponseLimits value) {
            this.limits = value;
            return this;
        }

        public Builder headers(Map<String, String> value) {
            this.headers = value;
            return this;
        }

        public CompletionRequest build() {
            return new CompletionRequest(
                    baseUrl,
                    endpoint,
                    model,
                    systemPrompt,
                    history,
                    prompt,
                    maxTokens,
                    temperature,
                    topP,
                    ignoreEos,
                    stream,
                    continuousUsage,
                    apiKey,
                    timeout,
                    captureText,
                    logprobs,
                    limits,
                    headers);
        }
    }
}
