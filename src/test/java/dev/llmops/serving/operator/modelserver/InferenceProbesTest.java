package dev.llmops.serving.operator.modelserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** How many probes run at once, whatever the number of servers and pods, and that a probe turned away is not lost. */
class InferenceProbesTest {

    private static final ModelServer EXAMPLE = TestModelServers.example("small-model-b200.yaml", "probes");

    /** Probes that answer only when the test says so. */
    private static final class HeldProbes implements InferenceClient {
        final List<URI> generations = new ArrayList<>();
        final List<CompletableFuture<Generation>> answers = new ArrayList<>();

        @Override
        public synchronized CompletableFuture<Generation> generate(
                URI baseUrl, String model, String prompt, int maxTokens, Duration timeout, String apiKey) {
            generations.add(baseUrl);
            CompletableFuture<Generation> answer = new CompletableFuture<>();
            answers.add(answer);
            return answer;
        }

        @Override
        public CompletableFuture<Boolean> healthy(URI baseUrl, Duration timeout) {
            return CompletableFuture.completedFuture(true);
        }

        void answerFirst() {
            CompletableFuture<Generation> first;
            synchronized (this) {
                first = answers.remove(0);
            }
            first.complete(new Generation(true, 4, Duration.ofMillis(20), null));
        }
    }

    @Test
    void atMost32ProbesRunAtOnceAcrossAllServers() {
        HeldProbes client = new HeldProbes();
        InferenceProbes probes = new InferenceProbes(client);

        for (int i = 0; i < 40; i++) {
            probes.probeDue(server("s" + i), List.of(pod("s" + i, "10.0.1." + (i + 1))), Optional.empty());
        }

        assertThat(client.generations).hasSize(InferenceProbes.MAX_IN_FLIGHT).hasSize(32);
    }

    @Test
    void probesBeyondTheBoundWaitForAFreeSlotAndEveryPodIsProbedInTheEnd() {
        HeldProbes client = new HeldProbes();
        InferenceProbes probes = new InferenceProbes(client, 3);
        List<ModelServer> servers =
                IntStream.range(0, 4).mapToObj(i -> server("s" + i)).toList();
        List<List<Pod>> pods = IntStream.range(0, 4)
                .mapToObj(i -> List.of(pod("s" + i, "10.0.0." + (2 * i + 1)), pod("s" + i, "10.0.0." + (2 * i + 2))))
                .toList();

        List<Optional<Duration>> due = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            due.add(probes.probeDue(servers.get(i), pods.get(i), Optional.empty()));
        }

        assertThat(client.generations).as("started of 8 due").hasSize(3);
        assertThat(due)
                .allSatisfy(next -> assertThat(next)
                        .hasValueSatisfying(d -> assertThat(d).isLessThanOrEqualTo(InferenceProbes.NOT_READY_PERIOD)));

        client.answerFirst();
        for (int i = 0; i < servers.size(); i++) {
            probes.probeDue(servers.get(i), pods.get(i), Optional.empty());
        }
        assertThat(client.generations).as("one slot freed, one more started").hasSize(4);

        for (int round = 0; round < 8; round++) {
            while (!client.answers.isEmpty()) {
                client.answerFirst();
            }
            for (int i = 0; i < servers.size(); i++) {
                probes.probeDue(servers.get(i), pods.get(i), Optional.empty());
            }
        }
        assertThat(client.generations.stream().distinct())
                .as("every pod probed")
                .hasSize(8);
        assertThat(servers)
                .allSatisfy(server -> assertThat(probes.getSecondaryResources(server))
                        .hasSize(2)
                        .allSatisfy(state -> assertThat(state.probed()).isTrue()));
    }

    private static ModelServer server(String name) {
        ModelServer server = new ModelServer();
        server.setMetadata(new ObjectMetaBuilder()
                .withName(name)
                .withNamespace("probes")
                .withUid("uid-" + name)
                .build());
        server.setSpec(EXAMPLE.getSpec());
        return server;
    }

    private static Pod pod(String server, String ip) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(server + "-" + ip)
                .withNamespace("probes")
                .withUid("uid-" + server + "-" + ip)
                .endMetadata()
                .withNewStatus()
                .withPhase("Running")
                .withPodIP(ip)
                .endStatus()
                .build();
    }
}
