package dev.llmops.serving.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.demo.ExampleResourcesWithStatus;
import dev.llmops.serving.demo.SimulatedGpuNode;
import dev.llmops.serving.demo.apiserver.EmbeddedKubernetes;
import dev.llmops.serving.e2e.support.ControlPlaneBinaries;
import dev.llmops.serving.e2e.support.KubectlTable;
import dev.llmops.serving.e2e.support.Processes;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real kubectl against the demo's embedded API: it finds the resources by name and short name, prints the printer
 * columns and the built-in kinds' columns, watches, describes, explains from the CRD schema, lists events and reads
 * pod and Job logs, as it does on a real cluster.
 */
class KubectlOnEmbeddedApiIT {

    private static final String NAMESPACE = "demo";
    private static final Duration KUBECTL_TIMEOUT = Duration.ofSeconds(60);
    private static final String JOB = "kimi-k2-eagle3-bench";

    @TempDir
    static Path workDirectory;

    private static EmbeddedKubernetes kubernetes;
    private static Path kubectl;
    private static Path kubeconfig;

    @BeforeAll
    static void startWithExamples() {
        kubectl = ControlPlaneBinaries.locate().path("kubectl");
        kubernetes = EmbeddedKubernetes.start(0);
        ExampleResourcesWithStatus.create(kubernetes.client(), NAMESPACE);
        String serverUid = kubernetes
                .client()
                .resources(ModelServer.class)
                .inNamespace(NAMESPACE)
                .withName(ExampleResourcesWithStatus.SERVER)
                .get()
                .getMetadata()
                .getUid();
        kubernetes
                .client()
                .resource(new EventBuilder()
                        .withNewMetadata()
                        .withName("qwen3-8b.scheduling")
                        .withNamespace(NAMESPACE)
                        .endMetadata()
                        .withNewInvolvedObject()
                        .withApiVersion("serving.llmops.dev/v1alpha1")
                        .withKind("ModelServer")
                        .withName(ExampleResourcesWithStatus.SERVER)
                        .withNamespace(NAMESPACE)
                        .withUid(serverUid)
                        .endInvolvedObject()
                        .withType("Warning")
                        .withReason("InsufficientGPUs")
                        .withMessage("No node has 1 free NVIDIA-B200")
                        .withNewSource()
                        .withComponent("llm-serving-operator")
                        .endSource()
                        .build())
                .create();
        kubernetes
                .client()
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("qwen3-8b-0")
                        .withNamespace(NAMESPACE)
                        .endMetadata()
                        .withNewSpec()
                        .addNewContainer()
                        .withName("sglang")
                        .withImage("lmsysorg/sglang")
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
        Job job = kubernetes
                .client()
                .resource(new JobBuilder()
                        .withNewMetadata()
                        .withName(JOB)
                        .withNamespace(NAMESPACE)
                        .endMetadata()
                        .withNewSpec()
                        .withNewTemplate()
                        .withNewSpec()
                        .addNewContainer()
                        .withName("bench")
                        .withImage("llm-serving-operator")
                        .endContainer()
                        .endSpec()
                        .endTemplate()
                        .endSpec()
                        .build())
                .create();
        Job stored = kubernetes
                .client()
                .batch()
                .v1()
                .jobs()
                .inNamespace(NAMESPACE)
                .withName(JOB)
                .get();
        kubernetes
                .client()
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(JOB + "-x7k2p")
                        .withNamespace(NAMESPACE)
                        .withLabels(stored.getSpec().getTemplate().getMetadata().getLabels())
                        .addNewOwnerReference()
                        .withApiVersion("batch/v1")
                        .withKind("Job")
                        .withName(JOB)
                        .withUid(job.getMetadata().getUid())
                        .withController(true)
                        .endOwnerReference()
                        .endMetadata()
                        .withNewSpec()
                        .addNewContainer()
                        .withName("bench")
                        .withImage("llm-serving-operator")
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
        SimulatedGpuNode.register(kubernetes.client());
        kubernetes.servePodLogs((namespace, pod, container) ->
                Optional.of(pod.startsWith(JOB) ? "stage c8 done\n" : "Load weight begin\nThe server is fired up\n"));

        kubeconfig = kubernetes.writeKubeconfig(workDirectory.resolve("kubeconfig"));
    }

    @AfterAll
    static void stop() {
        if (kubernetes != null) {
            kubernetes.close();
        }
    }

