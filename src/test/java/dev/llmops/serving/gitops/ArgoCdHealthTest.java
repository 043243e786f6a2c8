package dev.llmops.serving.gitops;

import static dev.llmops.serving.gitops.StatusFixture.benchmarkRun;
import static dev.llmops.serving.gitops.StatusFixture.modelServer;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
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
 * expected health for each status the operator writes; the same fixtures read with kstatus's rules show where Flux
 * agrees.
 */
class ArgoCdHealthTest {

    private static final Path HEALTH = Path.of("deploy/gitops/argocd/health");
    private static final String MODEL_SERVER_KEY = "resource.customizations.health.serving.llmops.dev_ModelServer";
    private static final String BENCHMARK_RUN_KEY = "resource.customizations.health.serving.llmops.dev_BenchmarkRun";

    static Stream<Arguments> modelServers() {
        return Stream.of(
                Arguments.of(
                        "new, no status yet",
                        modelServer(1),
                        "Progressing",
                        "Waiting for the operator",
                        Kstatus.Status.Current),
                Arguments.of(
                        "loading",
                        modelServer(1)
                                .observed(1)
                                .phase("Loading")
                                .condition(
                                        "Ready",
                                        "False",
                                        "Loading",
                                        "model loading: 0/1 replicas passed a real generation",
                                        1)
                                .condition("Reconciling", "True", "Loading", "waiting for SGLang to load the model", 1)
                                .condition("Stalled", "False", "Loading", "", 1),
                        "Progressing",
                        "Loading: waiting for SGLang to load the model",
                        Kstatus.Status.InProgress),
                Arguments.of(
                        "ready",
                        modelServer(1)
                                .observed(1)
                                .phase("Ready")
                                .condition(
                                        "Ready", "True", "InferenceReady", "1/1 replicas passed a real generation", 1)
                                .condition("Reconciling", "False", "InferenceReady", "", 1)
                                .condition("Stalled", "False", "InferenceReady", "", 1),
                        "Healthy",
                        "InferenceReady: 1/1 replicas",
                        Kstatus.Status.Current),
                Arguments.of(
                        "spec changed, not yet observed",
                        modelServer(2)
                                .observed(1)
                                .phase("Ready")
                                .condition(
                                        "Ready", "True", "InferenceReady", "1/1 replicas passed a real generation", 1),
                        "Progressing",
                        "observe generation 2",
                        Kstatus.Status.InProgress),
                Arguments.of(
                        "Ready written for an older generation",
                        modelServer(2)
                                .observed(2)
                                .condition(
                                        "Ready", "True", "InferenceReady", "1/1 replicas passed a real generation", 1),
                        "Progressing",
                        "InferenceReady",
                        Kstatus.Status.Current),
                Arguments.of(
                        "stalled",
                        modelServer(1)
                                .observed(1)
                                .phase("Failed")
                                .condition("Ready", "False", "DriverTooOld", "node driver older than CUDA 13 needs", 1)
                                .condition("Reconciling", "False", "DriverTooOld", "", 1)
                                .condition(
                                        "Stalled",
                                        "True",
                                        "DriverTooOld",
                                        "schedule on nvidia.com/cuda.driver-version.major >= 580",
                                        1),
                        "Degraded",
                        "DriverTooOld: schedule on",
                        Kstatus.Status.Failed),
                Arguments.of(
                        "serving with a replica down",
                        modelServer(1)
                                .observed(1)
                                .phase("Degraded")
                                .condition(
                                        "Ready", "True", "InferenceReady", "1/2 replicas passed a real generation", 1)
                                .condition(
                                        "Degraded",
                                        "True",
                                        "ReplicaNotReady",
                                        "1 of 2 replicas failed its readiness probe",
                                        1),
                        "Degraded",
                        "ReplicaNotReady",
                        Kstatus.Status.Current));
    }

