package dev.llmops.serving.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The simulator's speculative decoding: per-step acceptance draws, step timing, SGLang's counters, ground truth. */
class SpeculativeDecodingTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    private static String send(SglangSimulator simulator, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(simulator.baseUrl() + path));
        request = body == null
                ? request.GET()
                : request.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    private static String chat(int maxTokens) {
        return "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":" + maxTokens
                + ",\"stream\":true}";
    }

    @Test
    void eachStepStreamsItsDrawnTokensInOneChunkAfterOneStepDelay() throws Exception {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .model("m")
                .ttft(Duration.ZERO)
                .tokenDelay(Duration.ofMillis(4))
                .speculative(SpeculativeAcceptance.of(List.of(0.2, 0.3, 0.5)))
                .start()) {
            List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                sent.add(HTTP.sendAsync(
                        HttpRequest.newBuilder(URI.create(simulator.baseUrl() + "/v1/chat/completions"))
                                .POST(HttpRequest.BodyPublishers.ofString(chat(300)))
                                .build(),
                        HttpResponse.BodyHandlers.ofString()));
            }
            sent.forEach(CompletableFuture::join);
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> simulator.requests().size() == 20);
            List<SimulatedRequest> requests = simulator.requests();
            int[] counts = new int[4];
            long tokens = 0;
            long steps = 0;
            for (SimulatedRequest request : requests) {
                assertThat(request.completionTokens()).isEqualTo(300);
                int[] chunks = request.chunkTokens();
                for (int k = 0; k < chunks.length; k++) {
                    assertThat(chunks[k]).isBetween(1, 3);
                    if (k < chunks.length - 1) {
                        counts[chunks[k]]++;
                    }
                }
                long[] intended = request.intendedChunkNanos();
                assertThat(intended[intended.length - 1] - intended[0])
                        .as("one step delay per chunk, whatever its tokens")
                        .isEqualTo((intended.length - 1) * 4_000_000L);
                tokens += Arrays.stream(chunks).sum();
                steps += chunks.length;
            }
            int drawn = counts[1] + counts[2] + counts[3];
            assertThat((double) counts[1] / drawn).isCloseTo(0.2, within(0.03));
            assertThat((double) counts[3] / drawn).isCloseTo(0.5, within(0.03));
            assertThat(simulator.speculativeTotals()).isEqualTo(new SglangSimulator.SpeculativeTotals(tokens, steps));

            String metrics = send(simulator, "/metrics", null);
            assertThat(metrics)
                    .contains(
                            "# TYPE sglang:spec_verify_calls counter",
                            "sglang:spec_verify_calls_total{model_name=\"m\"} " + (double) steps,
                            "sglang:generation_tokens_total{model_name=\"m\",is_streaming=\"true\"} " + (double) tokens,
                            "# TYPE sglang:spec_accept_length gauge");
        }
    }

    @Test
    void theSameSeedDrawsTheSameStepsAndAnAutoregressiveServerHasNoVerifyCounter() throws Exception {
        int[][] chunks = new int[2][];
        for (int run = 0; run < 2; run++) {
            try (SglangSimulator simulator = SglangSimulator.builder()
                    .ttft(Duration.ZERO)
                    .tokenDelay(Duration.ZERO)
                    .speculative(SpeculativeAcceptance.of(List.of(0.5, 0.5)))
                    .acceptanceSeed(42)
                    .start()) {
                send(simulator, "/v1/chat/completions", chat(100));
                await().atMost(Duration.ofSeconds(5))
                        .until(() -> simulator.requests().size() == 1);
                chunks[run] = simulator.requests().get(0).chunkTokens();
            }
        }
        assertThat(chunks[1]).isEqualTo(chunks[0]);
        try (SglangSimulator plain = SglangSimulator.builder().start()) {
            assertThat(send(plain, "/metrics", null)).doesNotContain("spec_verify_calls");
            assertThat(plain.speculativeTotals()).isEqualTo(new SglangSimulator.SpeculativeTotals(0, 0));
        }
    }

    @Test
    void aBrokenDraftAcceptsTheMostTokensEveryStepSoItFinishesSooner() throws Exception {
        SpeculativeAcceptance acceptance = SpeculativeAcceptance.of(List.of(0.5, 0.3, 0.2));
        long[] spanNanos = new long[2];
        double[] acceptLength = new double[2];
        Fault[] faults = {Fault.NONE, Fault.BROKEN_DRAFT};
        for (int run = 0; run < 2; run++) {
            try (SglangSimulator simulator = SglangSimulator.builder()
                    .ttft(Duration.ZERO)
                    .tokenDelay(Duration.ofMillis(2))
                    .speculative(acceptance)
                    .fault(faults[run])
                    .start()) {
                send(simulator, "/v1/chat/completions", chat(90));
                await().atMost(Duration.ofSeconds(5))
                        .until(() -> simulator.requests().size() == 1);
                SimulatedRequest request = simulator.requests().get(0);
                long[] intended = request.intendedChunkNanos();
                spanNanos[run] = intended[intended.length - 1] - intended[0];
                acceptLength[run] =
                        simulator.speculativeTotals().acceptLengthSince(new SglangSimulator.SpeculativeTotals(0, 0));
                if (faults[run] == Fault.BROKEN_DRAFT) {
                    assertThat(request.chunkTokens()).containsOnly(3);
                }
            }
        }
        assertThat(acceptLength[1]).isEqualTo(3.0);
        assertThat(acceptLength[0]).isLessThan(2.5);
        assertThat(spanNanos[1])
                .as("29 steps of 2 ms")
                .isEqualTo(29 * 2_000_000L)
                .isLessThan(spanNanos[0]);
    }

    @Test
    void greedyAnswersDependOnThePromptAndStreamTheirTokensAsLogprobs() throws Exception {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .ttft(Duration.ZERO)
                .tokenDelay(Duration.ZERO)
                .speculative(SpeculativeAcceptance.exactly(2))
                .start()) {
            String greedy = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"%s\"}],"
                    + "\"max_tokens\":5,\"temperature\":0,\"logprobs\":true,\"stream\":true}";
            List<JsonNode> first = streamed(send(simulator, "/v1/chat/completions", greedy.formatted("one")));
            List<JsonNode> again = streamed(send(simulator, "/v1/chat/completions", greedy.formatted("one")));
            List<JsonNode> other = streamed(send(simulator, "/v1/chat/completions", greedy.formatted("two")));

            assertThat(contents(first)).hasSize(3).isEqualTo(contents(again)).isNotEqualTo(contents(other));
            JsonNode tokens = first.get(0).at("/choices/0/logprobs/content");
            assertThat(tokens).hasSize(2);
            assertThat(tokens.get(0).path("token").asText()
                            + tokens.get(1).path("token").asText())
                    .isEqualTo(contents(first).get(0));
            assertThat(tokens.get(0).path("top_logprobs").isArray()).isTrue();
            assertThat(tokens.get(0).path("bytes").size())
                    .isEqualTo(tokens.get(0).path("token").asText().length());
        }
    }

    /** Each chunk that carries content. */
    private static List<JsonNode> streamed(String events) throws Exception {
        List<JsonNode> chunks = new ArrayList<>();
        for (String line : events.lines().toList()) {
            if (line.startsWith("data: {")) {
                JsonNode chunk = JSON.readTree(line.substring("data: ".length()));
                if (!chunk.at("/choices/0/delta/content").asText().isEmpty()) {
                    chunks.add(chunk);
                }
            }
        }
        return chunks;
    }

    private static List<String> contents(List<JsonNode> chunks) {
        return chunks.stream()
                .map(chunk -> chunk.at("/choices/0/delta/content").asText())
                .toList();
    }

    @Test
    void badDistributionsAreRefusedWithTheReason() {
        assertThatThrownBy(() -> SpeculativeAcceptance.of(List.of(0.2, 0.3))).hasMessageContaining("add up to 1");
        assertThatThrownBy(() -> SpeculativeAcceptance.of(List.of(1.5, -0.5)))
                .hasMessageContaining("probability of 1 accepted tokens must be between 0 and 1");
        assertThatThrownBy(() -> SpeculativeAcceptance.of(List.of())).hasMessageContaining("between 1 and 64");
        assertThatThrownBy(() -> SglangSimulator.builder()
                        .tokensPerChunk(3)
                        .speculative(SpeculativeAcceptance.exactly(3))
                        .start())
                .hasMessageContaining("tokensPerChunk");
        assertThat(SpeculativeAcceptance.of(List.of(0.2, 0.3, 0.5)).mean()).isCloseTo(2.3, within(1e-9));
    }
}