    @Test
    void getPrintsThePrinterColumnsOfBothKinds() {
        List<Map<String, String>> rows = KubectlTable.parse(kubectl("get", "ms,br", "-n", NAMESPACE));

        assertThat(rows).hasSize(2);
        assertThat(rows.get(0))
                .containsOnlyKeys("NAME", "MODEL", "GPUS", "PHASE", "READY", "AGE")
                .containsEntry("NAME", "modelserver.serving.llmops.dev/qwen3-8b")
                .containsEntry("MODEL", "Qwen/Qwen3-8B")
                .containsEntry("GPUS", "1")
                .containsEntry("PHASE", "Degraded")
                .containsEntry("READY", "1/2");
        assertThat(rows.get(1))
                .containsOnlyKeys(
                        "NAME",
                        "TARGET",
                        "PHASE",
                        "PROGRESS",
                        "SINGLE TOK/S",
                        "PEAK TOK/S",
                        "AT CONC",
                        "CAPACITY",
                        "AGE")
                .containsEntry("NAME", "benchmarkrun.serving.llmops.dev/kimi-k2-eagle3")
                .containsEntry("PHASE", "Succeeded")
                .containsEntry("SINGLE TOK/S", "182.4");
        assertThat(rows.get(1).get("AGE")).matches("\\d+s");
    }

    @Test
    void wideOutputAddsThePriorityOneColumns() {
        List<Map<String, String>> runs = KubectlTable.parse(kubectl("get", "br", "-n", NAMESPACE, "-o", "wide"));
        List<Map<String, String>> servers = KubectlTable.parse(kubectl("get", "ms", "-n", NAMESPACE, "-o", "wide"));

        assertThat(runs)
                .singleElement()
                .satisfies(run -> assertThat(run)
                        .containsOnlyKeys(
                                "NAME",
                                "TARGET",
                                "PHASE",
                                "PROGRESS",
                                "SINGLE TOK/S",
                                "PEAK TOK/S",
                                "AT CONC",
                                "CAPACITY",
                                "SPEEDUP",
                                "QUALITY",
                                "REASON",
                                "AGE")
                        .containsEntry("NAME", ExampleResourcesWithStatus.RUN)
                        .containsEntry("TARGET", "kimi-k2-eagle3")
                        .containsEntry("PHASE", "Succeeded")
                        .containsEntry("PROGRESS", "7/7")
                        .containsEntry("PEAK TOK/S", "2140.5")
                        .containsEntry("AT CONC", "48")
                        .containsEntry("SPEEDUP", "1.62x [1.50, 1.75] at c48")
                        .containsEntry("QUALITY", "OutputsAgree")
                        .containsEntry("REASON", "Succeeded"));
        assertThat(servers)
                .singleElement()
                .satisfies(server -> assertThat(server)
                        .containsEntry("REASON", "InsufficientGPUs")
                        .containsEntry("ENDPOINT", "http://qwen3-8b.demo.svc:30000"));
    }

    @Test
    void describeShowsTheSpecStatusAndEvents() {
        String description = kubectl("describe", "ms", ExampleResourcesWithStatus.SERVER, "-n", NAMESPACE);

        assertThat(description)
                .contains(
                        "Name:",
                        ExampleResourcesWithStatus.SERVER,
                        "Kind:",
                        "ModelServer",
                        "Qwen/Qwen3-8B",
                        "Degraded",
                        "InsufficientGPUs");
        assertThat(description.substring(description.indexOf("Events:")))
                .contains("Warning", "InsufficientGPUs", "llm-serving-operator", "No node has 1 free NVIDIA-B200");
    }

    @Test
    void explainPrintsTheFieldDescriptionsOfTheCrd() {
        String explanation = kubectl("explain", "modelserver.spec");

        assertThat(explanation)
                .contains(
                        "KIND:       ModelServer",
                        "VERSION:    v1alpha1",
                        "FIELD: spec <Object>",
                        "accelerator\t<Object>",
                        "Which GPUs each replica needs and on which nodes they may be.");
    }

    @Test
    void apiResourcesListTheKindsWithTheirShortNames() {
        List<Map<String, String>> resources = KubectlTable.parse(kubectl("api-resources"));

        assertThat(resources)
                .filteredOn(resource -> resource.get("NAME").equals("modelservers"))
                .singleElement()
                .satisfies(resource -> assertThat(resource)
                        .containsEntry("SHORTNAMES", "ms")
                        .containsEntry("APIVERSION", "serving.llmops.dev/v1alpha1")
                        .containsEntry("NAMESPACED", "true")
                        .containsEntry("KIND", "ModelServer"));
        assertThat(resources)
                .filteredOn(resource -> resource.get("NAME").equals("benchmarkruns"))
                .singleElement()
                .satisfies(resource -> assertThat(resource).containsEntry("SHORTNAMES", "br"));
    }

    @Test
    void logsReadsThePodLogThroughTheApi() {
        assertThat(kubectl("logs", "qwen3-8b-0", "-n", NAMESPACE, "--tail=1")).isEqualTo("The server is fired up\n");
    }

