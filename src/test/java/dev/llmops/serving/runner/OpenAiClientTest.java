package dev.llmops.serving.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.llmops.serving.simulator.Fault;
import dev.llmops.serving.simulator.SglangSimulator;
import dev.llmops.serving.simulator.SimulatedRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

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
        try (SglangSimulator simulator = SglangSimulator.builder().ttft(Duration.ofMillis(40))
                .tokenDelay(Duration.ofMillis(5)).start()) {
            CompletionRequest request = CompletionRequest.builder(simulator.baseUrl(), simulator.model()).maxTokens(20)
                    .captureText(true).build();
            client.complete(request).join();
            simulator.clearRequests();

            RequestResult result = client.complete(request).join();

            assertThat(result.succeeded()).as(result.errorMessage()).isTrue();
            assertThat(result.outputTokens()).isEqualTo(20);
            assertThat(result.tokenCounting()).isEqualTo(TokenCounting.SERVER_PER_CHUNK);
            assertThat(result.finishReason()).isEqualTo("length");
            assertThat(result.text()).startsWith(" The answer");
            SimulatedRequest truth = simulator.requests().get(0);
            System.out.printf("DEBUG upload %.2f start %.2f firstwrite-intended %.2f firstchunk %.2f%n", (truth.receivedNanos()-result.sendNanos())/1e6, (truth.startedNanos()-truth.receivedNanos())/1e6, (truth.sentChunkNanos()[0]-truth.intendedChunkNanos()[0])/1e6, (result.tokenChunkNanos()[0]-truth.sentChunkNanos()[0])/1e6);
            assertThat(truth.id()).isEqualTo(result.responseId());
            assertThat(result.tokenChunkNanos()).hasSize(20);
            long[] delivery = new long[20];
            for (int i = 0; i < 20; i++) {
                delivery[i] = result.tokenChunkNanos()[i] - truth.sentChunkNanos()[i];
            }
            java.util.Arrays.sort(delivery);
            assertThat(delivery[0]).as("earliest delivery").isNotNegative();
            assertThat(delivery[10]).as("median delivery delay").isLessThan(2_000_000L);
            assertThat(delivery[19]).as("slowest delivery").isLessThan(10_000_000L);
            assertThat(result.ttft().orElseThrow().toNanos() / 1e6).isCloseTo(40, within(5.0));
            List<Long> itl = new ArrayList<>();
            result.forEachInterTokenLatency((nanos, tokens) -> itl.add(nanos));
            assertThat(itl).hasSize(19).allSatisfy(nanos -> assertThat(nanos / 1e6).isCloseTo(5, within(2.0)));
        }
    }

    @Test
    void halfReadyServerFailsWithHttp500() {
        try (SglangSimulator simulator = SglangSimulator.builder().fault(Fault.HALF_READY).start()) {
            RequestResult result = client.complete(CompletionRequest.builder(simulator.baseUrl(), simulator.model()).build())
                    .join();
            assertThat(result.failureClass()).isEqualTo("http_500");
            assertThat(result.errorMessage()).contains("no kernel image");
        }
    }
}
