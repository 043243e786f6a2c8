package dev.llmops.serving.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.SpeedVerdict;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerPhase;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.quarkus.test.junit.main.LaunchResult;
import io.quarkus.test.junit.main.QuarkusMainLauncher;
import io.quarkus.test.junit.main.QuarkusMainTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
        assertThat(server.getStatus().phase).isNotEqualTo(ModelServerPhase.Ready);
        assertThat(server.getStatus().diagnosis.reason).isEqualTo("GenerationFailing");
        assertThat(server.getStatus().conditions)
                .filteredOn(c -> c.getType().equals("Ready"))
                .singleElement()
                .satisfies(c -> assertThat(c.getReason()).isEqualTo("GenerationFailing"));
        BenchmarkRun run = read(saved.resolve("benchmarkrun-half-ready.yaml"), BenchmarkRun.class);
        assertThat(run.getStatus().phase).isEqualTo(BenchmarkRunPhase.Failed);
        Condition ready = run.getStatus().conditions.stream()
                .filter(c -> c.getType().equals("Ready"))
                .findFirst()
                .orElseThrow();
        assertThat(ready.getReason()).isEqualTo("ServerNotReady");
        assertThat(ready.getMessage()).contains("GenerationFailing");
    }

    private static <T> T read(Path file, Class<T> type) throws IOException {
        return YAML.unmarshal(Files.readString(file), type);
    }
}