    static Stream<Arguments> benchmarkRuns() {
        return Stream.of(
                Arguments.of(
                        "new, no status yet",
                        benchmarkRun(1),
                        "Progressing",
                        "Waiting for the operator",
                        Kstatus.Status.Current),
                Arguments.of(
                        "waiting for the server",
                        benchmarkRun(1)
                                .observed(1)
                                .phase("WaitingForServer")
                                .condition("Ready", "False", "WaitingForServer", "ModelServer kimi is Loading", 1)
                                .condition("Reconciling", "True", "WaitingForServer", "ModelServer kimi is Loading", 1),
                        "Progressing",
                        "WaitingForServer: ModelServer kimi is Loading",
                        Kstatus.Status.InProgress),
                Arguments.of(
                        "running",
                        benchmarkRun(1)
                                .observed(1)
                                .phase("Running")
                                .progress("3/6")
                                .condition("Ready", "False", "Running", "benchmark running", 1)
                                .condition("Reconciling", "True", "Running", "stage c16 of 6", 1),
                        "Progressing",
                        "Running (3/6 stages): stage c16 of 6",
                        Kstatus.Status.InProgress),
                Arguments.of(
                        "succeeded",
                        benchmarkRun(1)
                                .observed(1)
                                .phase("Succeeded")
                                .progress("6/6")
                                .condition("Ready", "True", "Succeeded", "benchmark finished", 1)
                                .condition("Succeeded", "True", "Succeeded", "6/6 stages measured", 1)
                                .condition("Reconciling", "False", "Succeeded", "", 1)
                                .condition("Stalled", "False", "Succeeded", "", 1),
                        "Healthy",
                        "Succeeded: 6/6 stages measured",
                        Kstatus.Status.Current),
                Arguments.of(
                        "succeeded, SLO broken",
                        benchmarkRun(1)
                                .observed(1)
                                .phase("Succeeded")
                                .condition("Ready", "True", "Succeeded", "benchmark finished", 1)
                                .condition("Succeeded", "True", "Succeeded", "6/6 stages measured", 1)
                                .condition(
                                        "SLOMet",
                                        "False",
                                        "TtftP99Exceeded",
                                        "p99 TTFT 7820 ms > 5000 ms at concurrency 64",
                                        1),
                        "Healthy",
                        "Finished; TtftP99Exceeded: p99 TTFT",
                        Kstatus.Status.Current),
                Arguments.of(
                        "failed",
                        benchmarkRun(1)
                                .observed(1)
                                .phase("Failed")
                                .condition(
                                        "Ready", "False", "ServerNotReady", "kimi not inference-ready after 3600 s", 1)
                                .condition(
                                        "Succeeded",
                                        "False",
                                        "ServerNotReady",
                                        "kimi not inference-ready after 3600 s",
                                        1)
                                .condition(
                                        "Stalled",
                                        "True",
                                        "ServerNotReady",
                                        "kimi not inference-ready after 3600 s",
                                        1),
                        "Degraded",
                        "ServerNotReady: kimi not inference-ready",
                        Kstatus.Status.Failed),
                Arguments.of(
                        "failed, phase only",
                        benchmarkRun(1)
                                .observed(1)
                                .phase("Failed")
                                .condition("Succeeded", "False", "RunnerFailed", "runner exited with code 2", 1),
                        "Degraded",
                        "RunnerFailed: runner exited with code 2",
                        Kstatus.Status.Current));
    }

    @ParameterizedTest(name = "ModelServer {0}")
    @MethodSource("modelServers")
    void modelServerHealth(
            String situation, StatusFixture fixture, String health, String message, Kstatus.Status kstatus)
            throws IOException {
        assertHealth(HEALTH.resolve("modelserver.lua"), fixture, health, message, kstatus);
    }

    @ParameterizedTest(name = "BenchmarkRun {0}")
    @MethodSource("benchmarkRuns")
    void benchmarkRunHealth(
            String situation, StatusFixture fixture, String health, String message, Kstatus.Status kstatus)
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
                Files.readString(HEALTH.resolve("benchmarkrun.lua")));

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
            Path script, StatusFixture fixture, String health, String message, Kstatus.Status kstatus)
            throws IOException {
        Globals globals = JsePlatform.standardGlobals();
        globals.set("obj", lua(fixture.json()));
        LuaValue result = globals.load(
                        Files.readString(script), script.getFileName().toString())
                .call();

        assertThat(result.get("status").tojstring()).isEqualTo(health);
        assertThat(result.get("message").tojstring()).contains(message);
        assertThat(Kstatus.of(fixture.json())).as("kstatus").isEqualTo(kstatus);
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
