package dev.llmops.serving.operator.benchmark;

import static dev.llmops.serving.operator.benchmark.BenchmarkFixtures.url;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmops.serving.api.contract.CapacityMode;
import dev.llmops.serving.api.contract.CapacityOutcome;
import dev.llmops.serving.api.contract.SampleBombs;
import dev.llmops.serving.api.contract.SampleSet;
import dev.llmops.serving.api.contract.StageSamples;
import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.SecretKeyReference;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.CapacityResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.SpeedVerdict;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.CapacitySpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.ReferenceSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.SloSpec;
import dev.llmops.serving.api.v1alpha1.modelserver.Diagnosis;
import dev.llmops.serving.api.v1alpha1.modelserver.InferenceProbeResult;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.benchmark.BenchmarkTestProfile;
import dev.llmops.serving.operator.benchmark.comparison.PairedRuns;
import dev.llmops.serving.operator.benchmark.comparison.PlantedSamples;
import dev.llmops.serving.operator.benchmark.comparison.SampleStore;
import dev.llmops.serving.operator.toolkit.Conditions;
import dev.llmops.serving.operator.toolkit.PodLogs;
import dev.llmops.serving.operator.toolkit.StaleStatusWrites;
import dev.llmops.serving.simulator.SglangSimulator;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.mockwebserver.dsl.TimesOnceableOrHttpHeaderable;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.javaoperatorsdk.operator.Operator;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import org.assertj.core.api.ThrowingConsumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@TestProfile(BenchmarkTestProfile.class)
@WithKubernetesTestServer(crud = true)
class BenchmarkRunReconcilerTest {

    @Inject
    KubernetesClient client;

    @KubernetesTestServer
    KubernetesServer server;

    @Inject
    MeterRegistry registry;

    @Inject
    Operator operator;

    BenchmarkFixtures fixtures;

    /** The picocli entry point keeps the extension from starting the operator by itself; starting twice is a no-op. */
    @BeforeEach
    void setUp() throws IOException {
        operator.start();
        fixtures = new BenchmarkFixtures(client);
        fixtures.installCrds();
    }

