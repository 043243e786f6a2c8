package dev.llmops.serving.runner.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.simulator.Fault;
import dev.llmops.serving.simulator.SglangSimulator;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The client against a server whose answers never end: every read stops at its cap or deadline and the request fails
 * with a reason, while answers as large as a real server's still fit.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HostileServerTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static OpenAiClient client;

    @BeforeAll
    static void createClient() {
        client = OpenAiClient.create(2, Duration.ofSeconds(5));
    }

    @AfterAll
    static void closeClient() {
        client.close();
    }

    @Test
    void anEndlessDataLineFailsAtTheLineCap() {
        try (SglangSimulator simulator = simulator(Fault.ENDLESS_LINE)) {
            RequestResult result = client.complete(request(simulator, true)).join();

            assertThat(result.failureClass()).isEqualTo(FailureClass.TOO_LARGE);
            assertThat(result.errorMessage()).isEqualTo("response line exceeds 1 MiB after 0 chunks");
        }
    }

    @Test
    void anEndlessEventFailsAtTheEventCap() {
        try (SglangSimulator simulator = simulator(Fault.ENDLESS_EVENT)) {
            RequestResult result = client.complete(request(simulator, true)).join();

            assertThat(result.failureClass()).isEqualTo(FailureClass.TOO_LARGE);
            assertThat(result.errorMessage()).isEqualTo("server-sent event exceeds 1 MiB after 0 chunks");
        }
    }

    @Test
    void endlessTokenChunksFailPastTwiceMaxTokens() {
        try (SglangSimulator simulator = simulator(Fault.HUGE_BODY)) {
            RequestResult result = client.complete(request(simulator, true)).join();

            assertThat(result.failureClass()).isEqualTo(FailureClass.TOO_LARGE);
            assertThat(result.errorMessage()).isEqualTo("more than 96 chunks with text or tokens for max_tokens 16");
        }
    }

    @Test
    void anEndlessWholeBodyFailsAtTheBodyCap() {
        try (SglangSimulator simulator = simulator(Fault.HUGE_BODY)) {
            RequestResult result = client.complete(request(simulator, false)).join();

            assertThat(result.failureClass()).isEqualTo(FailureClass.TOO_LARGE);
            assertThat(result.errorMessage()).isEqualTo("response body exceeds 16 MiB");
        }
    }

    @Test
    void endlessHealthAndModelBodiesFailAtTheGetCap() {
        try (SglangSimulator simulator = simulator(Fault.HUGE_BODY)) {
            for (String path : new String[] {"/health", "/v1/models"}) {
                EndpointResponse response =
                        client.get(simulator.baseUrl(), path, null, TIMEOUT).join();

                assertThat(response.failureClass()).as(path).isEqualTo(FailureClass.TOO_LARGE);
                assertThat(response.errorMessage()).as(path).isEqualTo("response body exceeds 1 MiB");
                assertThat(response.isOk()).as(path).isFalse();
            }
        }
    }

    @Test
    void aSlowDripTimesOutOnEveryRead() {
        try (SglangSimulator simulator = simulator(Fault.SLOW_DRIP)) {
            Duration shortTimeout = Duration.ofSeconds(1);
            EndpointResponse health = client.get(simulator.baseUrl(), "/health", null, shortTimeout)
                    .join();
            RequestResult completion = client.complete(request(simulator, true).toBuilder()
                            .timeout(shortTimeout)
                            .build())
                    .join();

            assertThat(health.failureClass()).isEqualTo(FailureClass.TIMEOUT);
            assertThat(health.errorMessage()).startsWith("no complete answer within 1000 ms (");
            assertThat(health.latency()).isLessThan(Duration.ofSeconds(10));
            assertThat(completion.failureClass()).isEqualTo(FailureClass.TIMEOUT);
            assertThat(completion.errorMessage()).startsWith("no complete answer within 1000 ms");
        }
    }

    @Test
    void answersAsLargeAsARealServersFitUnderTheCaps() {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .host("127.0.0.62")
                .ttft(Duration.ZERO)
                .tokenDelay(Duration.ZERO)
                .start()) {
            for (boolean stream : new boolean[] {true, false}) {
                RequestResult result = client.complete(CompletionRequest.builder(simulator.baseUrl(), simulator.model())
                                .maxTokens(4096)
                                .ignoreEos(true)
                                .logprobs(true)
                                .stream(stream)
                                .timeout(TIMEOUT)
                                .build())
                        .join();

                assertThat(result.succeeded())
                        .as("stream %s: %s", stream, result.errorMessage())
                        .isTrue();
                assertThat(result.outputTokens()).isEqualTo(4096);
            }
        }
    }

    private static SglangSimulator simulator(Fault fault) {
        return SglangSimulator.builder().host("127.0.0.61").fault(fault).start();
    }

    private static CompletionRequest request(SglangSimulator simulator, boolean stream) {
        return CompletionRequest.builder(simulator.baseUrl(), simulator.model()).maxTokens(16).stream(stream)
                .timeout(TIMEOUT)
                .build();
    }
}
