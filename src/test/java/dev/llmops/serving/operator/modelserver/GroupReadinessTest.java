package dev.llmops.serving.operator.modelserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.modelserver.InferenceProbeResult;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerPhase;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerStatus;
import dev.llmops.serving.operator.toolkit.Conditions;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A multi-node group counts as a ready replica only while its leader generates and every worker of it runs ready. */
class GroupReadinessTest {

    private final Conditions conditions = new Conditions(Clock.systemUTC());
    private final ModelServer kimi = twoNodeServer();

    @Test
    void aGroupIsReadyWithItsLeaderGeneratingAndEveryWorkerReady() {
        ModelServerStatus status =
                status(List.of(pod("kimi-0", "0", "0", true)), List.of(pod("kimi-0-1", "0", "1", true)));

        assertThat(status.readyReplicasText).isEqualTo("1/1");
        assertThat(status.phase).isEqualTo(ModelServerPhase.Ready);
    }

    @Test
    void aGroupWithAWorkerNotReadyOrMissingIsNot() {
        Pod leader = pod("kimi-0", "0", "0", true);

        assertThat(status(List.of(leader), List.of(pod("kimi-0-1", "0", "1", false))).readyReplicasText)
                .as("its worker restarting")
                .isEqualTo("0/1");
        assertThat(status(List.of(leader), List.of()).readyReplicasText)
                .as("its worker not created yet")
                .isEqualTo("0/1");
        assertThat(status(List.of(leader), List.of(pod("kimi-1-1", "1", "1", true))).readyReplicasText)
                .as("another group's worker does not count")
                .isEqualTo("0/1");
    }

    private ModelServerStatus status(List<Pod> leaders, List<Pod> workers) {
        Map<String, PodInference> inference = Map.of(
                "uid-kimi-0", new PodInference("uid-kimi-0", "kimi-0", true, true, new InferenceProbeResult(), null));
        return StatusReport.build(
                kimi,
                new StatusReport.Observation(
                        List.of(), leaders, workers, inference, List.of(), "sglang:test", List.of("sglang")),
                conditions);
    }

    private static ModelServer twoNodeServer() {
        ModelServer server = TestModelServers.example("kimi-k2-rtx-pro-6000-autoregressive.yaml", "llm");
        server.getSpec().accelerator.gpusPerReplica = 16;
        server.getSpec().parallelism.tp = 16;
        server.getSpec().parallelism.nodes = 2;
        server.getSpec().replicas = 1;
        server.getMetadata().setGeneration(1L);
        return server;
    }

    private static Pod pod(String name, String group, String worker, boolean ready) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("llm")
                .withUid("uid-" + name)
                .addToLabels(Labels.COMPONENT, "0".equals(worker) ? Labels.SERVER : Labels.WORKER)
                .addToLabels(LeaderWorkerSet.NAME_LABEL, "kimi")
                .addToLabels(LeaderWorkerSet.GROUP_INDEX_LABEL, group)
                .addToLabels(LeaderWorkerSet.WORKER_INDEX_LABEL, worker)
                .endMetadata()
                .withNewSpec()
                .withNodeName("sm120-" + name)
                .endSpec()
                .withNewStatus()
                .withPhase("Running")
                .addNewContainerStatus()
                .withName(SglangPodTemplate.CONTAINER)
                .withReady(ready)
                .withStarted(ready)
                .endContainerStatus()
                .endStatus()
                .build();
    }
}