    @Test
    void waitsForTheServerRunsTheJobAndPutsTheResultsInTheStatus() throws JsonProcessingException {
        String ns = BenchmarkTestProfile.FLOW;
        try (SglangSimulator simulator = RunnerRuns.simulator()) {
            fixtures.createModelServer(ns, "kimi", spec -> {
                spec.apiKeySecret = new SecretKeyReference();
                spec.apiKeySecret.name = "kimi-api";
                spec.apiKeySecret.key = "token";
            });
            fixtures.editServerStatus(
                    ns, "kimi", status -> status.conditions.add(condition("InferenceReady", "False", "Loading")));
            fixtures.createRun(ns, "kimi-ar", spec -> {
                spec.target.modelServer = "kimi";
                RunnerRuns.smallPlan(spec);
                spec.slo = new SloSpec();
                spec.slo.ttftP99Millis = 1;
                spec.slo.tpotP99Millis = 60000;
            });

            BenchmarkRun waiting =
                    fixtures.awaitRun(ns, "kimi-ar", r -> r.getStatus().phase == BenchmarkRunPhase.WaitingForServer);
            assertThat(waiting.getStatus().target).isEqualTo("kimi");
            assertThat(condition(waiting, "Ready"))
                    .extracting(Condition::getStatus, Condition::getReason)
                    .containsExactly("False", "WaitingForServer");
            assertThat(condition(waiting, "Ready").getObservedGeneration())
                    .isEqualTo(waiting.getMetadata().getGeneration());
            assertThat(condition(waiting, "Reconciling").getStatus()).isEqualTo("True");
            assertThat(client.batch().v1().jobs().inNamespace(ns).list().getItems())
                    .isEmpty();

            client.resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName("gpu-node-1")
                            .addToLabels("nvidia.com/gpu.product", "NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition")
                            .addToLabels("nvidia.com/cuda.driver-version.full", "580.95.05")
                            .endMetadata()
                            .build())
                    .create();
            client.resource(new PodBuilder()
                            .withNewMetadata()
                            .withName("kimi-0")
                            .withNamespace(ns)
                            .addToLabels(Labels.MODEL_SERVER, "kimi")
                            .addToLabels(Labels.COMPONENT, Labels.SERVER)
                            .endMetadata()
                            .withNewSpec()
                            .withNodeName("gpu-node-1")
                            .addNewContainer()
                            .withName("sglang")
                            .withImage("sglang")
                            .endContainer()
                            .endSpec()
                            .withNewStatus()
                            .withPodIP("10.1.2.3")
                            .addNewCondition()
                            .withType("Ready")
                            .withStatus("True")
                            .endCondition()
                            .addNewCondition()
                            .withType(ConditionTypes.POD_INFERENCE_READY)
                            .withStatus("True")
                            .endCondition()
                            .endStatus()
                            .build())
                    .create();
            fixtures.editServerStatus(ns, "kimi", status -> {
                status.conditions.set(0, condition("InferenceReady", "True", "GenerationSucceeded"));
                status.endpoint = simulator.baseUrl().toString();
                status.image = "lmsysorg/sglang:v0.5.18-cu130";
                status.serverArgs =
                        List.of("--model-path", "moonshotai/Kimi-K2-Instruct", "--tp-size", "8", "--api-key", "sk-1");
                status.lastInferenceProbe = new InferenceProbeResult();
                status.lastInferenceProbe.pod = "kimi-0";
            });

            Job job = fixtures.awaitJob(ns, "kimi-ar");
            assertJobSpec(job);
            List<String> args =
                    job.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs();
            assertThat(args)
                    .containsSubsequence("--url", simulator.baseUrl().toString(), "--model", "kimi-k2")
                    .containsSubsequence("--api-key-env", "BENCH_API_KEY")
                    .containsSubsequence("--metrics-url", "http://10.1.2.3:30000/metrics")
                    .containsOnlyOnce("--metrics-url");
            assertThat(job.getSpec()
                            .getTemplate()
                            .getSpec()
                            .getContainers()
                            .get(0)
                            .getEnv()
                            .get(0)
                            .getValueFrom()
                            .getSecretKeyRef())
                    .extracting(s -> s.getName(), s -> s.getKey())
                    .containsExactly("kimi-api", "token");
            assertThat(job.getMetadata().getOwnerReferences())
                    .singleElement()
                    .satisfies(ref -> assertThat(ref.getController()).isTrue())
                    .satisfies(ref -> assertThat(ref.getKind()).isEqualTo("BenchmarkRun"));

            // The pod's part, played by the real runner with the Job's own arguments.
            RunnerRuns.Output output = RunnerRuns.bench(args);
            assertThat(output.exitCode()).as(output.stderr()).isZero();
            List<String> progressLines = output.stderr()
                    .lines()
                    .filter(l -> l.startsWith("PROGRESS "))
                    .toList();
            assertThat(progressLines)
                    .as("the operator always asks for the quality stage, and its progress names it")
                    .containsExactly(
                            "PROGRESS 0/3 single",
                            "PROGRESS 1/3 quality",
                            "PROGRESS 1/3 c2",
                            "PROGRESS 2/3 c4",
                            "PROGRESS 3/3");

            // The log is served before the pod exists: the pod's first reconcile may read it at once.
            String c4Started = "PROGRESS 2/3 c4";
            String podName = BenchmarkFixtures.jobPodName(job);
            server.expect()
                    .get()
                    .withPath("/api/v1/namespaces/" + ns + "/pods/"
                            + podName + "/log?pretty=false&container=bench&tailLines="
                            + JobObserver.LOG_LINES + "&limitBytes=" + PodLogs.MAX_TAIL_BYTES)
                    .andReturn(
                            200,
                            output.stderr().substring(0, output.stderr().indexOf(c4Started) + c4Started.length() + 1))
                    .always();
            server.expect()
                    .get()
                    .withPath(samplesLogPath(ns, podName))
                    .andReturn(200, output.stdout())
                    .always();
            Pod pod = fixtures.startJobPod(job);
            BenchmarkRun running = fixtures.awaitRun(ns, "kimi-ar", r -> "2/3 c4".equals(r.getStatus().progress));
            assertThat(running.getStatus().phase).isEqualTo(BenchmarkRunPhase.Running);
            assertThat(running.getStatus().jobName).isEqualTo("kimi-ar-bench");
            assertThat(running.getStatus().startTime).isNotNull();
            assertThat(running.getStatus().provenance).satisfies(p -> {
                assertThat(p.gpuProduct).isEqualTo("NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition");
                assertThat(p.driverVersion).isEqualTo("580.95.05");
                assertThat(p.gpuCount).isEqualTo(8);
                assertThat(p.image).isEqualTo("lmsysorg/sglang:v0.5.18-cu130");
                assertThat(p.serverArgs).contains("--tp-size").endsWith("--api-key", "<redacted>");
            });

            fixtures.finishJob(job, pod, 0, output.summary());

            BenchmarkRun done =
                    fixtures.awaitRun(ns, "kimi-ar", r -> r.getStatus().phase == BenchmarkRunPhase.Succeeded);
            assertThat(done.getStatus().stages).extracting(s -> s.name).containsExactly("single", "c2", "c4");
            assertThat(done.getStatus().stages)
                    .allSatisfy(s -> assertThat(s.outputTokensPerSecond).isPositive());
            assertThat(done.getStatus().singleRequests).hasSize(3);
            assertThat(done.getStatus().summary.singleStreamTokensPerSecond).isPositive();
            JsonNode reported = new ObjectMapper().readTree(output.summary()).get("sum");
            assertThat(done.getStatus().summary.peakTokensPerSecond)
                    .as("the peak the pod reported in its termination message")
                    .isEqualTo(reported.get("peak").asDouble())
                    .isPositive();
            assertThat(done.getStatus().summary.peakConcurrency)
                    .isEqualTo(reported.get("peakc").asInt())
                    .isIn(2, 4);
            assertThat(done.getStatus().summary.failedRequests).isZero();
            assertThat(done.getStatus().progress).isEqualTo("3/3");
            assertThat(done.getStatus().completionTime).isNotNull();
            assertThat(done.getStatus().provenance.model).isEqualTo("kimi-k2");
            assertThat(done.getStatus().samples).isEqualTo("kimi-ar-samples");
            ConfigMap samples = client.configMaps()
                    .inNamespace(ns)
                    .withName("kimi-ar-samples")
                    .get();
            assertThat(samples.getMetadata().getOwnerReferences())
                    .singleElement()
                    .satisfies(ref -> assertThat(ref.getUid())
                            .isEqualTo(done.getMetadata().getUid()));
            SampleSet stored = SampleSet.fromGzip(
                    Base64.getDecoder().decode(samples.getBinaryData().get(SampleStore.KEY)));
            assertThat(stored.stages()).extracting(StageSamples::name).containsExactly("single", "c2", "c4");
            assertThat(stored.stage("c4").size()).isEqualTo(8);
            assertThat(stored.quality()).hasSize(3);
            assertThat(done.getStatus().warnings).noneMatch(w -> w.startsWith("No per-request samples"));
            assertThat(condition(done, "Ready"))
                    .extracting(Condition::getStatus, Condition::getReason)
                    .containsExactly("True", "Succeeded");
            assertThat(condition(done, "Succeeded").getStatus()).isEqualTo("True");
            assertThat(condition(done, "Reconciling").getStatus()).isEqualTo("False");
            assertThat(condition(done, "Stalled").getStatus()).isEqualTo("False");
            // no simulated first token comes within 1 ms, so the TTFT limit breaks at the lowest level: the single
            // requests
            assertThat(condition(done, "SLOMet"))
                    .extracting(Condition::getStatus, Condition::getReason)
                    .containsExactly("False", "SLOBroken");
            assertThat(done.getStatus().sloBrokenAtConcurrency).isEqualTo(1);
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(fixtures.events(ns, "kimi-ar"))
                            .extracting(Event::getReason)
                            .contains("JobRunning", "Succeeded")
                            .as("waiting is a momentary phase: the status says it, no Event")
                            .doesNotContain("WaitingForServer"));

            double c4 = done.getStatus().stages.get(2).outputTokensPerSecond;
            assertThat(registry.find(BenchmarkMetrics.OUTPUT_THROUGHPUT)
                            .tags("run", "kimi-ar", "namespace", ns, "stage", "c4")
                            .gauge())
                    .isNotNull()
                    .satisfies(g -> assertThat(g.value()).isEqualTo(c4));
            double ttftP99Seconds = done.getStatus().stages.get(2).ttftMillis.p99 / 1000.0;
            assertThat(registry.find(BenchmarkMetrics.TTFT)
                            .tags(
                                    "run",
                                    "kimi-ar",
                                    "stage",
                                    "c4",
                                    "concurrency",
                                    "4",
                                    "stat",
                                    "p99",
                                    "model",
                                    "kimi-k2")
                            .gauge()
                            .value())
                    .isEqualTo(ttftP99Seconds);

