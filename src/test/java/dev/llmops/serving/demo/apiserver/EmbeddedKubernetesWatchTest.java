package dev.llmops.serving.demo.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * kubectl get -w's plain HTTP watch: a chunked stream of one JSON event per line, from the list's resourceVersion on,
 * as Table rows when asked, ended when the API stops.
 */
class EmbeddedKubernetesWatchTest {

    private static final String NAMESPACE = "default";
    private static final String CONFIG_MAPS = "/api/v1/namespaces/" + NAMESPACE + "/configmaps";
    private static final String PODS = "/api/v1/namespaces/" + NAMESPACE + "/pods";
    private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration EVENT_TIMEOUT = Duration.ofSeconds(10);

    private EmbeddedKubernetes kubernetes;
    private KubernetesClient client;

    @BeforeEach
    void start() {
        kubernetes = EmbeddedKubernetes.start(0);
        client = kubernetes.client();
    }

    @AfterEach
    void stop() {
        kubernetes.close();
    }

    @Test
    void aWatchFromTheListsResourceVersionSeesEachLaterChangeInOrder() throws Exception {
        client.resource(configMap("before")).create();
        String listVersion = new RawApi(kubernetes)
                .json(CONFIG_MAPS)
                .path("metadata")
                .path("resourceVersion")
                .asText();
        client.resource(configMap("missed-by-nobody")).create();

        try (Stream watch =
                Stream.open(kubernetes, CONFIG_MAPS + "?watch=true&resourceVersion=" + listVersion, "*/*")) {
            client.configMaps()
                    .inNamespace(NAMESPACE)
                    .withName("missed-by-nobody")
                    .edit(map -> new ConfigMapBuilder(map).addToData("k", "v").build());
            client.configMaps()
                    .inNamespace(NAMESPACE)
                    .withName("missed-by-nobody")
                    .delete();

            assertThat(watch.statusCode()).isEqualTo(200);
            JsonNode added = watch.next();
            JsonNode modified = watch.next();
            JsonNode deleted = watch.next();
            assertThat(added.path("type").asText()).isEqualTo("ADDED");
            assertThat(added.path("object").path("metadata").path("name").asText())
                    .isEqualTo("missed-by-nobody");
            assertThat(modified.path("type").asText()).isEqualTo("MODIFIED");
            assertThat(modified.path("object").path("data").path("k").asText()).isEqualTo("v");
            assertThat(deleted.path("type").asText()).isEqualTo("DELETED");
            assertThat(deleted.path("object")
                            .path("metadata")
                            .path("resourceVersion")
                            .asLong())
                    .as("a deletion has a resourceVersion of its own")
                    .isGreaterThan(modified.path("object")
                            .path("metadata")
                            .path("resourceVersion")
                            .asLong());
        }
    }

    @Test
    void withoutResourceVersionEveryCurrentObjectComesFirstAsAdded() throws Exception {
        client.resource(configMap("existing")).create();

        try (Stream watch = Stream.open(kubernetes, CONFIG_MAPS + "?watch=1", "application/json")) {
            JsonNode first = watch.next();

            assertThat(first.path("type").asText()).isEqualTo("ADDED");
            assertThat(first.path("object").path("metadata").path("name").asText())
                    .isEqualTo("existing");
        }
    }

    @Test
    void aTableWatchSendsOneRowTablesWithTheKindsColumns() throws Exception {
        try (Stream watch = Stream.open(kubernetes, PODS + "?watch=true&includeObject=Object", TABLE)) {
            client.pods()
                    .inNamespace(NAMESPACE)
                    .resource(new io.fabric8.kubernetes.api.model.PodBuilder()
                            .withNewMetadata()
                            .withName("sglang-0")
                            .endMetadata()
                            .withNewSpec()
                            .addNewContainer()
                            .withName("sglang")
                            .withImage("lmsysorg/sglang")
                            .endContainer()
                            .endSpec()
                            .build())
                    .create();

            JsonNode table = watch.next().path("object");
            assertThat(table.path("kind").asText()).isEqualTo("Table");
            assertThat(table.path("columnDefinitions").get(1).path("name").asText())
                    .isEqualTo("Ready");
            assertThat(table.path("rows")).hasSize(1);
            assertThat(table.path("rows").get(0).path("cells").get(0).asText()).isEqualTo("sglang-0");
            assertThat(table.path("rows").get(0).path("object").path("kind").asText())
                    .isEqualTo("Pod");
        }
    }

    @Test
    void aWatchOnlySeesItsPathAndSelectors() throws Exception {
        try (Stream watch = Stream.open(kubernetes, CONFIG_MAPS + "?watch=true&labelSelector=app%3Dsglang", "*/*")) {
            client.resource(configMap("unlabelled")).create();
            client.resource(new ConfigMapBuilder(configMap("labelled"))
                            .editMetadata()
                            .addToLabels("app", "sglang")
                            .endMetadata()
                            .build())
                    .create();

            assertThat(watch.next().path("object").path("metadata").path("name").asText())
                    .isEqualTo("labelled");
        }
    }

    @Test
    void theWatchEndsWhenTheApiStops() throws Exception {
        try (Stream watch = Stream.open(kubernetes, CONFIG_MAPS + "?watch=true", "*/*")) {
            kubernetes.close();

            assertThat(watch.ended()).isTrue();
        }
        kubernetes = EmbeddedKubernetes.start(0);
    }

    private static ConfigMap configMap(String name) {
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(NAMESPACE)
                .endMetadata()
                .build();
    }

    /** An open watch response whose lines a reader thread queues as they arrive. */
    private static final class Stream implements AutoCloseable {

        private static final String END = "";

        private final HttpResponse<InputStream> response;
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final Thread reader;

        private Stream(HttpResponse<InputStream> response) {
            this.response = response;
            this.reader = new Thread(this::read, "watch-reader");
            reader.setDaemon(true);
            reader.start();
        }

        static Stream open(EmbeddedKubernetes kubernetes, String path, String accept) throws Exception {
            HttpRequest request = HttpRequest.newBuilder(URI.create(kubernetes.url() + path))
                    .header("Accept", accept)
                    .GET()
                    .build();
            return new Stream(HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofInputStream()));
        }

        int statusCode() {
            return response.statusCode();
        }

        JsonNode next() throws InterruptedException, IOException {
            String line = lines.poll(EVENT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            if (line == null || line.equals(END)) {
                throw new AssertionError("no event within " + EVENT_TIMEOUT);
            }
            return JSON.readTree(line);
        }

        boolean ended() throws InterruptedException {
            String line;
            do {
                line = lines.poll(EVENT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } while (line != null && !line.equals(END));
            return line != null;
        }

        private void read() {
            try (BufferedReader in =
                    new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                in.lines().forEach(lines::add);
            } catch (IOException | UncheckedIOException e) {
                lines.add("{\"readFailed\":\"" + e.getClass().getSimpleName() + "\"}");
            }
            lines.add(END);
        }

        @Override
        public void close() throws IOException {
            response.body().close();
        }
    }
}
