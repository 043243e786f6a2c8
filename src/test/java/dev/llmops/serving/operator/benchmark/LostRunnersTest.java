package dev.llmops.serving.operator.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.Labels;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** Which of a benchmark Job's pods count as lost runners, and how the run's warnings name them. */
class LostRunnersTest {

    private static final Job JOB = new JobBuilder()
            .withNewMetadata()
            .withName("kimi-run-bench")
            .withNamespace("llm")
            .withUid("5b0c6d1e-job")
            .endMetadata()
            .build();

    @Test
    void deletedEvictedAndFailedPodsOfTheJobAreLostInTheOrderTheyWereCreated() {
        Pod running = pod(
                "kimi-run-bench-run01",
                "2026-12-01T10:04:00Z",
                b -> b.editStatus().withPhase("Running").endStatus());
        Pod deleted = pod(
                "kimi-run-bench-del01",
                "2026-12-01T10:01:00Z",
                b -> b.editMetadata()
                        .withDeletionTimestamp("2026-12-01T10:02:00Z")
                        .endMetadata());
        Pod evicted = pod(
                "kimi-run-bench-evi01",
                "2026-12-01T10:02:00Z",
                b -> b.editMetadata()
                        .withDeletionTimestamp("2026-12-01T10:03:00Z")
                        .endMetadata()
                        .editStatus()
                        .addNewCondition()
                        .withType("DisruptionTarget")
                        .withStatus("True")
                        .withReason("EvictionByEvictionAPI")
                        .withMessage("Eviction API: evicting")
                        .endCondition()
                        .endStatus());
        Pod failed = pod(
                "kimi-run-bench-oom01",
                "2026-12-01T10:03:00Z",
                b -> b.editStatus()
                        .withPhase("Failed")
                        .addNewContainerStatus()
                        .withName(BenchmarkJobDependent.CONTAINER)
                        .withNewState()
                        .withNewTerminated()
                        .withExitCode(137)
                        .withReason("OOMKilled")
                        .endTerminated()
                        .endState()
                        .endContainerStatus()
                        .endStatus());
        Pod labelledLikeTheJob = pod(
                "other-run-bench-del01",
                "2026-12-01T10:00:00Z",
                b -> b.editMetadata()
                        .withOwnerReferences(new OwnerReferenceBuilder()
                                .withKind("Job")
                                .withName("other-run-bench")
                                .withUid("77aa01f3-other-job")
                                .withController(true)
                                .build())
                        .withDeletionTimestamp("2026-12-01T10:02:00Z")
                        .endMetadata());

        assertThat(JobObserver.lostRunners(JOB, Set.of(running, failed, labelledLikeTheJob, evicted, deleted)))
                .containsExactly(
                        "Runner pod kimi-run-bench-del01 was lost before it finished: deleted.",
                        "Runner pod kimi-run-bench-evi01 was lost before it finished: evicted or disrupted:"
                                + " EvictionByEvictionAPI, Eviction API: evicting.",
                        "Runner pod kimi-run-bench-oom01 was lost before it finished: failed, exit code 137"
                                + " (OOMKilled).");
    }

    @Test
    void aRunKeepsEachLostPodOnceAndNamesAtMostFive() {
        List<String> seen = List.of(
                "Runner pod a was lost before it finished: deleted.",
                "Runner pod a was lost before it finished: failed, exit code 137.",
                "Runner pod b was lost before it finished: deleted.",
                "Runner pod c was lost before it finished: deleted.",
                "Runner pod d was lost before it finished: deleted.",
                "Runner pod e was lost before it finished: deleted.",
                "Runner pod f was lost before it finished: deleted.");
        List<String> warnings = List.of("Runner pod a was lost before it finished: deleted.", "ITL skewed");

        List<String> losses = RunnerLosses.merge(warnings, seen);

        assertThat(losses).hasSize(RunnerLosses.MAX_NAMED).doesNotContain(seen.get(1), seen.get(6));
        assertThat(RunnerLosses.withLosses(warnings, losses))
                .endsWith("ITL skewed")
                .hasSize(6);
    }

    private static Pod pod(String name, String created, UnaryOperator<PodBuilder> edit) {
        return edit.apply(new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace("llm")
                        .withCreationTimestamp(created)
                        .addToLabels(Labels.INSTANCE, "kimi-run-bench")
                        .addNewOwnerReference()
                        .withKind("Job")
                        .withName("kimi-run-bench")
                        .withUid("5b0c6d1e-job")
                        .withController(true)
                        .endOwnerReference()
                        .endMetadata()
                        .withNewStatus()
                        .withPhase("Pending")
                        .endStatus())
                .build();
    }
}
