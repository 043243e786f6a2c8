package dev.llmops.serving.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The simulator's endpoints over plain HTTP, as an SGLang client or probe sees them. */
class SglangSimulatorTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static HttpClient http;

    @BeforeAll
    static void createClient() {
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    @AfterAll
    static void dropClient() {
        http = null;
    }

    private static HttpResponse<String> get(SglangSimulator simulator, String path, String apiKey)
            throws IOException, InterruptedException {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(simulator.baseUrl() + path)).GET();
        if (apiKey != null) {
            request.header("Authorization", "Bearer " + apiKey);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static CompletableFuture<HttpResponse<String>> post(SglangSimulator simulator, String path, String body) {
        return http.sendAsync(
                HttpRequest.newBuilder(URI.create(simulator.baseUrl() + path))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String chat(int maxTokens, boolean stream) {
        return "{\"model\":\"x\",\"messages\":[{\"role\":\"user\",\"content\":\"three words here\"}],\"max_tokens\":"
                + maxTokens + ",\"stream\":" + stream + ",\"stream_options\":{\"include_usage\":true}}";
    }

    @Test
    void slowStartAnswersModelsButNotHealthOrGeneration() throws Exception {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .model("org/model-a")
                .loading(Duration.ofMinutes(5))
                .start()) {
            JsonNode models = JSON.readTree(get(simulator, "/v1/models", null).body());
            assertThat(models.path("data").get(0).path("id").asText()).isEqualTo("org/model-a");
            assertThat(get(simulator, "/health", null).statusCode()).isEqualTo(503);
            assertThat(get(simulator, "/health_generate", null).statusCode()).isEqualTo(503);
            assertThat(post(simulator, "/v1/chat/completions", chat(4, false))
                            .join()
                            .statusCode())
                    .isEqualTo(503);

            simulator.finishLoading();

            assertThat(get(simulator, "/health", null).statusCode()).isEqualTo(200);
            assertThat(get(simulator, "/health_generate", null).statusCode()).isEqualTo(200);
            assertThat(post(simulator, "/v1/chat/completions", chat(4, false))
                            .join()
                            .statusCode())
                    .isEqualTo(200);
        }
    }

    @Test
    void aHalfReadyServerLooksHealthyButCannotGenerateUntilFixed() throws Exception {
        try (SglangSimulator simulator =
                SglangSimulator.builder().fault(Fault.HALF_READY).start()) {
            assertThat(get(simulator, "/v1/models", null).statusCode()).isEqualTo(200);
            assertThat(get(simulator, "/health", null).statusCode()).isEqualTo(200);
            assertThat(get(simulator, "/health_generate", null).statusCode()).isEqualTo(503);
            HttpResponse<String> failed =
                    post(simulator, "/v1/chat/completions", chat(4, true)).join();
            assertThat(failed.statusCode()).isEqualTo(500);
            assertThat(JSON.readTree(failed.body()).path("message").asText()).contains("CUDA error");

            simulator.setFault(Fault.NONE);

            assertThat(post(simulator, "/v1/chat/completions", chat(4, true))
                            .join()
                            .statusCode())
                    .isEqualTo(200);
        }
    }

    @Test
    void aWholeChatAnswerCarriesContentReasoningAndUsage() throws Exception {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .ttft(Duration.ZERO)
                .tokenDelay(Duration.ZERO)
                .reasoningTokens(3)
                .naturalLength(5)
                .start()) {
            JsonNode answer = JSON.readTree(post(simulator, "/v1/chat/completions", chat(100, false))
                    .join()
                    .body());

            JsonNode message = answer.path("choices").get(0).path("message");
            assertThat(message.path("reasoning_content").asText()).isEqualTo(" Let me think");
            assertThat(message.path("content").asText()).isEqualTo(" The answer");
            assertThat(answer.path("choices").get(0).path("finish_reason").asText())
                    .isEqualTo("stop");
            assertThat(answer.path("usage").path("prompt_tokens").asInt()).isEqualTo(3);
            assertThat(answer.path("usage").path("completion_tokens").asInt()).isEqualTo(5);
            assertThat(answer.path("usage")
                            .path("completion_tokens_details")
                            .path("reasoning_tokens")
                            .asInt())
                    .isEqualTo(3);
        }
    }

    @Test
    void streamsStartWithARoleOnlyChunkAndEndWithUsageAndDone() {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .ttft(Duration.ZERO)
                .tokenDelay(Duration.ZERO)
                .tokensPerChunk(2)
                .start()) {
            HttpResponse<String> response = post(
                            simulator,
                            "/v1/completions",
                            "{\"prompt\":\"hi\",\"max_tokens\":5,\"stream\":true,"
                                    + "\"stream_options\":{\"include_usage\":true}}")
                    .join();

            assertThat(response.headers().firstValue("content-type"))
                    .hasValueSatisfying(type -> assertThat(type).startsWith("text/event-stream"));
            List<String> events = response.body()
                    .lines()
                    .filter(line -> line.startsWith("data: "))
                    .toList();
            assertThat(events).hasSize(6).last().isEqualTo("data: [DONE]");
            assertThat(events.get(0)).contains("\"text\":\" The answer\"");
            assertThat(events.get(2)).contains("\"text\":\" a\"");
            assertThat(events.get(3)).contains("\"finish_reason\":\"length\"");
            assertThat(events.get(4)).contains("\"choices\":[]").contains("\"completion_tokens\":5");
        }
    }

    @Test
    void theBatchLimitQueuesRequests() {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .maxRunning(2)
                .ttft(Duration.ofMillis(500))
                .tokenDelay(Duration.ZERO)
                .start()) {
            List<CompletableFuture<HttpResponse<String>>> answers = List.of(
                    post(simulator, "/v1/chat/completions", chat(1, false)),
                    post(simulator, "/v1/chat/completions", chat(1, false)),
                    post(simulator, "/v1/chat/completions", chat(1, false)));
            answers.forEach(answer -> assertThat(answer.join().statusCode()).isEqualTo(200));

            List<SimulatedRequest> truth =
                    await().atMost(Duration.ofSeconds(5)).until(simulator::requests, recorded -> recorded.size() == 3);
            List<SimulatedRequest> byStart = truth.stream()
                    .sorted(Comparator.comparingLong(SimulatedRequest::startedNanos))
                    .toList();
            SimulatedRequest third = byStart.get(2);
            long firstSlotFreed = Math.min(lastChunkSent(byStart.get(0)), lastChunkSent(byStart.get(1)));
            assertThat(third.receivedNanos())
                    .as("the third request arrived while two were generating")
                    .isLessThan(firstSlotFreed);
            assertThat(third.startedNanos())
                    .as("the third request started only once one of the two had sent its last chunk")
                    .isGreaterThanOrEqualTo(firstSlotFreed);
            assertThat(third.sentChunkNanos()[0] - third.startedNanos())
                    .as("its TTFT counts from its start")
                    .isGreaterThanOrEqualTo(Duration.ofMillis(500).toNanos());
        }
    }

    @Test
    void metricsCountTheRunningBatchAndTheQueueAndTtftIncludesTheWait() throws Exception {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .model("m")
                .maxRunning(2)
                .ttft(Duration.ofMillis(400))
                .tokenDelay(Duration.ZERO)
                .start()) {
            List<CompletableFuture<HttpResponse<String>>> answers = List.of(
                    post(simulator, "/v1/chat/completions", chat(1, true)),
                    post(simulator, "/v1/chat/completions", chat(1, true)),
                    post(simulator, "/v1/chat/completions", chat(1, true)));
            await().atMost(Duration.ofSeconds(5)).until(() -> simulator.running() + simulator.queued() == 3);

            assertThat(get(simulator, "/metrics", null).body())
                    .contains(
                            "sglang:num_running_reqs{model_name=\"m\"} 2.0",
                            "sglang:num_queue_reqs{model_name=\"m\"} 1.0");
            answers.forEach(answer -> assertThat(answer.join().statusCode()).isEqualTo(200));
            await().atMost(Duration.ofSeconds(5)).until(() -> simulator.running() == 0);
            assertThat(get(simulator, "/metrics", null).body())
                    .as("the queued request's TTFT, wait included, is above 0.5 s")
                    .contains(
                            "sglang:num_running_reqs{model_name=\"m\"} 0.0",
                            "sglang:num_queue_reqs{model_name=\"m\"} 0.0",
                            "sglang:time_to_first_token_seconds_bucket{model_name=\"m\",le=\"0.5\"} 2",
                            "sglang:time_to_first_token_seconds_count{model_name=\"m\"} 3");
        }
    }

    @Test
    void anApiKeyGuardsEverythingButHealthAndMetrics() throws Exception {
        try (SglangSimulator simulator =
                SglangSimulator.builder().apiKey("sekret").start()) {
            assertThat(get(simulator, "/v1/models", null).statusCode()).isEqualTo(401);
            assertThat(get(simulator, "/v1/models", "wrong").statusCode()).isEqualTo(401);
            assertThat(get(simulator, "/v1/models", "sekret").statusCode()).isEqualTo(200);
            assertThat(get(simulator, "/health", null).statusCode()).isEqualTo(200);
            assertThat(get(simulator, "/metrics", null).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void metricsAndServerInfoSpeakSglang() throws Exception {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .model("m")
                .maxRunning(4)
                .speculativeAlgorithm("EAGLE3")
                .ttft(Duration.ZERO)
                .tokenDelay(Duration.ZERO)
                .start()) {
            post(simulator, "/v1/chat/completions", chat(7, true)).join();
            await().atMost(Duration.ofSeconds(5)).until(() -> simulator.tokensSent() == 7);

            String metrics = get(simulator, "/metrics", null).body();
            assertThat(metrics)
                    .contains(
                            "# TYPE sglang:num_running_reqs gauge",
                            "sglang:num_running_reqs{model_name=\"m\"} 0",
                            "sglang:num_queue_reqs{model_name=\"m\"} 0",
                            "# TYPE sglang:generation_tokens counter",
                            "sglang:generation_tokens_total{model_name=\"m\",is_streaming=\"true\"} 7",
                            "sglang:time_to_first_token_seconds_count{model_name=\"m\"} 1");
            JsonNode info =
                    JSON.readTree(get(simulator, "/get_server_info", null).body());
            assertThat(info.path("served_model_name").asText()).isEqualTo("m");
            assertThat(info.path("max_running_requests").asInt()).isEqualTo(4);
            assertThat(info.path("speculative_algorithm").asText()).isEqualTo("EAGLE3");
        }
    }

    @Test
    void bindsTheAddressItIsGiven() throws Exception {
        try (SglangSimulator simulator =
                SglangSimulator.builder().host("127.0.0.2").start()) {
            assertThat(simulator.baseUrl().getHost()).isEqualTo("127.0.0.2");
            assertThat(simulator.address().getAddress().getHostAddress()).isEqualTo("127.0.0.2");
            assertThat(get(simulator, "/health", null).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void groundTruthIsServedPerRequestOnTheClientsClock() throws Exception {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .ttft(Duration.ofMillis(30))
                .tokenDelay(Duration.ofMillis(10))
                .start()) {
            long beforeSend = System.nanoTime();
            HttpResponse<String> answer =
                    post(simulator, "/v1/chat/completions", chat(4, true)).join();
            long afterAnswer = System.nanoTime();
            String id = JSON.readTree(answer.body()
                            .lines()
                            .filter(line -> line.startsWith("data: {"))
                            .findFirst()
                            .orElseThrow()
                            .substring("data: ".length()))
                    .path("id")
                    .asText();

            HttpResponse<String> response = get(simulator, "/simulator/ground_truth", null);

            assertThat(response.statusCode()).isEqualTo(200);
            JsonNode request = JSON.readTree(response.body()).path("requests").get(0);
            assertThat(request.path("id").asText()).isEqualTo(id);
            assertThat(request.path("outcome").asText()).isEqualTo("COMPLETED");
            assertThat(request.path("completion_tokens").asInt()).isEqualTo(4);
            assertThat(request.path("chunk_tokens")).extracting(JsonNode::asInt).containsExactly(1, 1, 1, 1);
            long received = request.path("received_ns").asLong();
            long started = request.path("started_ns").asLong();
            JsonNode intended = request.path("intended_chunk_ns");
            JsonNode chunks = request.path("chunk_ns");
            assertThat(received).isBetween(beforeSend, started);
            assertThat(intended.get(0).asLong() - started)
                    .as("TTFT as scheduled")
                    .isEqualTo(30_000_000L);
            for (int i = 0; i < 4; i++) {
                if (i > 0) {
                    assertThat(intended.get(i).asLong() - intended.get(i - 1).asLong())
                            .as("gap %d", i)
                            .isEqualTo(10_000_000L);
                }
                assertThat(chunks.get(i).asLong())
                        .as("chunk %d is sent when due, not before", i)
                        .isGreaterThanOrEqualTo(intended.get(i).asLong());
            }
            assertThat(chunks.get(3).asLong()).isLessThan(afterAnswer);
        }
    }

    @Test
    void withoutRecordingThereIsNoGroundTruthToServe() throws Exception {
        try (SglangSimulator simulator =
                SglangSimulator.builder().recordGroundTruth(false).start()) {
            assertThat(get(simulator, "/simulator/ground_truth", null).statusCode())
                    .isEqualTo(404);
        }
    }

    /** A chat request: a system prompt of 64 words, then a question of 16, 80 tokens in all. */
    private static String sharedPrefixChat(String question, boolean stream) {
        String system = String.join(" ", java.util.Collections.nCopies(16, "you are helpful here"));
        return "{\"messages\":[{\"role\":\"system\",\"content\":\"" + system + "\"},{\"role\":\"user\","
                + "\"content\":\"" + String.join(" ", java.util.Collections.nCopies(16, question))
                + "\"}],\"max_tokens\":2,\"stream\":" + stream + ",\"stream_options\":{\"include_usage\":true}}";
    }

    @Test
    void aSharedSystemPromptIsServedFromThePrefixCacheAndOnlyTheRestIsPrefilled() throws Exception {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .model("m")
                .ttft(Duration.ofMillis(400))
                .tokenDelay(Duration.ZERO)
                .start()) {
            JsonNode cold = JSON.readTree(post(simulator, "/v1/chat/completions", sharedPrefixChat("why", false))
                    .join()
                    .body());
            JsonNode warm = JSON.readTree(post(simulator, "/v1/chat/completions", sharedPrefixChat("how", false))
                    .join()
                    .body());
            String streamed = post(simulator, "/v1/chat/completions", sharedPrefixChat("what", true))
                    .join()
                    .body();

            assertThat(cold.path("usage").path("prompt_tokens").asInt()).isEqualTo(80);
            assertThat(cold.path("usage")
                            .path("prompt_tokens_details")
                            .path("cached_tokens")
                            .asInt())
                    .isZero();
            assertThat(warm.path("usage")
                            .path("prompt_tokens_details")
                            .path("cached_tokens")
                            .asInt())
                    .as("the system prompt's four blocks of 16 words")
                    .isEqualTo(64);
            JsonNode usageChunk = JSON.readTree(streamed.lines()
                    .filter(line -> line.contains("\"choices\":[]"))
                    .findFirst()
                    .orElseThrow()
                    .substring("data: ".length()));
            assertThat(usageChunk
                            .path("usage")
                            .path("prompt_tokens_details")
                            .path("cached_tokens")
                            .asInt())
                    .isEqualTo(64);
            List<SimulatedRequest> truth =
                    await().atMost(Duration.ofSeconds(5)).until(simulator::requests, recorded -> recorded.size() == 3);
            assertThat(truth).extracting(SimulatedRequest::cachedTokens).containsExactly(0, 64, 64);
            assertThat(truth.get(0).intendedChunkNanos()[0] - truth.get(0).startedNanos())
                    .as("a cold prompt's prefill is the whole TTFT")
                    .isEqualTo(Duration.ofMillis(400).toNanos());
            assertThat(truth.get(1).intendedChunkNanos()[0] - truth.get(1).startedNanos())
                    .as("16 of 80 tokens prefilled: a fifth of the TTFT")
                    .isEqualTo(Duration.ofMillis(80).toNanos());
            JsonNode served = JSON.readTree(
                            get(simulator, "/simulator/ground_truth", null).body())
                    .path("requests")
                    .get(1);
            assertThat(served.path("prompt_tokens").asInt()).isEqualTo(80);
            assertThat(served.path("cached_tokens").asInt()).isEqualTo(64);
            assertThat(get(simulator, "/metrics", null).body())
                    .contains(
                            "# TYPE sglang:cached_tokens counter",
                            "sglang:cached_tokens_total{model_name=\"m\",cache_source=\"device\"} 128",
                            "sglang:prompt_tokens_total{model_name=\"m\"} 240");
            assertThat(await().atMost(Duration.ofSeconds(5))
                            .until(() -> cacheHitRateGauge(simulator), rate -> rate > 0))
                    .as("the gauge: cached over prompt tokens of the requests since the previous sample, all three"
                            + " (128 of 240) or the last two or the last one (128 of 160, 64 of 80)")
                    .isIn(128 / 240.0, 0.8);
        }
    }

    @Test
    void withoutTheCacheReportUsageHasNoPromptTokenDetailsAndWithoutACacheNothingIsCached() throws Exception {
        try (SglangSimulator unreported = SglangSimulator.builder()
                        .ttft(Duration.ZERO)
                        .tokenDelay(Duration.ZERO)
                        .reportCachedTokens(false)
                        .start();
                SglangSimulator uncached = SglangSimulator.builder()
                        .ttft(Duration.ZERO)
                        .tokenDelay(Duration.ZERO)
                        .prefixCacheBlocks(0)
                        .start()) {
            post(unreported, "/v1/chat/completions", sharedPrefixChat("why", false))
                    .join();
            JsonNode hidden = JSON.readTree(post(unreported, "/v1/chat/completions", sharedPrefixChat("why", false))
                    .join()
                    .body());
            post(uncached, "/v1/chat/completions", sharedPrefixChat("why", false))
                    .join();
            JsonNode missed = JSON.readTree(post(uncached, "/v1/chat/completions", sharedPrefixChat("why", false))
                    .join()
                    .body());

            assertThat(hidden.path("usage").has("prompt_tokens_details")).isFalse();
            assertThat(await().atMost(Duration.ofSeconds(5))
                            .until(unreported::requests, recorded -> recorded.size() == 2)
                            .get(1)
                            .cachedTokens())
                    .as("cached all the same")
                    .isEqualTo(64);
            assertThat(missed.path("usage")
                            .path("prompt_tokens_details")
                            .path("cached_tokens")
                            .asInt())
                    .isZero();
        }
    }

    private static double cacheHitRateGauge(SglangSimulator simulator) throws Exception {
        return Double.parseDouble(get(simulator, "/metrics", null)
                .body()
                .lines()
                .filter(line -> line.startsWith("sglang:cache_hit_rate{"))
                .findFirst()
                .orElseThrow()
                .split(" ")[1]);
    }

    private static long lastChunkSent(SimulatedRequest request) {
        return request.sentChunkNanos()[request.sentChunkNanos().length - 1];
    }
}
