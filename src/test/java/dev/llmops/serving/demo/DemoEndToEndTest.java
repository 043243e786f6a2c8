package dev.llmops.serving.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.SpeedVerdict;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerPhase;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperimentPhase;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperimentStatus;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantPhase;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantResult;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.quarkus.test.junit.main.LaunchResult;
import io.quarkus.test.junit.main.QuarkusMainLauncher;
import io.quarkus.test.junit.main.QuarkusMainTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo end to end in one JVM: embedded API, the operator's controllers, the stand-ins and the real runner, through
 * the same command a user runs; the final resources are read back from what the demo saved.
 */
@QuarkusMainTest
class DemoEndToEndTest {

    private static final KubernetesSerialization YAML = new KubernetesSerialization();
    /** A speedup with its 95 % interval as the demo prints it: 2.04x [1.99, 2.10]. */
    private static final String SPEEDUP_WITH_INTERVAL = "[0-9.]+x \\[[0-9.]+, [0-9.]+]";
    /** A run between stages as status.progress shows it: stages done, stages in all, the level running. */
    private static final Pattern RUNNING_STAGE = Pattern.compile("br/[a-z0-9-]+ Running \\d+/\\d+ c\\d+\\b");

    @Test
    void speculativeDecodingBeatsTheBaseline(QuarkusMainLauncher launcher, @TempDir Path saved) throws IOException {
        LaunchResult result = launcher.launch("demo", "--save", saved.toString());

        assertThat(result.exitCode()).as(result.getOutput()).isZero();
        assertThat(result.getOutput()).contains("$ kubectl get benchmarkruns", "Speedup of eagle3 over autoregressive");
        ModelServer server = read(saved.resolve("modelserver-llm-autoregressive.yaml"), ModelServer.class);
        assertThat(server.getStatus().phase).isEqualTo(ModelServerPhase.Ready);
        assertThat(server.getStatus().lastInferenceProbe.outputTokens).isPositive();

        BenchmarkRun baseline = read(saved.resolve("benchmarkrun-autoregressive.yaml"), BenchmarkRun.class);
        BenchmarkRun speculative = read(saved.resolve("benchmarkrun-eagle3.yaml"), BenchmarkRun.class);
        assertThat(baseline.getStatus().phase).isEqualTo(BenchmarkRunPhase.Succeeded);
        assertThat(speculative.getStatus().phase).isEqualTo(BenchmarkRunPhase.Succeeded);
        double perStream = SimulatedServerProfile.autoregressive().tokensPerSecondPerStream();
        assertThat(baseline.getStatus().summary.singleStreamTokensPerSecond)
                .isCloseTo(perStream, within(perStream * 0.15));
        assertThat(baseline.getStatus().stages)
                .extracting(s -> s.name)
                .containsExactly("single", "c8", "c16", "c32", "c48", "c64");
        assertThat(speculative.getStatus().comparison.baseline).isEqualTo("autoregressive");
        assertThat(speculative.getStatus().comparison.singleStreamSpeedup).isGreaterThan(1.5);
        assertThat(speculative.getStatus().comparison.peakThroughputSpeedup).isGreaterThan(1.5);
        double acceptance = SimulatedServerProfile.speculative().acceptance().mean();
        assertThat(speculative.getStatus().stages)
                .as("acceptance length per stage, from the server's counters, against the simulator's distribution")
                .allSatisfy(s -> assertThat(s.specAcceptLength).isCloseTo(acceptance, within(acceptance * 0.05)));
        assertThat(speculative.getStatus().comparison.workloadMatched).isTrue();
        assertThat(speculative.getStatus().comparison.stages)
                .filteredOn(s -> s.name.startsWith("c"))
                .hasSize(5)
                .allSatisfy(s -> {
                    assertThat(s.verdict).isEqualTo(SpeedVerdict.Faster);
                    assertThat(s.throughputSpeedupInterval.low).isGreaterThan(1.5);
                });
        assertThat(speculative.getStatus().comparison.quality.prefixAgreement).isEqualTo(1.0);
        assertThat(speculative.getStatus().conditions)
                .filteredOn(c -> c.getType().equals(ConditionTypes.QUALITY_SUSPECT))
                .singleElement()
                .satisfies(c -> assertThat(c.getStatus()).isEqualTo("False"));
        List<String> progress =
                result.getOutput().lines().filter(l -> l.startsWith("[")).toList();
        assertThat(progress)
                .as("progress lines, oldest first")
                .anySatisfy(l -> assertThat(l).containsPattern(RUNNING_STAGE))
                .last()
                .satisfies(l -> assertThat(l).contains("br/autoregressive Succeeded", "br/eagle3 Succeeded"));
    }

