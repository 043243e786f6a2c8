package dev.llmops.serving.gitops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.SloSpec;
import dev.llmops.serving.operator.experiment.ExperimentTimeline;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.lib.jse.JsePlatform;

/**
 * The shipped Argo CD health checks, run as Argo CD runs them (a Lua chunk with the resource as {@code obj}), give the
 * expected health for each status the operator writes ({@link OperatorStatuses} builds them with the operator's own
 * status reports); the same statuses read with kstatus's rules show where Flux agrees.
 */
class ArgoCdHealthTest {

    private static final Path HEALTH = Path.of("deploy/gitops/argocd/health");
    private static final String MODEL_SERVER_KEY = "resource.customizations.health.serving.llmops.dev_ModelServer";
    private static final String BENCHMARK_RUN_KEY = "resource.customizations.health.serving.llmops.dev_BenchmarkRun";
    private static final String EXPERIMENT_KEY = "resource.customizations.health.serving.llmops.dev_ServingExperiment";

    static Stream<Arguments> modelServers() {
        return Stream.of(
                Arguments.of(
                        "new, no status yet",
                        OperatorStatuses.modelServerNew(),
                        "Progressing",
                        "Waiting for the operator",
                        Kstatus.Status.Current),
                Arguments.of(
                        "loading",
                        OperatorStatuses.modelServerLoading(),
                        "Progressing",
                        "Loading: 0/1 replicas generate",
                        Kstatus.Status.InProgress),
                Arguments.of(
                        "ready",
                        OperatorStatuses.modelServerReady(),
                        "Healthy",
                        "Ready: 1/1 replicas generate",
                        Kstatus.Status.Current),
                Arguments.of(
                        "spec changed, not yet observed",
                        OperatorStatuses.withGeneration(OperatorStatuses.modelServerReady(), 2),
                        "Progressing",
                        "observe generation 2",
                        Kstatus.Status.InProgress),
                Arguments.of(
                        "stalled",
                        OperatorStatuses.modelServerStalled(),
                        "Degraded",
                        "ImagePullFailed: 0/1 replicas generate: The image lmsysorg/sglang:v0.5.19-cu129 cannot be "
                                + "pulled",
                        Kstatus.Status.Failed),
                Arguments.of(
                        "serving with a replica not generating",
                        OperatorStatuses.modelServerWithAReplicaNotGenerating(),
                        "Degraded",
                        "GenerationFailing: 1/2 replicas generate",
                        Kstatus.Status.InProgress));
    }

    static Stream<Arguments> benchmarkRuns() {
        SloSpec tightTtft = new SloSpec();
        tightTtft.ttftP99Millis = 155;
        return Stream.of(
                Arguments.of(
                        "new, no status yet",
                        OperatorStatuses.benchmarkRunNew(),
                        "Progressing",
                        "Waiting for the operator",
                        Kstatus.Status.Current),
                Arguments.of(
                        "waiting for the server",
                        OperatorStatuses.benchmarkRunWaiting(),
                        "Progressing",
                        "WaitingForServer: ModelServer qwen3-8b does not exist. Waiting until",
                        Kstatus.Status.InProgress),
                Arguments.of(
                        "running",
                        OperatorStatuses.benchmarkRunRunning(),
                        "Progressing",
                        "Running (3/6 c16 stages): Job qwen3-8b-run-bench is running (progress 3/6 c16).",
                        Kstatus.Status.InProgress),
                Arguments.of(
                        "succeeded",
                        OperatorStatuses.benchmarkRunSucceeded(null),
                        "Healthy",
                        "Succeeded: Benchmark finished: peak 750.5 output tok/s at concurrency 16",
                        Kstatus.Status.Current),
                Arguments.of(
                        "succeeded, SLO broken",
                        OperatorStatuses.benchmarkRunSucceeded(tightTtft),
                        "Healthy",
                        "Finished; SLOBroken: The SLO broke at concurrency 16: p99 TTFT 160.0 ms > 155 ms.",
                        Kstatus.Status.Current),
                Arguments.of(
                        "regressed, Degraded asked for",
                        OperatorStatuses.benchmarkRunRegressed(true),
                        "Degraded",
                        "Regressed: Significantly slower: stage single output tok/s per stream 0.8",
                        Kstatus.Status.Current),
                Arguments.of(
                        "regressed, Degraded not asked for",
                        OperatorStatuses.benchmarkRunRegressed(false),
                        "Healthy",
                        "Succeeded: Benchmark finished",
                        Kstatus.Status.Current),
                Arguments.of(
                        "quality suspect, Degraded asked for",
                        OperatorStatuses.benchmarkRunQualitySuspect(true),
                        "Degraded",
                        "OutputsDiverge: Greedy outputs diverge",
                        Kstatus.Status.Current),
                Arguments.of(
                        "quality suspect, Degraded not asked for",
                        OperatorStatuses.benchmarkRunQualitySuspect(false),
                        "Healthy",
                        "Succeeded: Benchmark finished",
                        Kstatus.Status.Current),
                Arguments.of(
                        "server never ready",
                        OperatorStatuses.benchmarkRunServerNeverReady(),
                        "Degraded",
                        "ServerNotReady: Gave up after waitTimeoutSeconds (100 s): ModelServer qwen3-8b does not exist",
                        Kstatus.Status.Failed),
                Arguments.of(
                        "runner failed",
                        OperatorStatuses.benchmarkRunRunnerFailed(),
                        "Degraded",
                        "BadConfiguration: Job qwen3-8b-run-bench failed: the runner rejected its configuration (exit "
                                + "code 2)",
                        Kstatus.Status.Failed));
    }

