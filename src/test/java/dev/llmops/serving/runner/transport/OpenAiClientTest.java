package dev.llmops.serving.runner.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.llmops.serving.api.contract.QualityOutput;
import dev.llmops.serving.simulator.Fault;
import dev.llmops.serving.simulator.SglangSimulator;
import dev.llmops.serving.simulator.SimulatedRequest;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OpenAiClientTest {

    private static OpenAiClient client;

    @BeforeAll
    static void createClient() {
        client = OpenAiClient.create();
    }

    @AfterAll
    static void closeClient() {
        client.close();
    }

    @Test
    void streamedChatMatchesTheSimulatorsGroundTruth() {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .ttft(Duration.ofMillis(40))
                .tokenDelay(Duration.ofMillis(5))
                .start()) {
            CompletionRequest request = CompletionRequest.builder(simulator.baseUrl(), simulator.model())
                    .maxTokens(20)
                    .captureText(true)
                    .build();
            client.complete(request).join();

            RequestResult result = client.complete(request).join();

            assertThat(result.succeeded()).as(result.errorMessage()).isTrue();
            assertThat(result.outputTokens()).isEqualTo(20);
            assertThat(result.tokenCounting()).isEqualTo(TokenCounting.SERVER_PER_CHUNK);
            assertThat(result.finishReason()).isEqualTo("length");
            assertThat(result.text()).startsWith(" The answer");
            SimulatedRequest truth = await().atMost(Duration.ofSeconds(5))
                    .until(
                            () -> simulator.requests().stream()
                                    .filter(r -> r.id().equals(result.responseId()))
                                    .findFirst(),
                            java.util.Optional::isPresent)
                    .orElseThrow();
            assertThat(result.tokenChunkNanos()).hasSize(20);
            for (int i = 0; i < 20; i++) {
                assertThat(result.tokenChunkNanos()[i])
                        .as("chunk %d arrives after the server began writing it", i)
                        .isGreaterThanOrEqualTo(truth.sentChunkNanos()[i]);
            }
            assertThat(result.ttft().orElseThrow().toNanos())
                    .isEqualTo(result.tokenChunkNanos()[0] - result.sendNanos())
                    .isGreaterThan(truth.intendedChunkNanos()[0] - truth.startedNanos());
            List<Long> itl = new ArrayList<>();
            result.forEachInterTokenLatency((nanos, tokens) -> itl.add(nanos));
            assertThat(itl).hasSize(19);
            assertThat(itl.stream().mapToLong(Long::longValue).sum())
                    .isEqualTo(result.tokenChunkNanos()[19] - result.tokenChunkNanos()[0]);
        }
    }

    @Test
    void halfReadyServerFailsWithHttp500() {
        try (SglangSimulator simulator =
                SglangSimulator.builder().fault(Fault.HALF_READY).start()) {
            RequestResult result = client.complete(CompletionRequest.builder(simulator.baseUrl(), simulator.model())
                            .build())
                    .join();
            assertThat(result.failureClass()).isEqualTo("http_500");
            assertThat(result.errorMessage()).contains("no kernel image");
        }
    }

    /** A server that answers every request with this status, content type and body. */
    private static HttpServer stub(int status, String contentType, String body) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", contentType);
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        return server;
    }

    private static RequestResult completeAgainst(HttpServer server) {
        try {
            return client.complete(CompletionRequest.builder(
                                    "http://127.0.0.1:" + server.getAddress().getPort(), "m")
                            .build())
                    .join();
        } finally {
            server.stop(0);
        }
    }

    private static String chunk(String content, String logprobs) {
        return "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + content + "\"}"
                + (logprobs == null ? "" : ",\"logprobs\":{\"content\":[" + logprobs + "]}")
                + ",\"finish_reason\":null}]}\n\n";
    }

    private static List<String> tokenPiecesFrom(String stream) throws IOException {
        HttpServer server = stub(200, "text/event-stream", stream + "data: [DONE]\n\n");
        try {
            return client.complete(CompletionRequest.builder(
                                    "http://127.0.0.1:" + server.getAddress().getPort(), "m")
                            .logprobs(true)
                            .build())
                    .join()
                    .tokenPieces();
        } finally {
            server.stop(0);
        }
    }

    @Test
    void tokenPiecesComeFromLogprobsElseFromContentChunksAndAreBounded() throws IOException {
        String longToken = "x".repeat(100);
        List<String> fromLogprobs = tokenPiecesFrom(chunk(
                        "Hello world",
                        "{\"token\":\"Hello\",\"logprob\":-0.1},"
                                + "{\"token\":\" world\",\"logprob\":-0.2,\"top_logprobs\":[{\"token\":\"x\"}]}")
                + chunk(longToken, "{\"token\":\"" + longToken + "\"}"));
        List<String> fromChunks = tokenPiecesFrom(chunk("Hello", null) + chunk(" world", null));
        List<String> many = tokenPiecesFrom(chunk("a", "{\"token\":\"a\"},".repeat(1100) + "{\"token\":\"b\"}"));

        assertThat(fromLogprobs).containsExactly("Hello", " world", "x".repeat(QualityOutput.MAX_PIECE_CHARS));
        assertThat(fromChunks).containsExactly("Hello", " world");
        assertThat(many).hasSize(RequestResult.MAX_TOKEN_PIECES).containsOnly("a");
    }

    @Test
    void aStreamWithoutATokenIsEmptyOutput() throws IOException {
        RequestResult result = completeAgainst(stub(
                200,
                "text/event-stream",
                "data: {\"id\":\"a\",\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n"
                        + "data: {\"id\":\"a\",\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
                        + "data: [DONE]\n\n"));
        assertThat(result.failureClass()).isEqualTo(FailureClass.EMPTY_OUTPUT);
        assertThat(result.ttft()).isEmpty();
    }

    @Test
    void anErrorInsideTheStreamIsCountedUnderItsCode() throws IOException {
        RequestResult result = completeAgainst(stub(
                200,
                "text/event-stream",
                "data: {\"id\":\"a\",\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\n"
                        + "data: {\"object\":\"error\",\"message\":\"out of memory\",\"code\":503}\n\n"));
        assertThat(result.failureClass()).isEqualTo("http_503");
        assertThat(result.errorMessage()).contains("out of memory");
        assertThat(result.ttft()).isPresent();
    }

    @Test
    void withoutUsageTokensAreCountedFromChunks() throws IOException {
        RequestResult result = completeAgainst(stub(
                200,
                "text/event-stream; charset=utf-8",
                "data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\r\n\r\n"
                        + "data: {\"choices\":[{\"delta\":{\"content\":\" there\"},\"finish_reason\":\"stop\"}]}\n\n"
                        + "data: [DONE]\n\n"));
        assertThat(result.succeeded()).isTrue();
        assertThat(result.tokenCounting()).isEqualTo(TokenCounting.COUNTED);
        assertThat(result.outputTokens()).isEqualTo(2);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "\"prompt_tokens\":100,\"prompt_tokens_details\":{\"cached_tokens\":30}|30",
                "\"prompt_tokens_details\":{\"cached_tokens\":30},\"prompt_tokens\":100|30",
                "\"prompt_tokens\":100,\"prompt_tokens_details\":{\"cached_tokens\":0}|0",
                "\"prompt_tokens\":100,\"prompt_tokens_details\":{\"cached_tokens\":250}|100",
                "\"prompt_tokens\":100,\"prompt_tokens_details\":{\"cached_tokens\":-5}|-1",
                "\"prompt_tokens\":100,\"prompt_tokens_details\":{\"cached_tokens\":99999999999999999999}|-1",
                "\"prompt_tokens\":100,\"prompt_tokens_details\":{\"cached_tokens\":3000000000}|-1",
                "\"prompt_tokens\":100,\"prompt_tokens_details\":{\"cached_tokens\":12.5}|-1",
                "\"prompt_tokens\":100,\"prompt_tokens_details\":{\"cached_tokens\":\"30\"}|-1",
                "\"prompt_tokens\":100,\"prompt_tokens_details\":{\"cached_tokens\":{\"n\":[30]}}|-1",
                "\"prompt_tokens\":100,\"prompt_tokens_details\":{\"cached_tokens\":null}|-1",
                "\"prompt_tokens\":100,\"prompt_tokens_details\":[30]|-1",
                "\"prompt_tokens\":100,\"prompt_tokens_details\":null|-1",
                "\"prompt_tokens\":100|-1",
                "\"prompt_tokens\":-3,\"prompt_tokens_details\":{\"cached_tokens\":30}|-1",
                "\"prompt_tokens_details\":{\"cached_tokens\":30}|-1"
            })
    void cachedPromptTokensAreACountNoLargerThanThePromptOrNotReported(String usage, int cached) throws IOException {
        RequestResult result = completeAgainst(stub(
                200,
                "application/json",
                "{\"id\":\"a\",\"choices\":[{\"message\":{\"content\":\"Hi\"},\"finish_reason\":\"stop\"}],"
                        + "\"usage\":{\"completion_tokens\":1," + usage + "}}"));

        assertThat(result.succeeded()).as(result.errorMessage()).isTrue();
        assertThat(result.cachedPromptTokens()).isEqualTo(cached);
    }

    @Test
    void aPlainHttpErrorKeepsTheServersMessage() throws IOException {
        RequestResult result = completeAgainst(
                stub(404, "application/json", "{\"error\":{\"message\":\"The model m does not exist\",\"code\":404}}"));
        assertThat(result.failureClass()).isEqualTo("http_404");
        assertThat(result.errorMessage()).isEqualTo("The model m does not exist");
    }

    @Test
    void aClosedPortIsAConnectFailure() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        RequestResult result = client.complete(CompletionRequest.builder("http://127.0.0.1:" + port, "m")
                        .build())
                .join();
        assertThat(result.failureClass()).isEqualTo(FailureClass.CONNECT);
        assertThat(result.httpStatus()).isZero();
    }

    /** join() ignores interrupts, so the limit runs the test on a thread of its own that can be abandoned. */
    @Test
    @Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aHangingServerTimesOut() {
        try (SglangSimulator simulator =
                SglangSimulator.builder().fault(Fault.HANG).start()) {
            long submitted = System.nanoTime();
            RequestResult result = client.complete(CompletionRequest.builder(simulator.baseUrl(), simulator.model())
                            .timeout(Duration.ofMillis(300))
                            .build())
                    .join();
            assertThat(result.failureClass()).isEqualTo(FailureClass.TIMEOUT);
            assertThat(Duration.ofNanos(result.endNanos() - submitted)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        }
    }

    @Test
    void theApiKeyIsSentAsABearerToken() {
        try (SglangSimulator simulator =
                SglangSimulator.builder().apiKey("sekret").ttft(Duration.ZERO).start()) {
            CompletionRequest.Builder request = CompletionRequest.builder(simulator.baseUrl(), simulator.model());
            assertThat(client.complete(request.build()).join().failureClass()).isEqualTo("http_401");
            assertThat(client.complete(request.apiKey("sekret").build()).join().succeeded())
                    .isTrue();
        }
    }

    @Test
    void aConversationsHistoryPrecedesThePromptAndItsHeaderIsSent() throws IOException {
        List<String> bodies = new ArrayList<>();
        List<String> sessions = new ArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            sessions.add(exchange.getRequestHeaders().getFirst("X-Session-ID"));
            exchange.sendResponseHeaders(500, -1);
            exchange.close();
        });
        server.start();
        try {
            CompletionRequest.Builder request = CompletionRequest.builder(
                            "http://127.0.0.1:" + server.getAddress().getPort(), "m")
                    .systemPrompt("be brief")
                    .history(List.of(new Exchange("first question", "first answer"), new Exchange("second", "again")))
                    .prompt("third")
                    .headers(Map.of("X-Session-ID", "session-7"));
            client.complete(request.build()).join();
            client.complete(request.endpoint(Endpoint.COMPLETIONS).build()).join();
        } finally {
            server.stop(0);
        }

        ObjectMapper json = new ObjectMapper();
        assertThat(json.readTree(bodies.get(0)).path("messages").toString())
                .isEqualTo("[{\"role\":\"system\",\"content\":\"be brief\"},"
                        + "{\"role\":\"user\",\"content\":\"first question\"},"
                        + "{\"role\":\"assistant\",\"content\":\"first answer\"},"
                        + "{\"role\":\"user\",\"content\":\"second\"},"
                        + "{\"role\":\"assistant\",\"content\":\"again\"},"
                        + "{\"role\":\"user\",\"content\":\"third\"}]");
        assertThat(json.readTree(bodies.get(1)).path("prompt").asText())
                .isEqualTo("be brief\n\nfirst question\n\nfirst answer\n\nsecond\n\nagain\n\nthird");
        assertThat(sessions).containsExactly("session-7", "session-7");
    }

    @Test
    void completionsAndWholeAnswersAreReadToo() {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .ttft(Duration.ZERO)
                .tokenDelay(Duration.ZERO)
                .start()) {
            CompletionRequest.Builder request = CompletionRequest.builder(simulator.baseUrl(), simulator.model())
                    .endpoint(Endpoint.COMPLETIONS)
                    .maxTokens(6)
                    .captureText(true);
            RequestResult streamed = client.complete(request.build()).join();
            RequestResult whole = client.complete(request.stream(false).build()).join();

            assertThat(streamed.outputTokens()).isEqualTo(6);
            assertThat(whole.outputTokens()).isEqualTo(6);
            assertThat(whole.text()).isEqualTo(streamed.text()).isEqualTo(" The answer depends on a few");
        }
    }

    @Test
    void getReportsAnyStatusAsAnAnswer() {
        try (SglangSimulator simulator =
                SglangSimulator.builder().loading(Duration.ofMinutes(1)).start()) {
            EndpointResponse health = client.get(simulator.baseUrl(), "/health", null, Duration.ofSeconds(5))
                    .join();
            EndpointResponse models = client.get(simulator.baseUrl(), "/v1/models", null, Duration.ofSeconds(5))
                    .join();
            assertThat(health.status()).isEqualTo(503);
            assertThat(health.isOk()).isFalse();
            assertThat(health.failureClass()).isNull();
            assertThat(models.isOk()).isTrue();
            assertThat(models.body()).contains(simulator.model());
        }
    }
}
