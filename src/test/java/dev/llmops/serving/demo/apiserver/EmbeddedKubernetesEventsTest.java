package dev.llmops.serving.demo.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Event lists honour field selectors on the involved object, as kubectl describe and the operator use them. */
class EmbeddedKubernetesEventsTest {

    private static final String NAMESPACE = "default";

    private static EmbeddedKubernetes kubernetes;
    private static KubernetesClient client;

    @BeforeAll
    static void start() {
        kubernetes = EmbeddedKubernetes.start(0);
        client = kubernetes.client();
        client.resource(event("qwen3-8b.1", "ModelServer", "qwen3-8b", "Scheduling"))
                .create();
        client.resource(event("qwen3-8b-pod.1", "Pod", "qwen3-8b-0", "FailedScheduling"))
                .create();
        client.resource(event("qwen3-8b-pod.2", "Pod", "qwen3-8b-0", "Pulled")).create();
    }

    @AfterAll
    static void stop() {
        kubernetes.close();
    }

    @Test
    void selectorsOnTheInvolvedObjectAndReasonFilterTheList() {
        assertThat(client.v1()
                        .events()
                        .inNamespace(NAMESPACE)
                        .withField("involvedObject.name", "qwen3-8b-0")
                        .list()
                        .getItems())
                .extracting(e -> e.getMetadata().getName())
                .containsExactlyInAnyOrder("qwen3-8b-pod.1", "qwen3-8b-pod.2");
        assertThat(client.v1()
                        .events()
                        .inNamespace(NAMESPACE)
                        .withField("involvedObject.name", "qwen3-8b-0")
                        .withField("reason", "FailedScheduling")
                        .list()
                        .getItems())
                .extracting(e -> e.getMetadata().getName())
                .containsExactly("qwen3-8b-pod.1");
        assertThat(client.v1()
                        .events()
                        .inNamespace(NAMESPACE)
                        .withoutField("involvedObject.kind", "Pod")
                        .list()
                        .getItems())
                .extracting(e -> e.getMetadata().getName())
                .containsExactly("qwen3-8b.1");
    }

    @Test
    void theFilteredListIsAnEventList() {
        JsonNode list = new RawApi(kubernetes)
                .json("/api/v1/namespaces/default/events"
                        + "?fieldSelector=involvedObject.kind%3DModelServer%2CinvolvedObject.name%3Dqwen3-8b");

        assertThat(list.path("kind").asText()).isEqualTo("EventList");
        assertThat(list.path("items")).hasSize(1);
    }

    private static Event event(String name, String kind, String object, String reason) {
        return new EventBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(NAMESPACE)
                .endMetadata()
                .withNewInvolvedObject()
                .withKind(kind)
                .withName(object)
                .withNamespace(NAMESPACE)
                .endInvolvedObject()
                .withReason(reason)
                .withType("Normal")
                .withMessage(reason + " of " + object)
                .build();
    }
}
