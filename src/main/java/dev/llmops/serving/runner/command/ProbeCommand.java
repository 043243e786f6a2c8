package dev.llmops.serving.runner.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmops.serving.common.options.OptionValues;
import dev.llmops.serving.runner.transport.CompletionRequest;
import dev.llmops.serving.runner.transport.EndpointResponse;
import dev.llmops.serving.runner.transport.FailureClass;
import dev.llmops.serving.runner.transport.OpenAiClient;
import dev.llmops.serving.runner.transport.RequestResult;
import dev.llmops.serving.runner.transport.ServedModels;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Asks an SGLang server's endpoints one by one and says what each answer proves. Only a real chat completion that
 * returned tokens proves the server serves; a listed model or a passing /health does not.
 */
@Command(
        name = "probe",
        mixinStandardHelpOptions = true,
        description = "Check what each endpoint of an SGLang server proves. Exits 0 only when a real chat completion "
                + "returned tokens, 3 when the server is unreachable, answers too much, does not serve --model or did "
                + "not generate, 2 for bad flags.")
public class ProbeCommand implements Callable<Integer> {

    static final int GENERATES = 0;
    static final int BAD_FLAGS = 2;
    public static final int DOES_NOT_GENERATE = 3;
    private static final List<String> SERVER_INFO_KEYS = List.of(
            "version",
            "model_path",
            "served_model_name",
            "tp_size",
            "dp_size",
            "ep_size",
            "speculative_algorithm",
            "mem_fraction_static",
            "context_length",
            "max_total_num_tokens");

    @Spec
    CommandSpec spec;

    @Option(
            names = "--url",
            required = true,
            paramLabel = "URL",
            converter = ServerUrl.class,
            description = "Server root, e.g. http://10.0.0.5:30000.")
    URI baseUrl;

    @Option(names = "--model", description = "Model to ask; defaults to the first one /v1/models lists.")
    String model;

    @Option(
            names = "--api-key-env",
            paramLabel = "VAR",
            description = "Environment variable holding the API key, sent as a bearer token.")
    String apiKeyEnv;

    @Option(
            names = "--timeout",
            paramLabel = "S",
            defaultValue = "60",
            description = "Seconds each request may take (default ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Override
    public Integer call() {
        OptionValues.require(spec, "--timeout", timeoutSeconds >= 1, "is below 1 second");
        String apiKey = OptionValues.apiKey(spec, apiKeyEnv);
        Duration timeout = Duration.ofSeconds(timeoutSeconds);
        PrintWriter out = spec.commandLine().getOut();
        try (OpenAiClient client = OpenAiClient.create(2, timeout)) {
            int exitCode = probe(client, baseUrl, apiKey, timeout, out);
            out.flush();
            return exitCode;
        }
    }

    private int probe(OpenAiClient client, URI baseUrl, String apiKey, Duration timeout, PrintWriter out) {
        EndpointResponse models = get(client, baseUrl, "/v1/models", apiKey, timeout);
        if (models.failureClass() != null) {
            report(out, "GET /v1/models", models, models.errorMessage());
            out.println(
                    FailureClass.TOO_LARGE.equals(models.failureClass())
                            ? "RESULT  response too large: " + baseUrl
                                    + " answered GET /v1/models with more than the probe" + " reads ("
                                    + models.errorMessage() + "); the server is broken or hostile"
                            : "RESULT  unreachable: nothing answered at " + baseUrl + ": " + models.errorMessage());
            return DOES_NOT_GENERATE;
        }
        List<String> listed = ServedModels.of(models);
        report(
                out,
                "GET /v1/models",
                models,
                listed.isEmpty()
                        ? "no model listed"
                        : "lists " + ServedModels.names(listed)
                                + ": the HTTP and tokenizer layer is up; this proves nothing about the GPU path");
        EndpointResponse health = get(client, baseUrl, "/health", apiKey, timeout);
        report(
                out,
                "GET /health",
                health,
                health.isOk()
                        ? "the server finished starting (recent versions also run a tiny generation)"
                        : "the server is not healthy or still loading");
        EndpointResponse healthGenerate = get(client, baseUrl, "/health_generate", apiKey, timeout);
        report(
                out,
                "GET /health_generate",
                healthGenerate,
                healthGenerate.isOk()
                        ? "a one-token generation finished inside the server"
                        : "the server's own one-token generation did not finish");
        EndpointResponse info = get(client, baseUrl, "/get_server_info", apiKey, timeout);
        report(
                out,
                "GET /get_server_info",
                info,
                info.isOk() ? serverInfo(info.body()) : "no server information (admin-only or not SGLang)");

        if (model == null && listed.isEmpty()) {
            out.println("RESULT  not proven to generate: /v1/models answered HTTP " + models.status()
                    + " without listing a model, so no completion was tried; name one with --model");
            return DOES_NOT_GENERATE;
        }
        if (model != null && !listed.isEmpty() && !listed.contains(model)) {
            out.println("RESULT  does not serve " + model + ": /v1/models lists only " + ServedModels.names(listed)
                    + ", so no completion was tried; pass one of those as --model");
            return DOES_NOT_GENERATE;
        }
        String target = model != null ? model : listed.get(0);
        RequestResult completion = client.complete(CompletionRequest.builder(baseUrl, target)
                        .prompt("Reply with one short sentence that says you are ready.")
                        .maxTokens(16)
                        .apiKey(apiKey)
                        .timeout(timeout)
                        .build())
                .join();
        boolean generated = completion.succeeded() && completion.outputTokens() > 0;
        out.printf(
                "%-28s %s%n",
                "POST /v1/chat/completions",
                generated
                        ? "%d tokens in %d ms: the full user path works (chat template, sampling, streaming)"
                                .formatted(
                                        completion.outputTokens(),
                                        completion.latency().toMillis())
                        : "FAILED: " + completion.failureClass()
                                + (completion.errorMessage() == null ? "" : " " + completion.errorMessage()));
        if (generated) {
            out.println("RESULT  generates: a real chat completion with " + target + " returned tokens");
            return GENERATES;
        }
        out.println("RESULT  does not generate: generation failed with " + completion.failureClass()
                + (models.isOk() ? " although /v1/models answers" : ""));
        return DOES_NOT_GENERATE;
    }

    private static EndpointResponse get(
            OpenAiClient client, URI baseUrl, String path, String apiKey, Duration timeout) {
        return client.get(baseUrl, path, apiKey, timeout).join();
    }

    private static void report(PrintWriter out, String request, EndpointResponse response, String proves) {
        String answer = FailureClass.TOO_LARGE.equals(response.failureClass())
                ? "answer too large"
                : response.failureClass() != null
                        ? "no answer (" + response.failureClass() + ")"
                        : "HTTP %d in %d ms"
                                .formatted(response.status(), response.latency().toMillis());
        out.printf("%-28s %-22s %s%n", request, answer, proves);
    }

    private static String serverInfo(String body) {
        try {
            JsonNode info = new ObjectMapper().readTree(body);
            String fields = SERVER_INFO_KEYS.stream()
                    .filter(k -> info.hasNonNull(k))
                    .map(k -> k + "=" + info.get(k).asText())
                    .collect(Collectors.joining(", "));
            long total = StreamSupport.stream(((Iterable<String>) info::fieldNames).spliterator(), false)
                    .count();
            return "reports %d server settings%s".formatted(total, fields.isEmpty() ? "" : ": " + fields);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return "answered, but not with JSON";
        }
    }
}
