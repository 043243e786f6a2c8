package dev.llmops.serving.modelserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.simulator.SglangSimulator;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The operator's probes over the runner's client, against the simulator: a generation and health, one event loop. */
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

    private static Set<String> eventLoopThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .filter(name -> name.startsWith("openai-client-"))
                .filter(name -> !name.startsWith("openai-client-get") && !name.startsWith("openai-client-deadlines"))
                .collect(Collectors.toSet());
    }
}
