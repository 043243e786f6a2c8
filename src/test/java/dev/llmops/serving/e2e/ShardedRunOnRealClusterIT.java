package dev.llmops.serving.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.api.contract.SampleSet;
import dev.llmops.serving.api.contract.StageSamples;
import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.LocalControlPlane;
import dev.llmops.serving.e2e.support.OperatorUnderTest;
import dev.llmops.serving.e2e.support.ServingResources;
import dev.llmops.serving.e2e.support.TestNamespace;
import dev.llmops.serving.operator.benchmark.BenchmarkJobDependent;
import dev.llmops.serving.operator.benchmark.comparison.SampleStore;
import dev.llmops.serving.simulator.SimulatedCapacity;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A run whose load two runner pods send, through the real Job controller's Indexed Job: the shards find shard 0 by its
 * name under the run's headless Service, meet before each stage, and their results merge into one status in which
 * every request of a level is counted once; a capacity search over both finds the capacity of their streams together;
 * a shard pod lost mid-run fails the run, naming the shard.
 */
@E2eTest
class ShardedRunOnRealClusterIT {

    private static final String SERVER = "sharded-target";
    private static final int REQUESTS = 24;
    private static final String SHARDS = "  runner:\n    shards: 2\n";

    @RegisterExtension
    static final OperatorUnderTest operator =
            OperatorUnderTest.installed().onFakeGpuFleet().deletingServersBeforeStop(SERVER);

    @BeforeAll
    static void createServer(KubernetesClient client, TestNamespace namespace) {
        ServingResources.sm120Server(client, namespace, SERVER, 1, 1);
        ServingResources.awaitServer(
                client,
                namespace,
                SERVER,
                s -> s.getStatus() != null && s.getStatus().readyReplicas != null && s.getStatus().readyReplicas == 1,
                "ready");
    }

    @Test
    void twoShardsSendOneClosedLoopAndMergeIntoOneStatus(KubernetesClient client, TestNamespace namespace) {
        String run = "sharded-sweep";
        ServingResources.createRun(
                client, namespace, ServingResources.quickRunManifest(run, SERVER, "3", REQUESTS, 16, SHARDS));

        BenchmarkRun finished = ServingResources.awaitFinished(client, namespace, run);

        var status = finished.getStatus();
        assertThat(status.phase).as("status %s", status).isEqualTo(BenchmarkRunPhase.Succeeded);
        StageResult c3 = stage(finished, "c3");
        assertThat(c3.completed)
                .as("every request of c3, counted once over both shards")
                .isEqualTo(REQUESTS);
        assertThat(c3.concurrency).isEqualTo(3);
        assertThat(c3.ttftMillis.p99).isNotNull();
        assertThat(status.singleRequests)
                .as("the single phase, sent by shard 0 alone")
                .hasSize(1);
        assertThat(status.summary.shards).isEqualTo(2);
        assertThat(status.summary.worstShardClientLagMillis).isNotNull();

        Job job = client.batch()
                .v1()
                .jobs()
                .inNamespace(namespace.name())
                .withName(status.jobName)
                .get();
        assertThat(job.getSpec().getCompletionMode()).isEqualTo("Indexed");
        assertThat(job.getSpec().getCompletions()).isEqualTo(2);
        assertThat(job.getSpec().getParallelism()).isEqualTo(2);
        assertThat(job.getStatus().getSucceeded()).isEqualTo(2);
        assertThat(job.getSpec().getTemplate().getSpec().getTopologySpreadConstraints())
                .singleElement()
                .satisfies(spread -> assertThat(spread.getTopologyKey()).isEqualTo("kubernetes.io/hostname"));
        Service service = client.services()
                .inNamespace(namespace.name())
                .withName(status.jobName)
                .get();
        assertThat(service.getSpec().getClusterIP()).isEqualTo("None");
        assertThat(service.getMetadata().getOwnerReferences())
                .singleElement()
                .satisfies(owner -> assertThat(owner.getUid())
                        .isEqualTo(finished.getMetadata().getUid()));

        ConfigMap samples = client.configMaps()
                .inNamespace(namespace.name())
                .withName(status.samples)
                .get();
        SampleSet merged = SampleSet.fromGzip(
                Base64.getDecoder().decode(samples.getBinaryData().get(SampleStore.KEY)));
        StageSamples c3Samples = merged.stages().stream()
                .filter(stage -> stage.name().equals("c3"))
                .findFirst()
                .orElseThrow();
        assertThat(c3Samples.index())
                .as("both shards' requests, by their positions in the one sequence")
                .containsExactly(IntStream.range(0, REQUESTS).toArray());
        operator.process().assertNothingForbidden();
    }

