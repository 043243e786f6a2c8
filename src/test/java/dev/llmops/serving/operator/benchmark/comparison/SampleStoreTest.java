package dev.llmops.serving.operator.benchmark.comparison;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.contract.SampleBombs;
import dev.llmops.serving.api.contract.SampleSet;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.comparison.SamplesRead;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.Test;

/**
 * The samples ConfigMap on an API that stores what it is sent: the operator keeps its own (again after a retried
 * reconcile), never adopts one it did not write, and reads back only the samples whose digest the run recorded.
 */
@EnableKubernetesMockClient(crud = true)
class SampleStoreTest {

    private static final String NS = "llm";

    KubernetesClient client;

    @Test
    void aRetryFindsTheConfigMapItsEarlierAttemptWroteAndKeepsIt() {
        SampleStore store = new SampleStore(client);
        BenchmarkRun run = run("eagle3", "0c4d-eagle3");
        SampleSet samples = PairedRuns.samples(PairedRuns.WORKLOAD, 1, 0, false);

        SampleStore.Kept first = store.store(run, samples);
        SampleStore.Kept retried = store.store(run, samples);

        assertThat(first.refusal()).isNull();
        assertThat(retried).isEqualTo(first);
        assertThat(first.configMap()).isEqualTo("eagle3-samples");
        assertThat(first.sha256())
                .isEqualTo(SampleStore.sha256(samples.toGzip()))
                .hasSize(64);
        SamplesRead read = store.read(NS, first.configMap(), first.sha256());
        assertThat(read.present()).isTrue();
        assertThat(read.samples().toLogLine()).isEqualTo(samples.toLogLine());
    }

    @Test
    void aConfigMapOfTheSameNameWithOtherContentIsRefusedWhateverItsOwnerReference() {
        BenchmarkRun run = run("planted", "5e1f-planted");
        client.resource(PlantedSamples.configMap("planted-samples", run, SampleBombs.numbersAsTokens()))
                .create();

        SampleStore.Kept kept =
                new SampleStore(client).store(run, PairedRuns.samples(PairedRuns.WORKLOAD, 1, 0, false));

        assertThat(kept.configMap()).isNull();
        assertThat(kept.refusal())
                .isEqualTo("ConfigMap planted-samples already exists and was not written by the operator for this"
                        + " run's samples; delete it (or name the run differently) and create the run again");
    }

    @Test
    void samplesWhoseDigestDiffersFromTheRunsAreNotRead() {
        SampleStore store = new SampleStore(client);
        BenchmarkRun run = run("baseline", "77aa-baseline");
        SampleStore.Kept kept = store.store(run, PairedRuns.samples(PairedRuns.WORKLOAD, 1, 0, false));
        client.configMaps().inNamespace(NS).withName(kept.configMap()).delete();
        byte[] forged = PairedRuns.samples(PairedRuns.WORKLOAD, 0.5, 0, false).toGzip();
        client.resource(PlantedSamples.configMap(kept.configMap(), run, forged)).create();

        SamplesRead read = store.read(NS, kept.configMap(), kept.sha256());
        SamplesRead unchecked = store.read(NS, kept.configMap(), null);

        assertThat(read.rejected()).isTrue();
        assertThat(read.problem())
                .isEqualTo("ConfigMap baseline-samples does not hold the samples the operator wrote (their SHA-256"
                        + " differs from the run's status.samplesSha256)");
        assertThat(unchecked.present())
                .as("a run finished before digests were recorded")
                .isTrue();
    }

    @Test
    void aBombOrAnOversizedValueInTheConfigMapIsRejectedWithoutBeingDecodedWhole() {
        BenchmarkRun run = run("legacy", "9b9b-legacy");
        client.resource(PlantedSamples.configMap("legacy-samples", run, SampleBombs.tokens()))
                .create();
        client.resource(new ConfigMapBuilder(PlantedSamples.configMap("huge-samples", run, new byte[0]))
                        .addToBinaryData(SampleStore.KEY, "A".repeat(SampleSet.MAX_ENCODED_CHARS + 4))
                        .build())
                .create();
        SampleStore store = new SampleStore(client);

        SamplesRead bomb = store.read(NS, "legacy-samples", null);
        SamplesRead huge = store.read(NS, "huge-samples", null);

        assertThat(bomb.rejected()).isTrue();
        assertThat(bomb.problem())
                .startsWith("ConfigMap legacy-samples holds unreadable samples: a quality output has more than");
        assertThat(huge.rejected()).isTrue();
        assertThat(huge.problem())
                .isEqualTo("ConfigMap huge-samples holds more than " + SampleSet.MAX_ENCODED_CHARS
                        + " characters of samples");
    }

    private static BenchmarkRun run(String name, String uid) {
        BenchmarkRun run = new BenchmarkRun();
        run.setMetadata(new ObjectMetaBuilder()
                .withName(name)
                .withNamespace(NS)
                .withUid(uid)
                .build());
        return run;
    }
}
