package dev.llmops.serving.demo.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Owner references are honoured as the controller manager's garbage collector honours them: deleting a BenchmarkRun
 * deletes its Job, the Job's pod and the samples ConfigMap, and a run applied again starts clean.
 */
class EmbeddedKubernetesGarbageTest {

    private static final String NS = "default";

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
    void deletingARunDeletesItsJobTheJobsPodAndItsConfigMap() {
        BenchmarkRun run = client.resource(run()).create();
        Job job = client.resource(new JobBuilder()
                        .withNewMetadata()
                        .withName("eagle3-bench")
                        .withNamespace(NS)
                        .withOwnerReferences(ownedBy(run))
                        .endMetadata()
                        .withNewSpec()
                        .withNewTemplate()
                        .withNewSpec()
                        .addNewContainer()
                        .withName("bench")
                        .withImage("runner")
                        .endContainer()
                        .endSpec()
                        .endTemplate()
                        .endSpec()
                        .build())
                .create();
        client.resource(pod("eagle3-bench-x1", ownedBy(job))).create();
        client.resource(configMap("eagle3-samples", ownedBy(run))).create();

        client.resource(run).delete();

        assertThat(client.batch().v1().jobs().inNamespace(NS).list().getItems()).isEmpty();
        assertThat(client.pods().inNamespace(NS).list().getItems()).isEmpty();
        assertThat(client.configMaps()
                        .inNamespace(NS)
                        .withName("eagle3-samples")
                        .get())
                .isNull();

        BenchmarkRun again = client.resource(run()).create();
        client.resource(configMap("eagle3-samples", ownedBy(again))).create();
        assertThat(client.configMaps()
                        .inNamespace(NS)
                        .withName("eagle3-samples")
                        .get())
                .isNotNull();
    }

    @Test
    void aDependentWithAnotherLiveOwnerStays() {
        ConfigMap first = client.resource(configMap("first", null)).create();
        ConfigMap second = client.resource(configMap("second", null)).create();
        client.resource(new ConfigMapBuilder(configMap("shared", ownedBy(first)))
                        .editMetadata()
                        .addToOwnerReferences(ownedBy(second))
                        .endMetadata()
                        .build())
                .create();

        client.resource(first).delete();

        assertThat(client.configMaps().inNamespace(NS).withName("shared").get()).isNotNull();
        client.resource(second).delete();
        assertThat(client.configMaps().inNamespace(NS).withName("shared").get()).isNull();
    }

    @Test
    void aDependentCreatedAfterItsOwnerWentIsDeleted() {
        ConfigMap owner = client.resource(configMap("owner", null)).create();
        client.resource(owner).delete();

        client.resource(pod("late", ownedBy(owner))).create();

        assertThat(client.pods().inNamespace(NS).withName("late").get()).isNull();
    }

    @Test
    void whatAKindThisApiDoesNotServeOwnsIsLeftAlone() {
        client.resource(configMap(
                        "widget-settings",
                        new OwnerReferenceBuilder()
                                .withApiVersion("example.dev/v1")
                                .withKind("Widget")
                                .withName("gone")
                                .withUid("0a6f4c1e-0000-4000-8000-000000000000")
                                .build()))
                .create();

        assertThat(client.configMaps()
                        .inNamespace(NS)
                        .withName("widget-settings")
                        .get())
                .isNotNull();
    }

    private BenchmarkRun run() {
        return client.getKubernetesSerialization().unmarshal("""
                apiVersion: serving.llmops.dev/v1alpha1
                kind: BenchmarkRun
                metadata:
                  name: eagle3
                  namespace: default
                spec:
                  target:
                    modelServer: llm-eagle3
                """, BenchmarkRun.class);
    }

    private static OwnerReference ownedBy(HasMetadata owner) {
        return new OwnerReferenceBuilder()
                .withApiVersion(owner.getApiVersion())
                .withKind(owner.getKind())
                .withName(owner.getMetadata().getName())
                .withUid(owner.getMetadata().getUid())
                .withController(true)
                .build();
    }

    private static Pod pod(String name, OwnerReference owner) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(NS)
                .withOwnerReferences(owner)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("bench")
                .withImage("runner")
                .endContainer()
                .endSpec()
                .build();
    }

    private static ConfigMap configMap(String name, OwnerReference owner) {
        ConfigMapBuilder map = new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(NS)
                .endMetadata();
        if (owner != null) {
            map.editMetadata().addToOwnerReferences(owner).endMetadata();
        }
        return map.build();
    }
}