    @Test
    void twoShardsSendEveryOtherArrivalOfOneRate(KubernetesClient client, TestNamespace namespace) {
        String run = "sharded-rate";
        ServingResources.createRun(client, namespace, """
                apiVersion: serving.llmops.dev/v1alpha1
                kind: BenchmarkRun
                metadata:
                  name: %s
                spec:
                  target:
                    modelServer: %s
                  warmup:
                    requests: 1
                    maxTokens: 8
                  singleRequest:
                    prompts: []
                  sweep:
                    rates: [8]
                    requestsPerLevel: %d
                  sampling:
                    maxTokens: 16
                  waitTimeoutSeconds: 180
                """.formatted(run, SERVER, REQUESTS) + SHARDS);

        BenchmarkRun finished = ServingResources.awaitFinished(client, namespace, run);

        assertThat(finished.getStatus().phase)
                .as("status %s", finished.getStatus())
                .isEqualTo(BenchmarkRunPhase.Succeeded);
        StageResult r8 = stage(finished, "r8");
        assertThat(r8.completed).isEqualTo(REQUESTS);
        assertThat(r8.scheduleLagMillis.p99).isNotNull();
        assertThat(r8.achievedRequestRate)
                .as("the two halves of one schedule, sent together")
                .isBetween(4.0, 16.0);
    }

    @Test
    void twoShardsSearchTheCapacityOfTheirStreamsTogether(KubernetesClient client, TestNamespace namespace) {
        String run = "sharded-capacity";
        int tpotLimitMillis = 19;
        ServingResources.createRun(
                client,
                namespace,
                ServingResources.concurrencyCapacitySearchManifest(run, SERVER, tpotLimitMillis, 16) + SHARDS);
        var profile = LocalControlPlane.SIMULATED_SERVER;
        int truth = new SimulatedCapacity(
                        profile.ttft(), profile.stepDelay(), profile.batchSlowdown(), profile.maxRunning())
                .maxConcurrency((double) tpotLimitMillis, null);

        BenchmarkRun finished = ServingResources.awaitFinished(client, namespace, run);

        var status = finished.getStatus();
        assertThat(status.phase).as("status %s", status).isEqualTo(BenchmarkRunPhase.Succeeded);
        assertThat(status.capacity.outcome).hasToString("Found");
        // Timers run late on a loaded machine, which can only make TPOT longer: one stream below the truth is allowed.
        assertThat(status.capacity.concurrency).isBetween(truth - 1, truth);
        assertThat(status.stages).allSatisfy(stage -> assertThat(stage.name).startsWith("probe"));
        assertThat(status.summary.shards).isEqualTo(2);
    }

    @Test
    void aShardPodLostMidRunFailsTheRunNamingTheShard(KubernetesClient client, TestNamespace namespace) {
        String run = "sharded-lost";
        ServingResources.createRun(
                client, namespace, ServingResources.quickRunManifest(run, SERVER, "3, 4", 48, 64, SHARDS));
        Pod shardOne = await("shard 1 of " + run + " running")
                .atMost(ServingResources.RUN_TIMEOUT)
                .pollInterval(Duration.ofMillis(250))
                .ignoreExceptions()
                .until(
                        () -> client
                                .pods()
                                .inNamespace(namespace.name())
                                .withLabel(Labels.INSTANCE, BenchmarkJobDependent.jobName(run))
                                .list()
                                .getItems()
                                .stream()
                                .filter(p -> "1"
                                                .equals(p.getMetadata()
                                                        .getAnnotations()
                                                        .get("batch.kubernetes.io/job-completion-index"))
                                        && "Running".equals(p.getStatus().getPhase()))
                                .findFirst()
                                .orElse(null),
                        pod -> pod != null);
        await("a stage under way").pollDelay(Duration.ofSeconds(4)).until(() -> true);
        client.resource(shardOne).delete();

        BenchmarkRun finished = ServingResources.awaitFinished(client, namespace, run);

        assertThat(finished.getStatus().phase)
                .as("status %s", finished.getStatus())
                .isEqualTo(BenchmarkRunPhase.Failed);
        Condition succeeded = finished.getStatus().conditions.stream()
                .filter(c -> ConditionTypes.SUCCEEDED.equals(c.getType()))
                .findFirst()
                .orElseThrow();
        assertThat(succeeded.getReason()).isEqualTo("ShardsApart");
        assertThat(succeeded.getMessage()).contains("shard 1 of 2 reached stage");
        assertThat(finished.getStatus().stages)
                .as("no figures of a run whose shards fell apart")
                .isEmpty();
    }

    private static StageResult stage(BenchmarkRun run, String name) {
        List<StageResult> stages = run.getStatus().stages;
        return stages.stream()
                .filter(stage -> stage.name.equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no stage " + name + " in " + stages));
    }
}