    static Stream<Arguments> experiments() {
        return Stream.of(
                Arguments.of(
                        "new, no status yet",
                        OperatorStatuses.json(ExperimentTimeline.applied()),
                        "Progressing",
                        "Waiting for the operator",
                        Kstatus.Status.Current),
                Arguments.of(
                        "second variant loading",
                        OperatorStatuses.json(ExperimentTimeline.secondVariantLoading()),
                        "Progressing",
                        "Running (1/4 eagle3): eagle3: Deploying its ModelServer",
                        Kstatus.Status.InProgress),
                Arguments.of(
                        "finished with a winner",
                        OperatorStatuses.json(ExperimentTimeline.finishedWithAWinner()),
                        "Healthy",
                        "Succeeded: dflash-b8: 1.90x [1.80, 2.00] throughput at c32 over autoregressive",
                        Kstatus.Status.Current),
                Arguments.of(
                        "budget ran out",
                        OperatorStatuses.json(ExperimentTimeline.outOfTime()),
                        "Degraded",
                        "BudgetExhausted: spec.maxDurationMinutes ran out with 1 of 4 variants tried; autoregressive: ",
                        Kstatus.Status.Failed),
                Arguments.of(
                        "every variant failed",
                        OperatorStatuses.json(ExperimentTimeline.everyVariantFailed()),
                        "Degraded",
                        "NoVariantSucceeded: No variant succeeded: autoregressive (Its server did not start",
                        Kstatus.Status.Failed));
    }

    @ParameterizedTest(name = "ServingExperiment {0}")
    @MethodSource("experiments")
    void experimentHealth(String situation, ObjectNode fixture, String health, String message, Kstatus.Status kstatus)
            throws IOException {
        assertHealth(HEALTH.resolve("servingexperiment.lua"), fixture, health, message, kstatus);
    }

    @ParameterizedTest(name = "ModelServer {0}")
    @MethodSource("modelServers")
    void modelServerHealth(String situation, ObjectNode fixture, String health, String message, Kstatus.Status kstatus)
            throws IOException {
        assertHealth(HEALTH.resolve("modelserver.lua"), fixture, health, message, kstatus);
    }

    @ParameterizedTest(name = "BenchmarkRun {0}")
    @MethodSource("benchmarkRuns")
    void benchmarkRunHealth(String situation, ObjectNode fixture, String health, String message, Kstatus.Status kstatus)
            throws IOException {
        assertHealth(HEALTH.resolve("benchmarkrun.lua"), fixture, health, message, kstatus);
    }

    @Test
    void shippedConfigurationsCarryTheScriptsVerbatim() throws IOException {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        JsonNode patch = yaml.readTree(
                Path.of("deploy/gitops/argocd/argocd-cm-health.yaml").toFile());
        JsonNode values = yaml.readTree(
                        Path.of("deploy/gitops/argocd/argo-cd-values.yaml").toFile())
                .path("configs")
                .path("cm");
        Map<String, String> scripts = Map.of(
                MODEL_SERVER_KEY,
                Files.readString(HEALTH.resolve("modelserver.lua")),
                BENCHMARK_RUN_KEY,
                Files.readString(HEALTH.resolve("benchmarkrun.lua")),
                EXPERIMENT_KEY,
                Files.readString(HEALTH.resolve("servingexperiment.lua")));

        assertThat(patch.path("metadata").path("name").asText()).isEqualTo("argocd-cm");
        scripts.forEach((key, script) -> {
            assertThat(patch.path("data").path(key).asText())
                    .as("argocd-cm-health.yaml " + key)
                    .isEqualTo(script);
            assertThat(values.path(key).asText())
                    .as("argo-cd-values.yaml " + key)
                    .isEqualTo(script);
        });
    }

    private static void assertHealth(
            Path script, ObjectNode fixture, String health, String message, Kstatus.Status kstatus) throws IOException {
        Globals globals = JsePlatform.standardGlobals();
        globals.set("obj", lua(fixture));
        LuaValue result = globals.load(
                        Files.readString(script), script.getFileName().toString())
                .call();

        assertThat(result.get("status").tojstring()).isEqualTo(health);
        assertThat(result.get("message").tojstring()).contains(message);
        assertThat(Kstatus.of(fixture)).as("kstatus").isEqualTo(kstatus);
    }

    /** JSON as the Lua tables Argo CD hands a health script: objects keyed by name, arrays indexed from 1. */
    private static LuaValue lua(JsonNode node) {
        if (node.isObject()) {
            LuaTable table = new LuaTable();
            for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                table.set(field.getKey(), lua(field.getValue()));
            }
            return table;
        }
        if (node.isArray()) {
            LuaTable table = new LuaTable();
            for (int i = 0; i < node.size(); i++) {
                table.set(i + 1, lua(node.get(i)));
            }
            return table;
        }
        if (node.isIntegralNumber()) {
            return LuaValue.valueOf(node.asLong());
        }
        if (node.isNumber()) {
            return LuaValue.valueOf(node.asDouble());
        }
        if (node.isBoolean()) {
            return LuaValue.valueOf(node.asBoolean());
        }
        return node.isNull() ? LuaValue.NIL : LuaValue.valueOf(node.asText());
    }
}
