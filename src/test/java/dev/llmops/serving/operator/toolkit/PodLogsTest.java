package dev.llmops.serving.operator.toolkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodListBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Log reads against an API server on loopback that lists the pod as running (the client looks it up first) and answers
 * the log request itself as told: one log request, never the client's retries.
 */
class PodLogsTest {

    private final List<String> logRequests = new CopyOnWriteArrayList<>();
    private final Pod pod = new PodBuilder()
            .withNewMetadata()
            .withNamespace("llm")
            .withName("bench-x")
            .endMetadata()
            .build();
    private HttpServer server;
    private KubernetesClient client;

    @AfterEach
    void stop() {
        client.close();
        server.stop(0);
    }

    @Test
    void aServerErrorGivesNoLogAfterOneRequest() throws IOException {
        start(500, "no preferred addresses found; known addresses: []");

        assertThat(new PodLogs(client).tail(pod, "bench", 100, false)).isEmpty();
        assertThat(logRequests).hasSize(1);
    }

    @Test
    void readsTheTailOfTheNamedContainer() throws IOException {
        start(200, "PROGRESS 1/3 warmup\nPROGRESS 2/3 single\n");

        assertThat(new PodLogs(client).tail(pod, "bench", 5, true))
                .contains("PROGRESS 1/3 warmup\nPROGRESS 2/3 single\n");
        assertThat(logRequests)
                .singleElement()
                .satisfies(request -> assertThat(request)
                        .startsWith("/api/v1/namespaces/llm/pods/bench-x/log?")
                        .contains(
                                "container=bench",
                                "tailLines=5",
                                "previous=true",
                                "limitBytes=" + PodLogs.MAX_TAIL_BYTES));
    }

    @Test
    void aBoundedReadAsksTheApiServerToStopAfterTheLimit() throws IOException {
        start(200, "quality: 3 prompts, 96 tokens\nLLM-SERVING-SAMPLES v1 H4sI\n");

        assertThat(new PodLogs(client).tail(pod, "bench", 5, 1 << 20))
                .isEqualTo(
                        new PodLogs.BoundedTail("quality: 3 prompts, 96 tokens\nLLM-SERVING-SAMPLES v1 H4sI\n", false));
        assertThat(logRequests)
                .singleElement()
                .satisfies(request -> assertThat(request)
                        .startsWith("/api/v1/namespaces/llm/pods/bench-x/log?")
                        .contains("container=bench", "tailLines=5", "limitBytes=1048576")
                        .doesNotContain("previous=true"));
    }

    @Test
    void aBoundedReadGivesNoLogAfterOneFailedRequest() throws IOException {
        start(503, "kubelet unreachable");

        assertThat(new PodLogs(client).tail(pod, "bench", 5, 1 << 20)).isEqualTo(new PodLogs.BoundedTail(null, false));
        assertThat(logRequests).hasSize(1);
    }

    @Test
    void aBoundedReadOfAPodTheApiServerNoLongerHasSaysThePodIsGone() throws IOException {
        start(404, "pods \"bench-x\" not found");

        assertThat(new PodLogs(client).tail(pod, "bench", 5, 1 << 20)).isEqualTo(new PodLogs.BoundedTail(null, true));
    }

    private void start(int code, String body) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        String podList = new KubernetesSerialization()
                .asJson(new PodListBuilder()
                        .addToItems(new PodBuilder(pod)
                                .withNewStatus()
                                .withPhase("Running")
                                .addNewCondition()
                                .withType("Ready")
                                .withStatus("True")
                                .endCondition()
                                .endStatus()
                                .build())
                        .build());
        server.createContext("/", exchange -> {
            String uri = exchange.getRequestURI().toString();
            boolean logRequest = exchange.getRequestURI().getPath().endsWith("/log");
            if (logRequest) {
                logRequests.add(uri);
            }
            byte[] bytes = (logRequest ? body : podList).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(logRequest ? code : 200, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        client = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder()
                        .withMasterUrl("http://127.0.0.1:" + server.getAddress().getPort())
                        .withRequestRetryBackoffInterval(10)
                        .build())
                .build();
    }
}
