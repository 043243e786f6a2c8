package dev.llmops.serving.demo.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerPhase;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerSpec;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerStatus;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelSpec;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The embedded API serves our CRDs and the server-side apply calls the operator makes in production. */
class EmbeddedKubernetesTest {

    private static EmbeddedKubernetes kubernetes;
    private static KubernetesClient client;

    @BeforeAll
    static void start() {
        kubernetes = EmbeddedKubernetes.start(0);
        client = kubernetes.client();
    }

    @AfterAll
    static void stop() {
        kubernetes.close();
    }

    @Test
    void crdsAreInstalled() {
        assertThat(client.apiextensions()
                        .v1()
                        .customResourceDefinitions()
                        .list()
                        .getItems())
                .extracting(crd -> crd.getMetadata().getName())
                .containsExactlyInAnyOrder(
                        "modelservers.serving.llmops.dev",
                        "benchmarkruns.serving.llmops.dev",
                        "servingexperiments.serving.llmops.dev");
    }

    @Test
    void applyCreatesThenMergesKeepingOtherFields() {
        ConfigMap first = new ConfigMapBuilder()
                .withNewMetadata()
                .withName("applied")
                .withNamespace("default")
                .endMetadata()
                .withData(Map.of("a", "1"))
                .build();
        client.resource(first).fieldManager("test").forceConflicts().serverSideApply();
        ConfigMap finalizerOnly = new ConfigMapBuilder()
                .withNewMetadata()
                .withName("applied")
                .withNamespace("default")
                .withFinalizers("example.dev/finalizer")
                .endMetadata()
                .build();
        client.resource(finalizerOnly).fieldManager("test").forceConflicts().serverSideApply();

        ConfigMap stored =
                client.configMaps().inNamespace("default").withName("applied").get();
        assertThat(stored.getData()).containsEntry("a", "1");
        assertThat(stored.getMetadata().getFinalizers()).containsExactly("example.dev/finalizer");
    }

    @Test
    void statusApplyReplacesTheStatusAndKeepsTheSpec() {
        ModelServer server = new ModelServer();
        server.setMetadata(new ObjectMetaBuilder()
                .withName("status-apply")
                .withNamespace("default")
                .build());
        server.setSpec(new ModelServerSpec());
        server.getSpec().model = new ModelSpec();
        server.getSpec().model.path = "Qwen/Qwen3-8B";
        client.resource(server).create();

        ModelServer statusOnly = new ModelServer();
        statusOnly.setMetadata(new ObjectMetaBuilder()
                .withName("status-apply")
                .withNamespace("default")
                .build());
        statusOnly.setStatus(new ModelServerStatus());
        statusOnly.getStatus().phase = ModelServerPhase.Loading;
        statusOnly.getStatus().serverArgs = List.of("--tp-size", "1");
        client.resource(statusOnly)
                .subresource("status")
                .patch(new PatchContext.Builder()
                        .withFieldManager("test")
                        .withForce(true)
                        .withPatchType(PatchType.SERVER_SIDE_APPLY)
                        .build());

        ModelServer stored = client.resources(ModelServer.class)
                .inNamespace("default")
                .withName("status-apply")
                .get();
        assertThat(stored.getSpec().model.path).isEqualTo("Qwen/Qwen3-8B");
        assertThat(stored.getStatus().phase).isEqualTo(ModelServerPhase.Loading);
        assertThat(stored.getStatus().serverArgs).containsExactly("--tp-size", "1");
    }
}