            assertThat(done.getMetadata().getFinalizers())
                    .as("no finalizer: the gauges go when the deletion is seen")
                    .isEmpty();
            client.resource(done).delete();
            await().atMost(BenchmarkFixtures.TIMEOUT)
                    .until(() -> registry.find(BenchmarkMetrics.OUTPUT_THROUGHPUT)
                            .tag("run", "kimi-ar")
                            .gauges()
                            .isEmpty());
        }
    }

    /**
     * A new run has a status from its first reconcile, saying what it waits for even before its server reports; a
     * reconcile that finds nothing new sends no status request at all.
     */
    @Test
    void aNewRunHasAStatusAtOnceAndWritesNothingWhenNothingChanged() throws InterruptedException {
        String ns = BenchmarkTestProfile.FIRST_STATUS;
        fixtures.createRun(ns, "early", spec -> spec.target.modelServer = "absent");
        BenchmarkRun missing =
                fixtures.awaitRun(ns, "early", r -> r.getStatus().phase == BenchmarkRunPhase.WaitingForServer);
        assertThat(condition(missing, "Ready").getMessage()).contains("ModelServer absent does not exist");
        assertThat(condition(missing, "Ready").getReason()).isEqualTo("WaitingForServer");

        fixtures.createModelServer(ns, "slow");
        fixtures.createRun(ns, "patient", spec -> spec.target.modelServer = "slow");
        fixtures.awaitRun(ns, "patient", r -> r.getStatus().phase == BenchmarkRunPhase.WaitingForServer);
        fixtures.editServerStatus(
                ns, "slow", status -> status.conditions.add(condition("InferenceReady", "False", "Loading")));
        BenchmarkRun waiting = fixtures.awaitRun(
                ns, "patient", r -> condition(r, "Ready").getMessage().contains("InferenceReady=False (Loading)"));
        assertThat(waiting.getStatus().phase).isEqualTo(BenchmarkRunPhase.WaitingForServer);
        statusRequests(ns, "patient");

        for (int touch = 1; touch <= 2; touch++) {
            String value = String.valueOf(touch);
            client.resources(ModelServer.class).inNamespace(ns).withName("slow").edit(server -> {
                server.getMetadata().setAnnotations(Map.of("touched", value));
                return server;
            });
        }
        await().pollDelay(Duration.ofSeconds(3))
                .atMost(BenchmarkFixtures.TIMEOUT)
                .until(() -> true);
        assertThat(statusRequests(ns, "patient"))
                .as("the wake-ups after the server's state was written changed nothing")
                .isEmpty();
        assertThat(fixtures.events(ns, "patient")).isEmpty();
    }

    /** The API server's answer to a log read while it cannot reach the pod's kubelet, for as many reads as set. */
    private TimesOnceableOrHttpHeaderable<Void> kubeletUnreachable(String logPath) {
        return server.expect()
                .get()
                .withPath(logPath)
                .andReturn(
                        503,
                        new StatusBuilder()
                                .withCode(503)
                                .withMessage("kubelet unreachable")
                                .build());
    }

    /** The requests to a run's status subresource the mock API server has recorded (draining its record). */
    private List<String> statusRequests(String namespace, String name) throws InterruptedException {
        String path = "/namespaces/" + namespace + "/benchmarkruns/" + name + "/status";
        List<String> requests = new ArrayList<>();
        RecordedRequest request;
        while ((request = server.getKubernetesMockServer().takeRequest(100, TimeUnit.MILLISECONDS)) != null) {
            if (request.getPath().contains(path)) {
                requests.add(request.getMethod() + " " + request.getPath());
            }
        }
        return requests;
    }

    /** How many requests for {@code path} the mock API server has recorded (draining its record). */
    private long logRequests(String path) throws InterruptedException {
        long requests = 0;
        RecordedRequest request;
        while ((request = server.getKubernetesMockServer().takeRequest(100, TimeUnit.MILLISECONDS)) != null) {
            if (request.getPath().equals(path)) {
                requests++;
            }
        }
        return requests;
    }

    @Test
    void failsWithTheServersDiagnosisWhenItDoesNotBecomeReadyInTime() {
        String ns = BenchmarkTestProfile.TIMEOUT;
        fixtures.createModelServer(ns, "broken");
        fixtures.editServerStatus(ns, "broken", status -> {
            status.conditions.add(condition("InferenceReady", "False", "CudaHeadersMissing"));
            status.diagnosis = new Diagnosis();
            status.diagnosis.reason = "CudaHeadersMissing";
            status.diagnosis.message = "FlashInfer JIT failed: curand.h: No such file or directory";
            status.diagnosis.hint = "Use the full (non-runtime) CUDA 13 image.";
        });
        fixtures.createRun(ns, "impatient", spec -> {
            spec.target.modelServer = "broken";
            spec.waitTimeoutSeconds = 2;
        });

        BenchmarkRun failed = fixtures.awaitRun(ns, "impatient", r -> r.getStatus().phase == BenchmarkRunPhase.Failed);

        Condition ready = condition(failed, "Ready");
        assertThat(ready.getReason()).isEqualTo("ServerNotReady");
        assertThat(ready.getMessage())
                .contains(
                        "waitTimeoutSeconds (2 s)",
                        "CudaHeadersMissing",
                        "curand.h: No such file or directory",
                        "Hint: Use the full (non-runtime) CUDA 13 image.");
        assertThat(condition(failed, "Stalled"))
                .extracting(Condition::getStatus, Condition::getReason)
                .containsExactly("True", "ServerNotReady");
        assertThat(condition(failed, "Succeeded").getStatus()).isEqualTo("False");
        assertThat(client.batch().v1().jobs().inNamespace(ns).list().getItems()).isEmpty();
        awaitEvent(ns, "impatient", e -> {
            assertThat(e.getType()).isEqualTo("Warning");
            assertThat(e.getReason()).isEqualTo("ServerNotReady");
        });
    }

    @Test
    void anApiKeyBoundForAHostNotAllowListedStallsTheRunWithoutAJob() {
        String ns = BenchmarkTestProfile.SECRET_HOST;
        fixtures.createRun(
                ns,
                "exfiltrate",
                url("http://api.allowed.example@collector.example:8080/v1").andThen(spec -> {
                    spec.target.apiKeySecret = new SecretKeyReference();
                    spec.target.apiKeySecret.name = "cloud-credentials";
                    spec.target.apiKeySecret.key = "token";
                }));
        fixtures.createRun(ns, "hosted", url("https://llm.allowed.example").andThen(spec -> {
            spec.target.apiKeySecret = new SecretKeyReference();
            spec.target.apiKeySecret.name = "hosted-api";
            spec.target.apiKeySecret.key = "token";
        }));

        BenchmarkRun refused =
                fixtures.awaitRun(ns, "exfiltrate", r -> r.getStatus().phase == BenchmarkRunPhase.Failed);
        assertThat(condition(refused, "Stalled"))
                .extracting(Condition::getStatus, Condition::getReason)
                .containsExactly("True", "SecretHostNotAllowed");
        assertThat(condition(refused, "Stalled").getMessage())
                .contains(
                        "spec.target.apiKeySecret",
                        "spec.target.url",
                        "host collector.example",
                        "llmops.benchmark.api-key-hosts",
                        "benchmark.apiKeyHosts");
        awaitEvent(ns, "exfiltrate", e -> assertThat(e.getReason()).isEqualTo("SecretHostNotAllowed"));

        Job allowed = fixtures.awaitJob(ns, "hosted");
        assertThat(allowed.getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getEnv())
                .anySatisfy(
                        env -> assertThat(env.getValueFrom().getSecretKeyRef().getName())
                                .isEqualTo("hosted-api"));
        assertThat(client.batch().v1().jobs().inNamespace(ns).list().getItems())
                .extracting(job -> job.getMetadata().getName())
                .containsExactly("hosted-bench");
    }

    @Test
    void aRunOfAModelServerThatNamesAnotherSecretIsRefusedWithoutAJob() {
        String ns = BenchmarkTestProfile.SERVERS_SECRET;
        fixtures.createModelServer(ns, "guarded", spec -> {
            spec.apiKeySecret = new SecretKeyReference();
            spec.apiKeySecret.name = "guarded-api";
            spec.apiKeySecret.key = "token";
        });
        fixtures.editServerStatus(ns, "guarded", status -> {
            status.conditions.add(condition("InferenceReady", "True", "GenerationSucceeded"));
            status.endpoint = "http://guarded." + ns + ".svc:30000";
        });
        fixtures.createRun(ns, "borrow", spec -> {
            spec.target.modelServer = "guarded";
            spec.target.apiKeySecret = new SecretKeyReference();
            spec.target.apiKeySecret.name = "cloud-credentials";
            spec.target.apiKeySecret.key = "token";
        });
        fixtures.createRun(ns, "keyed", spec -> spec.target.modelServer = "guarded");

        BenchmarkRun refused = fixtures.awaitRun(ns, "borrow", r -> r.getStatus().phase == BenchmarkRunPhase.Failed);
        assertThat(condition(refused, "Stalled"))
                .extracting(Condition::getStatus, Condition::getReason)
                .containsExactly("True", "SecretNotServers");
        assertThat(condition(refused, "Stalled").getMessage())
                .isEqualTo("spec.target.apiKeySecret (Secret cloud-credentials) is for an external spec.target.url; a"
                        + " run of ModelServer guarded sends that server's own spec.apiKeySecret, so no Job was"
                        + " created. Remove spec.target.apiKeySecret and create the run again.");
        Job keyed = fixtures.awaitJob(ns, "keyed");
        assertThat(keyed.getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getEnv())
                .extracting(env -> env.getValueFrom().getSecretKeyRef().getName())
                .containsExactly("guarded-api");
        assertThat(client.batch()
                        .v1()
                        .jobs()
                        .inNamespace(ns)
                        .withName("borrow-bench")
                        .get())
                .isNull();
    }

    @Test
    void aMalformedSummaryFailsTheRunWithResultsInvalid() {
        String ns = BenchmarkTestProfile.INVALID;
        fixtures.createRun(ns, "garbled", url("http://sglang.example:30000"));
        Job job = fixtures.awaitJob(ns, "garbled");
        Pod pod = fixtures.startJobPod(job);

        String summary = RunnerRuns.standardSummary();
        fixtures.finishJob(job, pod, 0, summary.substring(0, summary.length() / 2));

        BenchmarkRun failed = fixtures.awaitRun(ns, "garbled", r -> r.getStatus().phase == BenchmarkRunPhase.Failed);
        assertThat(condition(failed, "Ready").getReason()).isEqualTo("ResultsInvalid");
        assertThat(condition(failed, "Ready").getMessage())
                .contains(
                        "garbled-bench finished but its results cannot be used",
                        "cut off after " + summary.length() / 2 + " bytes");
        assertThat(failed.getStatus().stages).isEmpty();
    }

    @Test
    void aPodThatOnlyCarriesTheJobsLabelsSuppliesNoResults() {
        String ns = BenchmarkTestProfile.INVALID;
        fixtures.createRun(ns, "forged", url("http://sglang.example:30000"));
        Job job = fixtures.awaitJob(ns, "forged");
        Pod coTenants = fixtures.startPod(job, "forged-bench-cotnt", false);

        fixtures.finishJob(job, coTenants, 0, RunnerRuns.standardSummary());

        BenchmarkRun failed = fixtures.awaitRun(ns, "forged", r -> r.getStatus().phase == BenchmarkRunPhase.Failed);
        assertThat(condition(failed, "Ready").getReason()).isEqualTo("ResultsInvalid");
        assertThat(condition(failed, "Ready").getMessage())
                .contains("no finished pod of Job forged-bench is left to read the summary from");
        assertThat(failed.getStatus().stages).isEmpty();
    }

    @Test
    void aSamplesLineThatDecodesPastItsBoundsFailsTheRunAndTheOperatorGoesOn() {
        String ns = BenchmarkTestProfile.INVALID;
        fixtures.createRun(ns, "bomb", url("http://sglang.example:30000"));
        Job job = fixtures.awaitJob(ns, "bomb");
        Pod pod = fixtures.startJobPod(job);
        server.expect()
                .get()
                .withPath(samplesLogPath(ns, pod.getMetadata().getName()))
                .andReturn(200, "PROGRESS 3/3\n" + SampleBombs.logLine(SampleBombs.numbersAsTokens()) + "\n")
                .always();

        fixtures.finishJob(job, pod, 0, RunnerRuns.standardSummary());

        BenchmarkRun failed = fixtures.awaitRun(ns, "bomb", r -> r.getStatus().phase == BenchmarkRunPhase.Failed);
        assertThat(condition(failed, "Ready").getReason()).isEqualTo("ResultsInvalid");
        assertThat(condition(failed, "Ready").getMessage())
                .startsWith("Job bomb-bench finished but its per-request samples cannot be used: sample line is "
                        + "unreadable: a token holds VALUE_NUMBER_INT where text belongs");
        assertThat(failed.getStatus().stages)
                .as("the summary's results are kept")
                .isNotEmpty();
        assertThat(client.configMaps().inNamespace(ns).withName("bomb-samples").get())
                .isNull();
    }

    @Test
    void aSamplesConfigMapTheOperatorDidNotWriteIsNeverAdopted() {
        String ns = BenchmarkTestProfile.INVALID;
        BenchmarkRun run = fixtures.createRun(ns, "squatted", url("http://sglang.example:30000"));
        Job job = fixtures.awaitJob(ns, "squatted");
        client.resource(PlantedSamples.configMap("squatted-samples", run, SampleBombs.numbersAsTokens()))
                .create();
        Pod pod = fixtures.startJobPod(job);
        serveSamples(pod, 1);

        fixtures.finishJob(job, pod, 0, RunnerRuns.standardSummary());

        BenchmarkRun failed = fixtures.awaitRun(ns, "squatted", r -> r.getStatus().phase == BenchmarkRunPhase.Failed);
        assertThat(condition(failed, "Ready").getReason()).isEqualTo("SamplesConflict");
        assertThat(condition(failed, "Ready").getMessage())
                .isEqualTo("ConfigMap squatted-samples already exists and was not written by the operator for this"
                        + " run's samples; delete it (or name the run differently) and create the run again");
        assertThat(failed.getStatus().samples).isNull();
    }

    @Test
    void aJobTheApiServerRefusesFailsTheRunAtOnceWithTheApiServersMessage() {
        String ns = BenchmarkTestProfile.REFUSED;
        String refusal = "Job.batch \"refused-bench\" is invalid: spec.template.spec.tolerations[0].operator:"
                + " Invalid value: \"Exists\": value must be empty when `operator` is 'Exists'";
        // the tests' operator creates with POST (the mock API server has no server-side apply)
        server.expect()
                .post()
                .withPath("/apis/batch/v1/namespaces/" + ns + "/jobs")
                .andReturn(
                        422,
                        new StatusBuilder()
                                .withCode(422)
                                .withReason("Invalid")
                                .withMessage(refusal)
                                .build())
                .always();

        fixtures.createRun(ns, "refused", url("http://sglang.example:30000"));

        BenchmarkRun failed = fixtures.awaitRun(ns, "refused", r -> r.getStatus().phase == BenchmarkRunPhase.Failed);
        assertThat(condition(failed, "Ready").getReason()).isEqualTo("ReconcileError");
        assertThat(condition(failed, "Stalled").getStatus()).isEqualTo("True");
        assertThat(condition(failed, "Succeeded").getStatus()).isEqualTo("False");
        assertThat(condition(failed, "Stalled").getMessage())
                .isEqualTo("The API server refused a change and will refuse it until the spec changes: " + "job: "
                        + refusal + " (HTTP 422)");
    }

    @Test
    void theTargetDeletedMidRunFailsTheRun() {
        String ns = BenchmarkTestProfile.DELETED;
        fixtures.createModelServer(ns, "doomed");
        fixtures.editServerStatus(ns, "doomed", status -> {
            status.conditions.add(condition("InferenceReady", "True", "GenerationSucceeded"));
            status.endpoint = "http://doomed.bench-deleted.svc:30000";
        });
        fixtures.createRun(ns, "orphaned", spec -> spec.target.modelServer = "doomed");
        Job job = fixtures.awaitJob(ns, "orphaned");
        fixtures.startJobPod(job);
        fixtures.awaitRun(ns, "orphaned", r -> r.getStatus().phase == BenchmarkRunPhase.Running);

        client.resources(dev.llmops.serving.api.v1alpha1.modelserver.ModelServer.class)
                .inNamespace(ns)
                .withName("doomed")
                .delete();

        BenchmarkRun failed = fixtures.awaitRun(ns, "orphaned", r -> r.getStatus().phase == BenchmarkRunPhase.Failed);
        assertThat(condition(failed, "Ready").getReason()).isEqualTo("TargetDeleted");
        assertThat(condition(failed, "Ready").getMessage()).contains("ModelServer doomed was deleted");
    }

    @Test
    void aFailedJobSaysWhatTheRunnersExitCodeMeans() {
        String ns = BenchmarkTestProfile.FAILED;
        fixtures.createRun(ns, "misconfigured", url("http://sglang.example:30000"));
        Job job = fixtures.awaitJob(ns, "misconfigured");
        Pod pod = fixtures.startJobPod(job);

        fixtures.finishJob(job, pod, 2, "bench: --concurrency: level 0 is not between 1 and 4096");

        BenchmarkRun failed =
                fixtures.awaitRun(ns, "misconfigured", r -> r.getStatus().phase == BenchmarkRunPhase.Failed);
        assertThat(condition(failed, "Ready").getReason()).isEqualTo("BadConfiguration");
        assertThat(condition(failed, "Ready").getMessage())
                .contains("rejected its configuration (exit code 2)", "level 0 is not between 1 and 4096");
    }

    /**
     * A status write refused because the run changed since the reconcile read it (as after a leader change, or before
     * the cache has the operator's own last write) writes nothing and records nothing: the next reconcile, from the
     * newer copy, makes the transition and its one Event.
     */
    @Test
    void aStatusWriteOverAStaleCopyRecordsNoEventAndTheNextReconcileRecordsItOnce() {
        String ns = BenchmarkTestProfile.CONFLICT;
        StaleStatusWrites.refuseNext(server, ns, "benchmarkruns", "contended");

        fixtures.createRun(ns, "contended", url("http://sglang.example:30000"));

        BenchmarkRun running =
                fixtures.awaitRun(ns, "contended", r -> r.getStatus().phase == BenchmarkRunPhase.Running);
        assertThat(running.getStatus().conditions)
                .extracting(Condition::getReason)
                .as("a refused write is no reconcile error")
                .doesNotContain("ReconcileError");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !fixtures.events(ns, "contended").isEmpty());
        assertThat(fixtures.events(ns, "contended"))
                .extracting(Event::getReason)
                .containsExactly("JobRunning");
    }

    /** A run deleted while it is reconciled (another run's retention) is no reconcile error. */
    @Test
    void aStatusWriteOfARunDeletedMeanwhileIsNoReconcileError() {
        String ns = BenchmarkTestProfile.CONFLICT;
        StaleStatusWrites.deletedBeforeNext(server, ns, "benchmarkruns", "deleted-meanwhile");

        fixtures.createRun(ns, "deleted-meanwhile", url("http://sglang.example:30000"));

        BenchmarkRun running =
                fixtures.awaitRun(ns, "deleted-meanwhile", r -> r.getStatus().phase == BenchmarkRunPhase.Running);
        assertThat(running.getStatus().conditions)
                .extracting(Condition::getReason)
                .doesNotContain("ReconcileError");
    }

    @Test
    void comparesWithTheBaselineOnceTheBaselineHasFinished() throws JsonProcessingException {
        String ns = BenchmarkTestProfile.BASELINE;
        fixtures.createRun(ns, "eagle3", spec -> {
            url("http://eagle3.example:30000").accept(spec);
            spec.baseline = "autoregressive";
            spec.reference = new ReferenceSpec();
            spec.reference.name = "autoregressive";
        });
        Job eagleJob = fixtures.awaitJob(ns, "eagle3");
        String summary = RunnerRuns.standardSummary();
        Pod eaglePod = fixtures.startJobPod(eagleJob);
        serveSamples(eaglePod, 1.25);
        fixtures.finishJob(eagleJob, eaglePod, 0, summary);

        BenchmarkRun noBaseline = fixtures.awaitRun(
                ns,
                "eagle3",
                r -> Conditions.find(r.getStatus().conditions, ConditionTypes.BASELINE_COMPARED)
                        .isPresent());
        assertThat(noBaseline.getStatus().phase).isEqualTo(BenchmarkRunPhase.Succeeded);
        assertThat(condition(noBaseline, "BaselineCompared").getReason()).isEqualTo("BaselineNotFound");
        assertThat(noBaseline.getStatus().comparison).isNull();
        awaitEvent(ns, "eagle3", e -> assertThat(e.getReason()).isEqualTo("BaselineNotFound"));

        fixtures.createRun(ns, "autoregressive", url("http://autoregressive.example:30000"));
        fixtures.awaitRun(
                ns,
                "eagle3",
                r -> "BaselinePending".equals(condition(r, "BaselineCompared").getReason()));
        Job baselineJob = fixtures.awaitJob(ns, "autoregressive");
        Pod baselinePod = fixtures.startJobPod(baselineJob);
        serveSamples(baselinePod, 1);
        fixtures.finishJob(baselineJob, baselinePod, 0, halveHeadline(summary));

        BenchmarkRun compared = fixtures.awaitRun(
                ns, "eagle3", r -> r.getStatus().comparison != null && r.getStatus().referenceComparison != null);
        assertThat(compared.getStatus().comparison.baseline).isEqualTo("autoregressive");
        assertThat(compared.getStatus().comparison.singleStreamSpeedup).isEqualTo(2.0);
        assertThat(compared.getStatus().comparison.peakThroughputSpeedup).isEqualTo(2.0);
        assertThat(compared.getStatus().comparison.stages)
                .extracting(s -> s.name)
                .containsExactly("single", "c2", "c4");
        assertThat(compared.getStatus().comparison.stages).allSatisfy(s -> {
            assertThat(s.verdict).isEqualTo(SpeedVerdict.Slower);
            assertThat(s.throughputSpeedup).isCloseTo(0.8, within(0.02));
        });
        assertThat(condition(compared, "BaselineCompared"))
                .extracting(Condition::getStatus, Condition::getReason)
                .containsExactly("True", "Compared");
        assertThat(condition(compared, "Regressed"))
                .extracting(Condition::getStatus, Condition::getReason)
                .containsExactly("True", "Regressed");
        assertThat(condition(compared, "QualitySuspect").getStatus()).isEqualTo("False");
        awaitEvent(ns, "eagle3", e -> {
            assertThat(e.getType()).isEqualTo("Warning");
            assertThat(e.getReason()).isEqualTo("Regressed");
            assertThat(e.getMessage()).startsWith("Significantly slower: stage single");
        });
        assertThat(registry.find(BenchmarkMetrics.REGRESSED)
                        .tags("namespace", ns, "name", "eagle3")
                        .gauge()
                        .value())
                .isEqualTo(1.0);
        assertThat(registry.find(BenchmarkMetrics.SPEEDUP)
                        .tags("name", "eagle3", "stage", "c4", "against", "reference")
                        .gauge()
                        .value())
                .isCloseTo(0.8, within(0.02));
        assertThat(client.configMaps()
                        .inNamespace(ns)
                        .withName("autoregressive-samples")
                        .get())
                .isNotNull();
    }

    /**
     * A run whose reference, not its baseline, finishes after it is woken by the reference's change: its verdicts come
     * within seconds, not at the periodic resync hours later.
     */
    @Test
    void aReferenceThatFinishesAfterItsCandidateDecidesTheVerdictsAtOnce() {
        String ns = BenchmarkTestProfile.BASELINE;
        fixtures.createRun(ns, "stable", url("http://stable.example:30000"));
        fixtures.createRun(ns, "nightly", spec -> {
            url("http://nightly.example:30000").accept(spec);
            spec.reference = new ReferenceSpec();
            spec.reference.name = "stable";
        });
        Job referenceJob = fixtures.awaitJob(ns, "stable");
        Job candidateJob = fixtures.awaitJob(ns, "nightly");
        String summary = RunnerRuns.standardSummary();
        Pod candidatePod = fixtures.startJobPod(candidateJob);
        serveSamples(candidatePod, 1.25);
        fixtures.finishJob(candidateJob, candidatePod, 0, summary);

        BenchmarkRun pending =
                fixtures.awaitRun(ns, "nightly", r -> r.getStatus().phase == BenchmarkRunPhase.Succeeded);
        assertThat(condition(pending, "Regressed"))
                .extracting(Condition::getStatus, Condition::getReason)
                .containsExactly("Unknown", "ReferencePending");

        Pod referencePod = fixtures.startJobPod(referenceJob);
        serveSamples(referencePod, 1);
        fixtures.finishJob(referenceJob, referencePod, 0, summary);
        fixtures.awaitRun(ns, "stable", r -> r.getStatus().phase == BenchmarkRunPhase.Succeeded);

        await().atMost(Duration.ofSeconds(5))
                .alias("verdicts well before the periodic resync")
                .untilAsserted(() -> assertThat(condition(fixtures.run(ns, "nightly"), "Regressed"))
                        .extracting(Condition::getStatus, Condition::getReason)
                        .containsExactly("True", "Regressed"));
        BenchmarkRun compared = fixtures.run(ns, "nightly");
        assertThat(compared.getStatus().comparison).isNull();
        assertThat(compared.getStatus().referenceComparison.baseline).isEqualTo("stable");
        assertThat(compared.getStatus().referenceComparison.stages)
                .allSatisfy(s -> assertThat(s.verdict).isEqualTo(SpeedVerdict.Slower));
        awaitEvent(ns, "nightly", e -> {
            assertThat(e.getType()).isEqualTo("Warning");
            assertThat(e.getReason()).isEqualTo("Regressed");
        });
    }

    /**
     * A run waiting for its baseline and reference is woken when that run is deleted: it says at once that the run no
     * longer exists, instead of waiting for it until the periodic resync hours later.
     */
    @Test
    void aBaselineDeletedWhileItsCandidateWaitsOnItIsReportedNotFoundAtOnce() {
        String ns = BenchmarkTestProfile.BASELINE;
        fixtures.createRun(ns, "abandoned", url("http://abandoned.example:30000"));
        fixtures.createRun(ns, "waiting", spec -> {
            url("http://waiting.example:30000").accept(spec);
            spec.baseline = "abandoned";
            spec.reference = new ReferenceSpec();
            spec.reference.name = "abandoned";
        });
        fixtures.awaitJob(ns, "abandoned");
        Job candidateJob = fixtures.awaitJob(ns, "waiting");
        Pod candidatePod = fixtures.startJobPod(candidateJob);
        serveSamples(candidatePod, 1);
        fixtures.finishJob(candidateJob, candidatePod, 0, RunnerRuns.standardSummary());
        BenchmarkRun pending =
                fixtures.awaitRun(ns, "waiting", r -> r.getStatus().phase == BenchmarkRunPhase.Succeeded);
        assertThat(condition(pending, "BaselineCompared").getReason()).isEqualTo("BaselinePending");
        assertThat(condition(pending, "Regressed").getReason()).isEqualTo("ReferencePending");

        client.resources(BenchmarkRun.class)
                .inNamespace(ns)
                .withName("abandoned")
                .delete();

        await().atMost(Duration.ofSeconds(5))
                .alias("not found well before the periodic resync")
                .untilAsserted(() -> {
                    BenchmarkRun run = fixtures.run(ns, "waiting");
                    assertThat(condition(run, "BaselineCompared"))
                            .extracting(Condition::getStatus, Condition::getReason)
                            .containsExactly("False", "BaselineNotFound");
                    assertThat(condition(run, "Regressed"))
                            .extracting(Condition::getStatus, Condition::getReason)
                            .containsExactly("Unknown", "ReferenceNotFound");
                });
    }

    /**
     * The API server cannot reach the kubelet for a moment when the Job completes: the pod's log is read again while
     * the pod exists, and the samples are kept rather than lost for good.
     */
    @Test
    void aSamplesLogThatFailsToReadOnceIsReadAgain() throws InterruptedException {
        String ns = BenchmarkTestProfile.BASELINE;
        fixtures.createRun(ns, "flaky-kubelet", url("http://flaky-kubelet.example:30000"));
        Job job = fixtures.awaitJob(ns, "flaky-kubelet");
        Pod pod = fixtures.startJobPod(job);
        String logPath = samplesLogPath(ns, pod.getMetadata().getName());
        kubeletUnreachable(logPath).once();
        serveSamples(pod, 1);
        fixtures.finishJob(job, pod, 0, RunnerRuns.standardSummary());

        BenchmarkRun done =
                fixtures.awaitRun(ns, "flaky-kubelet", r -> r.getStatus().phase == BenchmarkRunPhase.Succeeded);
        assertThat(done.getStatus().samples).isEqualTo("flaky-kubelet-samples");
        assertThat(done.getStatus().warnings).noneMatch(w -> w.startsWith(RunStatusReport.NO_SAMPLES_WARNING));
        assertThat(logRequests(logPath)).isEqualTo(2);
    }

    /** A samples log that stays unreadable is read a bounded number of times; the run then succeeds without samples. */
    @Test
    void aSamplesLogThatStaysUnreadableIsGivenUpAfterABoundedNumberOfReads() throws InterruptedException {
        String ns = BenchmarkTestProfile.BASELINE;
        fixtures.createRun(ns, "dead-kubelet", url("http://dead-kubelet.example:30000"));
        Job job = fixtures.awaitJob(ns, "dead-kubelet");
        Pod pod = fixtures.startJobPod(job);
        String logPath = samplesLogPath(ns, pod.getMetadata().getName());
        kubeletUnreachable(logPath).always();
        fixtures.finishJob(job, pod, 0, RunnerRuns.standardSummary());

        BenchmarkRun retrying = fixtures.awaitRun(
                ns, "dead-kubelet", r -> condition(r, "Ready").getMessage().contains("reading it again"));
        assertThat(retrying.getStatus().phase).isEqualTo(BenchmarkRunPhase.Running);
        BenchmarkRun done =
                fixtures.awaitRun(ns, "dead-kubelet", r -> r.getStatus().phase == BenchmarkRunPhase.Succeeded);
        assertThat(done.getStatus().samples).isNull();
        assertThat(done.getStatus().warnings)
                .anyMatch(
                        w -> w.startsWith(RunStatusReport.NO_SAMPLES_WARNING + " (the benchmark pod's log could not"));
        assertThat(logRequests(logPath)).isEqualTo(JobObserver.SAMPLES_LOG_READS);
    }

    /** One stage significantly slower outweighs the others being faster: the run regressed, and its Event says so. */
    @Test
    void aRunSlowerInOneStageAndFasterInTheOthersRecordsRegressedNotImproved() {
        String ns = BenchmarkTestProfile.BASELINE;
        String summary = RunnerRuns.standardSummary();
        fixtures.createRun(ns, "before-upgrade", url("http://before-upgrade.example:30000"));
        Job referenceJob = fixtures.awaitJob(ns, "before-upgrade");
        Pod referencePod = fixtures.startJobPod(referenceJob);
        serveSamples(referencePod, 1);
        fixtures.finishJob(referenceJob, referencePod, 0, summary);
        fixtures.awaitRun(ns, "before-upgrade", r -> r.getStatus().phase == BenchmarkRunPhase.Succeeded);

        fixtures.createRun(ns, "upgraded", spec -> {
            url("http://upgraded.example:30000").accept(spec);
            spec.reference = new ReferenceSpec();
            spec.reference.name = "before-upgrade";
        });
        Job job = fixtures.awaitJob(ns, "upgraded");
        Pod pod = fixtures.startJobPod(job);
        serveSamples(pod, stage -> stage.equals("c4") ? 1.25 : 0.5);
        fixtures.finishJob(job, pod, 0, summary);

        BenchmarkRun compared = fixtures.awaitRun(ns, "upgraded", r -> r.getStatus().referenceComparison != null);
        assertThat(compared.getStatus().referenceComparison.stages)
                .extracting(s -> s.name + " " + s.verdict)
                .containsExactly("single Faster", "c2 Faster", "c4 Slower");
        assertThat(condition(compared, "Regressed"))
                .extracting(Condition::getStatus, Condition::getReason)
                .containsExactly("True", "Regressed");
        assertThat(condition(compared, "Improved"))
                .extracting(Condition::getStatus, Condition::getReason)
                .containsExactly("False", "Regressed");
        awaitEvent(ns, "upgraded", e -> {
            assertThat(e.getType()).isEqualTo("Warning");
            assertThat(e.getReason()).isEqualTo("Regressed");
            assertThat(e.getMessage()).startsWith("Significantly slower: stage c4 ");
        });
        await().during(Duration.ofSeconds(1))
                .atMost(Duration.ofSeconds(3))
                .untilAsserted(() -> assertThat(fixtures.events(ns, "upgraded"))
                        .extracting(Event::getReason)
                        .doesNotContain("Improved"));
    }

    @Test
    void aCapacitySearchsResultReachesTheStatusTheEventAndTheSloVerdict() throws JsonProcessingException {
        String ns = BenchmarkTestProfile.CAPACITY;
        fixtures.createRun(ns, "search", spec -> {
            url("http://sglang.example:30000").accept(spec);
            spec.sweep.concurrency = List.of(2, 4);
            spec.slo = new SloSpec();
            spec.slo.tpotP99Millis = 50;
            spec.capacity = new CapacitySpec();
            spec.capacity.mode = CapacityMode.Concurrency;
        });
        Job job = fixtures.awaitJob(ns, "search");
        assertThat(job.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs())
                .containsSubsequence("--slo-tpot-p99-ms", "50")
                .containsSubsequence("--find-capacity", "concurrency", "--max-probes", "12");

        fixtures.finishJob(job, fixtures.startJobPod(job), 0, withCapacity(RunnerRuns.standardSummary()));

        BenchmarkRun done = fixtures.awaitRun(ns, "search", r -> r.getStatus().phase == BenchmarkRunPhase.Succeeded);
        CapacityResult capacity = done.getStatus().capacity;
        assertThat(capacity.load).isEqualTo("24 streams");
        assertThat(capacity.outcome).isEqualTo(CapacityOutcome.Found);
        assertThat(capacity.concurrency).isEqualTo(24);
        assertThat(capacity.goodputOutputTokensPerSecond).isEqualTo(590.1);
        assertThat(capacity.probes).isEqualTo(7);
        assertThat(done.getStatus().stages)
                .filteredOn(s -> s.name.equals("c4"))
                .singleElement()
                .satisfies(s -> assertThat(s.sloAttainment).isEqualTo(0.5));
        assertThat(condition(done, "SLOMet"))
                .as("judged by attainment although every p99 of the simulator is far below 50 ms")
                .extracting(Condition::getStatus, Condition::getReason)
                .containsExactly("False", "SLOBroken");
        assertThat(done.getStatus().sloBrokenAtConcurrency).isEqualTo(4);
        assertThat(condition(done, "Ready").getMessage()).contains(", capacity 24 streams, ");
        awaitEvent(ns, "search", e -> {
            assertThat(e.getType()).isEqualTo("Normal");
            assertThat(e.getReason()).isEqualTo("CapacityFound");
            assertThat(e.getMessage()).startsWith("Capacity under the SLO: 24 streams, 612.3 output tok/s");
        });
    }

    /** The benchmark pod's log ends with samples of the standard plan's stages, {@code factor} times as slow. */
    private void serveSamples(Pod pod, double factor) {
        serveSamples(pod, stage -> factor);
    }

    /** The benchmark pod's log ends with samples of the standard plan's stages, each {@code factorOf} times as slow. */
    private void serveSamples(Pod pod, ToDoubleFunction<String> factorOf) {
        String log = PairedRuns.logTail(PairedRuns.samples(
                List.of("single", "c2", "c4"),
                PairedRuns.WORKLOAD,
                factorOf,
                pod.getMetadata().getName().length(),
                false));
        server.expect()
                .get()
                .withPath(samplesLogPath(
                        pod.getMetadata().getNamespace(), pod.getMetadata().getName()))
                .andReturn(200, log)
                .always();
    }

    private static String samplesLogPath(String namespace, String podName) {
        return "/api/v1/namespaces/" + namespace + "/pods/" + podName
                + "/log?pretty=false&container=bench&tailLines=" + JobObserver.SAMPLES_LOG_LINES + "&limitBytes="
                + JobObserver.SAMPLES_LOG_BYTES;
    }

    /** The real runner's summary as format version 2 with a capacity search's result and attainment per stage. */
    private static String withCapacity(String summary) throws JsonProcessingException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = (ObjectNode) json.readTree(summary);
        root.put("v", 2);
        root.withArray("stages")
                .forEach(stage ->
                        ((ObjectNode) stage).put("att", stage.get("n").asText().equals("c4") ? 0.5 : 1.0));
        root.set("cap", json.readTree("""
                {"m":"concurrency","c":24,"out":"found","why":"boundary confirmed","otps":612.3,"rps":2.4,\
                "att":0.97,"gps":2.3,"gtps":590.1,"ttft99":812.5,"tpot99":41.2,"np":7}"""));
        return root.toString();
    }

    /** The same summary with half the headline throughput: the run it belongs to looks exactly twice as slow. */
    private static String halveHeadline(String summary) throws JsonProcessingException {
        ObjectNode root = (ObjectNode) new ObjectMapper().readTree(summary);
        ObjectNode headline = (ObjectNode) root.get("sum");
        headline.put("sstps", headline.get("sstps").asDouble() / 2);
        headline.put("peak", headline.get("peak").asDouble() / 2);
        return root.toString();
    }

    private static void assertJobSpec(Job job) {
        assertThat(job.getMetadata().getName()).isEqualTo("kimi-ar-bench");
        assertThat(job.getSpec().getBackoffLimit()).isEqualTo(1);
        assertThat(job.getSpec().getTtlSecondsAfterFinished()).isEqualTo(7 * 24 * 3600);
        // 600 + 30 × (1 warm-up + 3 prompts + 3 quality prompts) + 30 × (⌈8/2⌉ + ⌈8/4⌉ rounds)
        assertThat(job.getSpec().getActiveDeadlineSeconds()).isEqualTo(600L + 30 * 7 + 30 * (4 + 2));
        assertThat(job.getSpec().getPodFailurePolicy().getRules())
                .satisfiesExactly(
                        failJob -> assertThat(failJob.getOnExitCodes().getValues())
                                .as("a bad configuration, or shards that fell apart: another try cannot help")
                                .containsExactly(2, 5),
                        ignore -> assertThat(ignore.getOnPodConditions().get(0).getType())
                                .isEqualTo("DisruptionTarget"));
        PodSpec pod = job.getSpec().getTemplate().getSpec();
        assertThat(pod.getRestartPolicy()).isEqualTo("Never");
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        assertThat(pod.getAffinity()
                        .getNodeAffinity()
                        .getRequiredDuringSchedulingIgnoredDuringExecution()
                        .getNodeSelectorTerms()
                        .get(0)
                        .getMatchExpressions()
                        .get(0))
                .satisfies(e -> {
                    assertThat(e.getKey()).isEqualTo("nvidia.com/gpu.present");
                    assertThat(e.getOperator()).isEqualTo("DoesNotExist");
                });
        var container = pod.getContainers().get(0);
        assertThat(container.getImage()).isEqualTo("ghcr.io/llmops-dev/llm-serving-operator:0.1.0");
        assertThat(container.getArgs())
                .startsWith("bench")
                .containsSubsequence("--summary-file", "/dev/termination-log");
        assertThat(container.getTerminationMessagePolicy()).isEqualTo("FallbackToLogsOnError");
        assertThat(container.getResources().getRequests()).containsOnlyKeys("cpu", "memory");
        assertThat(container.getResources().getLimits()).containsOnlyKeys("memory");
        assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(container.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
    }

    /**
     * Waits for an Event of the run that meets {@code requirement}: a transition's Event is recorded after the status
     * write that a test awaits.
     */
    private void awaitEvent(String namespace, String name, ThrowingConsumer<Event> requirement) {
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(
                        () -> assertThat(fixtures.events(namespace, name)).anySatisfy(requirement));
    }

    private static Condition condition(BenchmarkRun run, String type) {
        return Conditions.find(run.getStatus().conditions, type)
                .orElseThrow(() -> new AssertionError("no condition " + type));
    }

    private static Condition condition(String type, String status, String reason) {
        return new ConditionBuilder()
                .withType(type)
                .withStatus(status)
                .withReason(reason)
                .withMessage("")
                .withLastTransitionTime("2025-01-01T00:00:00Z")
                .build();
    }
}
