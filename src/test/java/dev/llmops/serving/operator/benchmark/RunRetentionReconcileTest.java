package dev.llmops.serving.operator.benchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.ReferenceSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.RetentionGroup;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.RetentionSpec;
import dev.llmops.serving.benchmark.BenchmarkTestProfile;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Finished runs go under their spec.retention: deleted when their time to live ends or enough newer runs of their
 * group have finished, with an event saying why, and kept past that while another run compares with them. The runs
 * here finish at once: their server does not exist and they wait for it 0 s.
 */
@QuarkusTest
@TestProfile(BenchmarkTestProfile.class)
@WithKubernetesTestServer(crud = true)
class RunRetentionReconcileTest {

    private static final String NS = BenchmarkTestProfile.RETENTION;

    @Inject
    KubernetesClient client;

    @Inject
    Operator operator;

    BenchmarkFixtures fixtures;

    @BeforeEach
    void setUp() throws IOException {
        operator.start();
        fixtures = new BenchmarkFixtures(client);
        fixtures.installCrds();
    }

    @Test
    void aRunIsDeletedWhenItsTimeToLiveEndsWithAnEventSayingWhy() {
        fixtures.createRun(NS, "short-lived", finishingAtOnce("absent-a", retention(0, null)));

        awaitGone("short-lived");
        assertThat(fixtures.events(NS, "short-lived")).anySatisfy(event -> {
            assertThat(event.getReason()).isEqualTo("Expired");
            assertThat(event.getMessage())
                    .isEqualTo("Expired: it finished more than 0 s ago (ttlSecondsAfterFinished).");
        });
    }

    @Test
    void aLongerTimeToLiveIsStatedInTheStatusAndKeepsTheRun() {
        fixtures.createRun(NS, "long-lived", finishingAtOnce("absent-b", retention(86_400, null)));

        BenchmarkRun run = fixtures.awaitRun(NS, "long-lived", r -> r.getStatus().retention != null);
        assertThat(run.getStatus().phase).isEqualTo(BenchmarkRunPhase.Failed);
        assertThat(run.getStatus().retention.expiresAt)
                .isEqualTo(RunRetention.finishedAt(run).plusSeconds(86_400).toString());
        assertThat(run.getStatus().retention.message)
                .isEqualTo("Deleted with its Job and samples at " + run.getStatus().retention.expiresAt
                        + ", 86400 s after it finished.");
    }

    @Test
    void keepLastDeletesTheOlderRunsOfTheSameTargetOnceANewerOneFinishes() {
        fixtures.createRun(NS, "nightly-1", finishingAtOnce("kimi", retention(null, 1)));
        fixtures.awaitRun(NS, "nightly-1", r -> r.getStatus().retention != null);
        fixtures.createRun(NS, "other-target", finishingAtOnce("qwen", retention(null, 1)));
        fixtures.awaitRun(NS, "other-target", r -> r.getStatus().retention != null);

        fixtures.createRun(NS, "nightly-2", finishingAtOnce("kimi", retention(null, 1)));

        awaitGone("nightly-1");
        assertThat(fixtures.events(NS, "nightly-1"))
                .anySatisfy(event -> assertThat(event.getMessage())
                        .isEqualTo("Expired: 1 newer runs of ModelServer kimi have finished (keepLast 1)."));
        BenchmarkRun newest = fixtures.awaitRun(NS, "nightly-2", r -> r.getStatus().retention != null);
        assertThat(newest.getStatus().retention.message)
                .isEqualTo("Deleted with its Job and samples once 1 newer runs of ModelServer kimi have finished.");
        assertThat(fixtures.run(NS, "other-target"))
                .as("a run of another target")
                .isNotNull();
    }

    /** A run whose status says it finished before the operator saw it (restored from a backup) still counts. */
    @Test
    void aRunFinishedWithoutTheOperatorSeeingItPutsOlderRunsBeyondKeepLast() {
        // Grouped by a reference that does not exist, on different targets: only the restored run is woken below.
        fixtures.createRun(NS, "before-restore", spec -> {
            finishingAtOnce("absent-d", keepLastOfReference()).accept(spec);
            spec.reference = release();
        });
        fixtures.awaitRun(NS, "before-restore", r -> r.getStatus().retention != null);
        fixtures.createRun(NS, "restored", spec -> {
            spec.target.modelServer = "gemma";
            spec.waitTimeoutSeconds = 3600;
            spec.retention = keepLastOfReference();
            spec.reference = release();
        });
        fixtures.awaitRun(NS, "restored", r -> r.getStatus().phase == BenchmarkRunPhase.WaitingForServer);
        client.resources(BenchmarkRun.class)
                .inNamespace(NS)
                .withName("restored")
                .editStatus(run -> {
                    run.getStatus().phase = BenchmarkRunPhase.Succeeded;
                    run.getStatus().completionTime =
                            Instant.now().plusSeconds(60).toString();
                    return run;
                });
        // A status write alone does not reconcile the run (the controller follows generations); its target does.
        fixtures.createModelServer(NS, "gemma");

        awaitGone("before-restore");
    }

    @Test
    void anExpiredRunIsKeptWhileAnotherComparesWithItAndGoesWithIt() {
        fixtures.createRun(NS, "candidate", spec -> {
            spec.target.modelServer = "absent-c";
            spec.baseline = "old-baseline";
        });
        fixtures.awaitRun(NS, "candidate", r -> r.getStatus().phase == BenchmarkRunPhase.WaitingForServer);
        fixtures.createRun(NS, "old-baseline", finishingAtOnce("absent-c", retention(0, null)));

        BenchmarkRun kept = fixtures.awaitRun(NS, "old-baseline", r -> r.getStatus().retention != null);
        assertThat(kept.getStatus().retention.keptFor).containsExactly("candidate");
        assertThat(kept.getStatus().retention.message)
                .isEqualTo("Expired: it finished more than 0 s ago (ttlSecondsAfterFinished). Kept while candidate "
                        + "compare with it (spec.baseline or spec.reference); deleted when they are gone.");

        client.resource(fixtures.run(NS, "candidate")).delete();

        awaitGone("old-baseline");
    }

    private static Consumer<BenchmarkRunSpec> finishingAtOnce(String server, RetentionSpec retention) {
        return spec -> {
            spec.target.modelServer = server;
            spec.waitTimeoutSeconds = 0;
            spec.retention = retention;
        };
    }

    private static RetentionSpec keepLastOfReference() {
        RetentionSpec retention = retention(null, 1);
        retention.groupBy = RetentionGroup.Reference;
        return retention;
    }

    private static ReferenceSpec release() {
        ReferenceSpec reference = new ReferenceSpec();
        reference.name = "release";
        return reference;
    }

    private static RetentionSpec retention(Integer ttlSeconds, Integer keepLast) {
        RetentionSpec retention = new RetentionSpec();
        retention.ttlSecondsAfterFinished = ttlSeconds;
        retention.keepLast = keepLast;
        return retention;
    }

    private void awaitGone(String name) {
        await().atMost(Duration.ofSeconds(30)).until(() -> fixtures.run(NS, name) == null);
    }
}
