package dev.llmops.serving.demo.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.operator.toolkit.PodLogs;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Pod logs are read through the API from the registered source, as the operator and kubectl logs read them. */
class EmbeddedKubernetesPodLogTest {

    private static final String NAMESPACE = "default";
    private static final String LOG = "loading weights\ncompiling CUDA graphs\nserver ready\n";

    private static EmbeddedKubernetes kubernetes;
    private static KubernetesClient client;
    private static Pod server;

    @BeforeAll
    static void start() {
        kubernetes = EmbeddedKubernetes.start(0);
        client = kubernetes.client();
        server = client.resource(pod("server", "sglang")).create();
        client.resource(pod("two-containers", "sglang", "sidecar")).create();
        client.resource(pod("silent", "sglang")).create();
    }

    @BeforeEach
    void recordLogs() {
        Map<String, String> logs = Map.of("server/sglang", LOG, "two-containers/sidecar", "sidecar up\n");
        kubernetes.servePodLogs((namespace, pod, container) ->
                NAMESPACE.equals(namespace) ? Optional.ofNullable(logs.get(pod + "/" + container)) : Optional.empty());
    }

    @AfterAll
    static void stop() {
        kubernetes.close();
    }

    @Test
    void wholeLogOfThePodsOnlyContainer() {
        assertThat(client.pods().inNamespace(NAMESPACE).withName("server").getLog())
                .isEqualTo(LOG);
    }

    @Test
    void tailLinesAndLimitBytesCutTheLog() {
        var log = client.pods().inNamespace(NAMESPACE).withName("server");

        assertThat(log.tailingLines(2).getLog()).isEqualTo("compiling CUDA graphs\nserver ready\n");
        assertThat(log.tailingLines(0).getLog()).isEmpty();
        assertThat(log.tailingLines(10).getLog()).isEqualTo(LOG);
        assertThat(log.limitBytes(7).getLog()).isEqualTo("loading");
        assertThat(log.limitBytes(6).tailingLines(1).getLog()).isEqualTo("server");
    }

    @Test
    void theOperatorsReaderGetsTheTail() {
        assertThat(new PodLogs(client).tail(server, "sglang", 1, false)).hasValue("server ready\n");
        assertThat(new PodLogs(client).tail(server, "sglang", 1, true)).isEmpty();
    }

    @Test
    void containerParameterSelectsTheContainer() {
        assertThat(client.pods()
                        .inNamespace(NAMESPACE)
                        .withName("two-containers")
                        .inContainer("sidecar")
                        .getLog())
                .isEqualTo("sidecar up\n");
    }

    @Test
    void answersAreTextPlainOrAStatus() {
        RawApi api = new RawApi(kubernetes);
        HttpResponse<String> log = api.get("/api/v1/namespaces/default/pods/server/log?tailLines=1", "*/*");
        HttpResponse<String> missing = api.get("/api/v1/namespaces/default/pods/silent/log", "*/*");

        assertThat(log.headers().firstValue("Content-Type")).hasValue("text/plain");
        assertThat(log.body()).isEqualTo("server ready\n");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.body()).contains("\"kind\":\"Status\"", "\"reason\":\"NotFound\"");
        assertThat(api.get("/api/v1/namespaces/default/pods/server/log?tailLines=-1", "*/*")
                        .statusCode())
                .isEqualTo(400);
    }

    @Test
    void failuresAreThoseOfKubeApiserver() {
        assertThat(status(() ->
                        client.pods().inNamespace(NAMESPACE).withName("absent").getLog()))
                .isEqualTo(404);
        assertThat(status(() ->
                        client.pods().inNamespace(NAMESPACE).withName("silent").getLog()))
                .isEqualTo(404);
        assertThat(status(() -> client.pods()
                        .inNamespace(NAMESPACE)
                        .withName("two-containers")
                        .getLog()))
                .isEqualTo(400);
        assertThat(status(() -> client.pods()
                        .inNamespace(NAMESPACE)
                        .withName("server")
                        .inContainer("other")
                        .getLog()))
                .isEqualTo(400);
        assertThat(status(() -> client.pods()
                        .inNamespace(NAMESPACE)
                        .withName("server")
                        .terminated()
                        .getLog()))
                .isEqualTo(400);
    }

    @Test
    void withoutASourceThereIsNoLog() {
        try (EmbeddedKubernetes withoutSource = EmbeddedKubernetes.start(0)) {
            withoutSource.client().resource(pod("server", "sglang")).create();

            assertThat(status(() -> withoutSource
                            .client()
                            .pods()
                            .inNamespace(NAMESPACE)
                            .withName("server")
                            .getLog()))
                    .isEqualTo(404);
        }
    }

    private static int status(Runnable read) {
        try {
            read.run();
        } catch (KubernetesClientException e) {
            return e.getCode();
        }
        throw new AssertionError("the log read succeeded");
    }

    private static Pod pod(String name, String... containers) {
        PodBuilder pod = new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(NAMESPACE)
                .endMetadata();
        var spec = pod.withNewSpec();
        for (String container : containers) {
            spec.addNewContainer()
                    .withName(container)
                    .withImage("example/" + container)
                    .endContainer();
        }
        return spec.endSpec().build();
    }
}