    @Test
    void getWatchPrintsTheListThenEachChangeUntilStopped() throws Exception {
        Path output = workDirectory.resolve("watch-output.txt");
        Process watch = new ProcessBuilder(command("get", "br", "-n", NAMESPACE, "-w"))
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        try {
            awaitOutput(output, ExampleResourcesWithStatus.RUN);
            BenchmarkRun watched = kubernetes
                    .client()
                    .getKubernetesSerialization()
                    .unmarshal(
                            String.join(
                                    "\n",
                                    "apiVersion: serving.llmops.dev/v1alpha1",
                                    "kind: BenchmarkRun",
                                    "metadata:",
                                    "  name: watched",
                                    "spec:",
                                    "  target:",
                                    "    modelServer: qwen3-8b"),
                            BenchmarkRun.class);
            kubernetes.client().resource(watched).inNamespace(NAMESPACE).create();

            String printed = awaitOutput(output, "watched");
            assertThat(watch.isAlive()).as("the watch keeps streaming").isTrue();
            assertThat(printed).doesNotContain("rror");
            assertThat(printed.lines().filter(line -> line.startsWith("NAME ")).count())
                    .as("the header once")
                    .isEqualTo(1);
        } finally {
            Processes.stop(watch, Duration.ofSeconds(5));
            kubernetes
                    .client()
                    .resources(BenchmarkRun.class)
                    .inNamespace(NAMESPACE)
                    .withName("watched")
                    .delete();
        }
    }

    @Test
    void getPodsEventsAndNodesPrintKubectlsColumns() {
        List<Map<String, String>> pods = KubectlTable.parse(kubectl("get", "pods", "-n", NAMESPACE));
        List<Map<String, String>> events = KubectlTable.parse(kubectl("get", "events", "-n", NAMESPACE));
        List<Map<String, String>> nodes = KubectlTable.parse(kubectl("get", "nodes"));

        assertThat(pods)
                .filteredOn(pod -> pod.get("NAME").equals("qwen3-8b-0"))
                .singleElement()
                .satisfies(pod -> assertThat(pod)
                        .containsOnlyKeys("NAME", "READY", "STATUS", "RESTARTS", "AGE")
                        .containsEntry("READY", "0/1")
                        .containsEntry("RESTARTS", "0"));
        assertThat(events)
                .filteredOn(event -> event.get("REASON").equals("InsufficientGPUs"))
                .singleElement()
                .satisfies(event -> assertThat(event)
                        .containsOnlyKeys("LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE")
                        .containsEntry("TYPE", "Warning")
                        .containsEntry("OBJECT", "modelserver/qwen3-8b")
                        .containsEntry("MESSAGE", "No node has 1 free NVIDIA-B200"));
        assertThat(nodes)
                .singleElement()
                .satisfies(node -> assertThat(node)
                        .containsOnlyKeys("NAME", "STATUS", "ROLES", "AGE", "VERSION")
                        .containsEntry("NAME", SimulatedGpuNode.NAME)
                        .containsEntry("STATUS", "Ready")
                        .containsEntry("ROLES", "<none>"));
    }

    @Test
    void eventsListsTheNamespacesEvents() {
        assertThat(kubectl("events", "-n", NAMESPACE))
                .contains("LAST SEEN", "InsufficientGPUs", "ModelServer/qwen3-8b", "No node has 1 free NVIDIA-B200");
    }

    @Test
    void logsOfAJobReadItsPod() {
        assertThat(kubectl("logs", "job/" + JOB, "-n", NAMESPACE)).isEqualTo("stage c8 done\n");
    }

    /** Waits until the output file contains the text; returns the output. */
    private static String awaitOutput(Path output, String text) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + KUBECTL_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            String printed = Files.readString(output, StandardCharsets.UTF_8);
            if (printed.contains(text)) {
                return printed;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("kubectl did not print " + text + " within " + KUBECTL_TIMEOUT + ":\n"
                + Files.readString(output, StandardCharsets.UTF_8));
    }

    private static List<String> command(String... args) {
        List<String> command = new ArrayList<>(List.of(
                kubectl.toString(),
                "--kubeconfig=" + kubeconfig,
                "--cache-dir=" + workDirectory.resolve("kubectl-cache"),
                "--request-timeout=30s"));
        command.addAll(List.of(args));
        return command;
    }

    /** Runs kubectl with a cache of its own, within a time limit; returns its output, fails when it fails. */
    private static String kubectl(String... args) {
        List<String> command = command(args);
        Path output = workDirectory.resolve("kubectl-output.txt");
        try {
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .start();
            if (!process.waitFor(KUBECTL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                Processes.stop(process, Duration.ofSeconds(5));
                throw new AssertionError(command + " did not finish within " + KUBECTL_TIMEOUT + ":\n"
                        + Files.readString(output, StandardCharsets.UTF_8));
            }
            String printed = Files.readString(output, StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new AssertionError(command + " exited with " + process.exitValue() + ":\n" + printed);
            }
            return printed;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted while running " + command, e);
        }
    }
}
