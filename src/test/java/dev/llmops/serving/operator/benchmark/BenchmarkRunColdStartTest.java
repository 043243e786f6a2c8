package dev.llmops.serving.operator.benchmark;

import static dev.llmops.serving.operator.benchmark.BenchmarkFixtures.url;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.benchmark.BenchmarkTestProfile;
import dev.llmops.serving.operator.config.OperatorConfig;
import dev.llmops.serving.operator.config.ProgressPoll;
import dev.llmops.serving.operator.toolkit.ConditionMetrics;
import dev.llmops.serving.operator.toolkit.Conditions;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.Operator;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An operator restart in the middle of a run. The operator Quarkus manages cannot be stopped and started again within
 * the test suite, so this test runs the same reconciler in two plain java-operator-sdk operators one after the other,
 * each with a fresh client and therefore cold caches, in a namespace the Quarkus-managed operator does not watch.
 */
@QuarkusTest
@TestProfile(BenchmarkTestProfile.class)
@WithKubernetesTestServer(crud = true)
class BenchmarkRunColdStartTest {

    private static final String NS = BenchmarkTestProfile.COLD_START;

    @Inject
    KubernetesClient client;

    @Inject
    OperatorConfig config;

    @Inject
    BenchmarkMetrics metrics;

    @Inject
    ConditionMetrics conditionMetrics;

    @Test
    void aRestartedOperatorAdoptsTheRunningJobInsteadOfCreatingAnother() throws IOException {
        BenchmarkFixtures fixtures = new BenchmarkFixtures(client);
        fixtures.installCrds();
        fixtures.createRun(NS, "restarted", url("http://sglang.example:30000"));

        Operator first = operator();
        Job job;
        try {
            job = fixtures.awaitJob(NS, "restarted");
            fixtures.awaitRun(NS, "restarted", r -> r.getStatus().phase == BenchmarkRunPhase.Running);
        } finally {
            first.stop();
        }
        var pod = fixtures.startJobPod(job);

        Operator second = operator();
        try {
            fixtures.finishJob(job, pod, 0, RunnerRuns.standardSummary());

            BenchmarkRun done =
                    fixtures.awaitRun(NS, "restarted", r -> r.getStatus().phase == BenchmarkRunPhase.Succeeded);
            assertThat(jobsOf(done))
                    .singleElement()
                    .satisfies(j -> assertThat(j.getMetadata().getUid())
                            .isEqualTo(job.getMetadata().getUid()));
            assertThat(done.getStatus().jobName).isEqualTo(job.getMetadata().getName());
            assertThat(done.getStatus().stages).isNotEmpty();
            assertThat(Conditions.find(done.getStatus().conditions, ConditionTypes.RECONCILING)
                            .orElseThrow()
                            .getReason())
                    .isEqualTo("Succeeded");
        } finally {
            second.stop();
        }
    }

    @Test
    void aJobTheCacheDoesNotShowIsAdoptedWhenCreatingItMeetsAlreadyExists() throws IOException {
        BenchmarkFixtures fixtures = new BenchmarkFixtures(client);
        fixtures.installCrds();
        fixtures.createRun(NS, "hidden", url("http://sglang.example:30000"));
        Operator first = operator();
        Job job;
        try {
            job = fixtures.awaitJob(NS, "hidden");
            fixtures.awaitRun(NS, "hidden", r -> r.getStatus().phase == BenchmarkRunPhase.Running);
        } finally {
            first.stop();
        }
        // Without its labels the Job is outside the dependent's informer: the next operator sees no Job and creates
        // one.
        client.batch()
                .v1()
                .jobs()
                .inNamespace(NS)
                .withName(job.getMetadata().getName())
                .edit(j -> {
                    j.getMetadata().getLabels().clear();
                    return j;
                });
        // The first operator's status is cleared, so that only a status the second operator writes can satisfy the
        // waits below.
        client.resources(BenchmarkRun.class).inNamespace(NS).withName("hidden").editStatus(r -> {
            r.setStatus(new BenchmarkRunStatus());
            return r;
        });

        Operator second = operator();
        try {
            BenchmarkRun reconciled = fixtures.awaitRun(
                    NS, "hidden", r -> !r.getStatus().conditions.isEmpty());
            assertThat(Conditions.find(reconciled.getStatus().conditions, ConditionTypes.READY)
                            .orElseThrow()
                            .getReason())
                    .isIn("JobRunning", "CreatingJob");
            await().during(Duration.ofSeconds(3))
                    .atMost(Duration.ofSeconds(5))
                    .until(
                            () -> fixtures.run(NS, "hidden"),
                            r -> Conditions.find(r.getStatus().conditions, ConditionTypes.RECONCILING)
                                    .map(c -> !"ReconcileError".equals(c.getReason()))
                                    .orElse(true));
            assertThat(jobsOf(reconciled))
                    .singleElement()
                    .satisfies(j -> assertThat(j.getMetadata().getUid())
                            .isEqualTo(job.getMetadata().getUid()));
        } finally {
            second.stop();
        }
    }

    private List<Job> jobsOf(BenchmarkRun run) {
        return client.batch().v1().jobs().inNamespace(NS).list().getItems().stream()
                .filter(j -> j.getMetadata().getOwnerReferences().stream()
                        .anyMatch(o -> o.getUid().equals(run.getMetadata().getUid())))
                .toList();
    }

    /** A plain operator with its own client, reconciling BenchmarkRuns in this test's namespace only, without SSA. */
    private Operator operator() {
        KubernetesClient fresh = new KubernetesClientBuilder()
                .withConfig(client.getConfiguration())
                .build();
        Operator operator = new Operator(o -> o.withKubernetesClient(fresh)
                .withCloseClientOnStop(true)
                .withUseSSAToPatchPrimaryResource(false)
                .withSSABasedCreateUpdateMatchForDependentResources(false));
        operator.register(
                new BenchmarkRunReconciler(fresh, config, metrics, new ProgressPoll(config), conditionMetrics),
                o -> o.settingNamespaces(NS));
        operator.start();
        return operator;
    }
}