    @Test
    void halfReadyServerNeverBecomesReadyAndTheRunGivesUp(QuarkusMainLauncher launcher, @TempDir Path saved)
            throws IOException {
        LaunchResult result = launcher.launch("demo", "--scenario", "half-ready", "--save", saved.toString());

        assertThat(result.exitCode()).as(result.getOutput()).isZero();
        ModelServer server = read(saved.resolve("modelserver-llm-half-ready.yaml"), ModelServer.class);
        assertThat(server.getStatus().phase).isEqualTo(ModelServerPhase.Failed);
        assertThat(server.getStatus().diagnosis.reason).isEqualTo("NoKernelImage");
        assertThat(server.getStatus().diagnosis.hint).contains("kubectl logs -n demo llm-half-ready-");
        assertThat(server.getStatus().conditions)
                .filteredOn(c -> c.getType().equals("Ready"))
                .singleElement()
                .satisfies(c -> assertThat(c.getReason()).isEqualTo("NoKernelImage"));
        BenchmarkRun run = read(saved.resolve("benchmarkrun-half-ready.yaml"), BenchmarkRun.class);
        assertThat(run.getStatus().phase).isEqualTo(BenchmarkRunPhase.Failed);
        Condition ready = run.getStatus().conditions.stream()
                .filter(c -> c.getType().equals("Ready"))
                .findFirst()
                .orElseThrow();
        assertThat(ready.getReason()).isEqualTo("ServerNotReady");
        assertThat(ready.getMessage()).contains("NoKernelImage");
    }

    @Test
    void experimentTriesTheVariantsOneAtATimeAndDflashWins(QuarkusMainLauncher launcher, @TempDir Path saved)
            throws IOException {
        LaunchResult result = launcher.launch("demo", "--scenario", "experiment", "--save", saved.toString());

        assertThat(result.exitCode()).as(result.getOutput()).isZero();
        ServingExperiment experiment =
                read(saved.resolve("servingexperiment-" + DemoScenario.EXPERIMENT + ".yaml"), ServingExperiment.class);
        ServingExperimentStatus status = experiment.getStatus();
        assertThat(status.phase).isEqualTo(ServingExperimentPhase.Succeeded);
        assertThat(status.winner.name).isEqualTo(DemoScenario.EXPECTED_WINNER);
        assertThat(status.winner.speedupInterval.low).isGreaterThan(1.0);
        assertThat(status.variants)
                .extracting(v -> v.name, v -> v.phase)
                .containsExactly(
                        tuple("autoregressive", VariantPhase.Succeeded),
                        tuple("eagle3", VariantPhase.Succeeded),
                        tuple("dflash-b8", VariantPhase.Succeeded),
                        tuple("cu128-image", VariantPhase.Failed));
        VariantResult failed = status.variants.get(3);
        assertThat(failed.diagnosis.reason).isEqualTo("FlashInferNvccTooOld");
        assertThat(failed.diagnosis.message).contains("No supported CUDA architectures found for major versions [12]");
        for (int i = 1; i < status.variants.size(); i++) {
            assertThat(Instant.parse(status.variants.get(i).startTime))
                    .as("variant %d starts once variant %d has ended", i, i - 1)
                    .isAfterOrEqualTo(Instant.parse(status.variants.get(i - 1).completionTime));
        }

        List<String> node = result.getOutput()
                .lines()
                .filter(l -> l.matches("\\[ *[0-9.]+s] node: .*"))
                .toList();
        assertThat(node)
                .as("each server on the node alone: it starts on an empty node and leaves it empty")
                .hasSize(8)
                .allSatisfy(l -> assertThat(l).matches(".* (started \\(1 server|stopped \\(0 servers) on the node\\)"));
        assertThat(node.get(0)).contains("node: qwen3-8b-autoregressive started");
        assertThat(node.get(7)).contains("node: qwen3-8b-cu128-image stopped");
        assertThat(result.getOutput())
                .containsPattern(
                        "(?m)^VARIANT +PHASE +TIME TO READY +PEAK TOK/S +SPEEDUP +ACCEPT LEN +QUALITY +DIAGNOSIS$")
                .containsPattern("(?m)^eagle3 +Succeeded +[0-9.]+ s +[0-9.]+ +" + SPEEDUP_WITH_INTERVAL
                        + " +[0-9.]+ +100% agree$")
                .containsPattern("(?m)^cu128-image +Failed +failed at [0-9.]+ s +FlashInferNvccTooOld$")
                .contains("Winner: " + status.winner.reason, "No two servers were on the node at once.");
    }

    private static <T> T read(Path file, Class<T> type) throws IOException {
        return YAML.unmarshal(Files.readString(file), type);
    }
}
