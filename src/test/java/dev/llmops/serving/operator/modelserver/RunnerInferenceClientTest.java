package dev.llmops.serving.operator.modelserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.modelserver.LoopbackHttp;
import dev.llmops.serving.runner.transport.CompletionRequest;
import dev.llmops.serving.runner.transport.OpenAiClient;
import dev.llmops.serving.runner.transport.RequestResult;
import dev.llmops.serving.simulator.SglangSimulator;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The operator's probes over the runner's client: against the simulator, a generation and health on one event loop;
 * against bare loopback servers, answers past the probe's small caps.
 */
class RunnerInferenceClientTest {

    @Test
    void probesGenerateAndCheckHealthOnOneEventLoop() {
        Set<String> before = eventLoopThreads();
        RunnerInferenceClient client = new RunnerInferenceClient();
        try (SglangSimulator simulator =
                SglangSimulator.builder().model("m").ttft(Duration.ZERO).start()) {
            URI url = simulator.baseUrl();
            // several at once: one event loop serves them all
            List<CompletableFuture<InferenceClient.Generation>> probes = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                probes.add(client.generate(url, "m", "hello", 4, Duration.ofSeconds(10), null));
            }
            InferenceClient.Generation generation = probes.get(3).join();
            probes.forEach(CompletableFuture::join);
            boolean healthy = client.healthy(url, Duration.ofSeconds(5)).join();

            assertThat(generation.succeeded()).as(generation.error()).isTrue();
            assertThat(generation.outputTokens()).isEqualTo(4);
            assertThat(healthy).isTrue();
            assertThat(eventLoopThreads())
                    .as("started by this client (others may belong to clients of other tests)")
                    .filteredOn(name -> !before.contains(name))
                    .hasSize(1);
        } finally {
            client.close();
        }
    }

    /**
     * Answers a benchmark would take in its stride, a 20 KiB token and a 100 KiB whole answer, are more than a probe
     * reads: it fails them as too large, and a /health body past 4 KiB is no health.
     */
    @Test
    void aProbeHoldsNoMoreThanItsSmallCaps() {
        String bigToken = "x".repeat(20 * 1024);
        byte[] bigEvent = ("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + bigToken
                        + "\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
                .getBytes(StandardCharsets.UTF_8);
        byte[] bigBody = ("{\"choices\":[{\"index\":0,\"message\":{\"content\":\"" + "y".repeat(100 * 1024)
                        + "\"},\"finish_reason\":\"stop\"}]}")
                .getBytes(StandardCharsets.UTF_8);
        RunnerInferenceClient probes = new RunnerInferenceClient();
        try (LoopbackHttp streaming = LoopbackHttp.start(
                        "127.0.0.1", exchange -> LoopbackHttp.send(exchange, 200, "text/event-stream", bigEvent));
                LoopbackHttp whole = LoopbackHttp.start(
                        "127.0.0.1", exchange -> LoopbackHttp.send(exchange, 200, "application/json", bigBody));
                OpenAiClient runner = OpenAiClient.create(1, Duration.ofSeconds(5))) {
            RequestResult benchmark = runner.complete(CompletionRequest.builder(streaming.baseUrl(), "m")
                            .timeout(Duration.ofSeconds(10))
                            .build())
                    .join();
            InferenceClient.Generation streamed = probes.generate(
                            streaming.baseUrl(), "m", "hello", 4, Duration.ofSeconds(10), null)
                    .join();
            InferenceClient.Generation answered = probes.generate(
                            whole.baseUrl(), "m", "hello", 4, Duration.ofSeconds(10), null)
                    .join();
            boolean healthy =
                    probes.healthy(whole.baseUrl(), Duration.ofSeconds(5)).join();

            assertThat(benchmark.succeeded()).as(benchmark.errorMessage()).isTrue();
            assertThat(streamed.succeeded()).isFalse();
            assertThat(streamed.error()).isEqualTo("too_large: response line exceeds 16 KiB after 0 chunks");
            assertThat(answered.succeeded()).isFalse();
            assertThat(answered.error()).isEqualTo("too_large: response body exceeds 64 KiB");
            assertThat(healthy).as("a 100 KiB /health body").isFalse();
        } finally {
            probes.close();
        }
    }

    private static Set<String> eventLoopThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .filter(name -> name.startsWith("openai-client-"))
                .filter(name -> !name.startsWith("openai-client-get") && !name.startsWith("openai-client-deadlines"))
                .collect(Collectors.toSet());
    }
}
