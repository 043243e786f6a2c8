package dev.llmops.serving.operator.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What a complete benchmark Job yields, given that the Job and its pods arrive through separate watches and the Job
 * can be seen complete before its pod is seen finished.
 */
class CompletedJobTest {

    private static final Job COMPLETE = new JobBuilder()
            .withNewMetadata()
            .withName("kimi-run-bench")
            .withNamespace("llm")
            .withUid("5b0c6d1e-job")
            .endMetadata()
            .withNewStatus()
            .addNewCondition()
            .withType("Complete")
            .withStatus("True")
            .endCondition()
            .endStatus()
            .build();

    private final JobObserver observer = new JobObserver(null);

    @Test
    void aPodStillRunningInThisCopyIsWaitedFor() {
        assertThat(observer.observe(COMPLETE, Set.of(pod("Running")))).isEqualTo(new JobOutcome.Running(null));
    }

    @Test
    void withNoPodLeftTheSummaryIsMissing() {
        assertThat(observer.observe(COMPLETE, Set.of()))
                .isEqualTo(new JobOutcome.Completed(
                        null, "no finished pod of Job kimi-run-bench is left to read the summary from", null));
    }

    @Test
    void aDeletedPodThatNeverFinishedIsNotWaitedFor() {
        Pod deleted = new PodBuilder(pod("Running"))
                .editMetadata()
                .withDeletionTimestamp("2026-12-01T10:02:00Z")
                .endMetadata()
                .build();

        assertThat(observer.observe(COMPLETE, Set.of(deleted))).isInstanceOf(JobOutcome.Completed.class);
    }

    private static Pod pod(String phase) {
        PodBuilder pod = new PodBuilder()
                .withNewMetadata()
                .withName("kimi-run-bench-x7k2p")
                .withNamespace("llm")
                .addNewOwnerReference()
                .withKind("Job")
                .withName("kimi-run-bench")
                .withUid("5b0c6d1e-job")
                .withController(true)
                .endOwnerReference()
                .endMetadata()
                .withNewStatus()
                .withPhase(phase)
                .endStatus();
        return pod.build();
    }
}
