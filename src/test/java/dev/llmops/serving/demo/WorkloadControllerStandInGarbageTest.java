package dev.llmops.serving.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerSpec;
import dev.llmops.serving.demo.apiserver.EmbeddedKubernetes;
import dev.llmops.serving.operator.toolkit.Owners;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Deleting an owner takes its dependents with it, as the garbage collector does: a ModelServer's Deployment, then
 * the Deployment's ReplicaSet and pods. What an unknown kind owns is left alone.
 */
class WorkloadControllerStandInGarbageTest {

    private static final String NS = "default";

    private EmbeddedKubernetes kubernetes;
    private WorkloadControllerStandIn workloads;

    @BeforeEach
    void start() {
        kubernetes = EmbeddedKubernetes.start(0);
        workloads = new WorkloadControllerStandIn(kubernetes.client()).start();
    }

    @AfterEach
    void stop() {
        workloads.close();
        kubernetes.close();
    }

    @Test
    void aDeletedModelServersDeploymentReplicaSetAndPodsGoWithIt() {
        KubernetesClient client = kubernetes.client();
        ModelServer server = new ModelServer();
        server.setMetadata(
                new ObjectMetaBuilder().withName("llm").withNamespace(NS).build());
        server.setSpec(new ModelServerSpec());
        ModelServer created = client.resource(server).create();
        client.resource(deployment(created)).create();
        ConfigMap foreign = client.resource(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName("widget-settings")
                        .withNamespace(NS)
                        .withOwnerReferences(new OwnerReferenceBuilder()
                                .withApiVersion("example.dev/v1")
                                .withKind("Widget")
                                .withName("gone")
                                .withUid("0a6f4c1e-0000-4000-8000-000000000000")
                                .build())
                        .endMetadata()
                        .build())
                .create();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !client.pods().inNamespace(NS).list().getItems().isEmpty());

        client.resource(created).delete();

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(client.apps().deployments().inNamespace(NS).list().getItems())
                    .isEmpty();
            assertThat(client.apps().replicaSets().inNamespace(NS).list().getItems())
                    .isEmpty();
            assertThat(client.pods().inNamespace(NS).list().getItems()).isEmpty();
        });
        assertThat(client.configMaps()
                        .inNamespace(NS)
                        .withName(foreign.getMetadata().getName())
                        .get())
                .isNotNull();
    }

    private static Deployment deployment(ModelServer owner) {
        return new DeploymentBuilder()
                .withNewMetadata()
                .withName("llm")
                .withNamespace(NS)
                .withOwnerReferences(Owners.controllerReference(owner))
                .endMetadata()
                .withNewSpec()
                .withReplicas(1)
                .withNewSelector()
                .addToMatchLabels("app", "llm")
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .addToLabels("app", "llm")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("sglang")
                .withImage("lmsysorg/sglang")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }
}
