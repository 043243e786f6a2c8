package dev.llmops.serving.gitops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmops.serving.api.contract.SampleSet;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.Provenance;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.BenchmarkTarget;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.QualitySpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.ReferenceSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.SloSpec;
import dev.llmops.serving.api.v1alpha1.modelserver.InferenceProbeResult;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.comparison.SamplesRead;
import dev.llmops.serving.operator.benchmark.ApiKeyHosts;
import dev.llmops.serving.operator.benchmark.JobOutcome;
import dev.llmops.serving.operator.benchmark.RunStatusReport;
import dev.llmops.serving.operator.benchmark.TargetState;
import dev.llmops.serving.operator.benchmark.comparison.PairedRuns;
import dev.llmops.serving.operator.benchmark.comparison.SampleStore;
import dev.llmops.serving.operator.modelserver.PodDiagnoser;
import dev.llmops.serving.operator.modelserver.PodInference;
import dev.llmops.serving.operator.modelserver.StatusReport;
import dev.llmops.serving.operator.toolkit.Conditions;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * ModelServers and BenchmarkRuns with the statuses the operator itself writes, built by its status reports from
 * observed pods, probes and Jobs, so the health checks are fed what a cluster would show them.
 */
final class OperatorStatuses {

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
    private static final Conditions CONDITIONS = new Conditions(Clock.fixed(NOW, ZoneOffset.UTC));
    private static final String IMAGE = "lmsysorg/sglang:v0.5.19-cu129";
    private static final List<String> ARGS = List.of("python3", "-m", "sglang.launch_server");
    private static final String SUMMARY = """
            {"v":1,"model":"qwen3-8b","stages":[
            {"n":"single","c":1,"ok":3,"fail":0,"otps":48.0,"ttft":[120,121,125,130,131],"tpot":[20,20,20,21,22]},
            {"n":"c8","c":8,"ok":32,"fail":0,"otps":380.0,"ttft":[130,131,140,150,151],"tpot":[20,20,20,21,22]},
            {"n":"c16","c":16,"ok":64,"fail":0,"otps":750.5,"ttft":[140,141,150,160,161],"tpot":[20,20,20,21,22]}],
            "sum":{"sstps":48.0,"peak":750.5,"peakc":16,"fail":0}}""";

    private OperatorStatuses() {}

    /** A ModelServer as applied, before the operator wrote any status. */
    static ObjectNode modelServerNew() {
        return json(qwen());
    }

    /** A BenchmarkRun as applied, before the operator wrote any status. */
    static ObjectNode benchmarkRunNew() {
        return json(run());
    }

    /** One replica whose pod is scheduled and whose SGLang container is still loading the model. */
    static ObjectNode modelServerLoading() {
        Pod pod = pod("qwen3-8b-0", sglang(false).build());
        return modelServer(1, List.of(pod), List.of(), List.of());
    }

    /** One replica whose pod generated tokens on its last probe. */
    static ObjectNode modelServerReady() {
        Pod pod = pod("qwen3-8b-0", sglang(true).build());
        return modelServer(1, List.of(pod), List.of(generating(pod, true)), List.of());
    }

    /** Two replicas, one of which generates while the other's server is up but fails real completions. */
    static ObjectNode modelServerWithAReplicaNotGenerating() {
        Pod serving = pod("qwen3-8b-0", sglang(true).build());
        Pod failing = pod("qwen3-8b-1", sglang(true).build());
        PodInference failed = generating(failing, false);
        return modelServer(
                2,
                List.of(serving, failing),
                List.of(generating(serving, true), failed),
                PodDiagnoser.notGenerating(failing, failed).stream().toList());
    }

    /** One replica whose image cannot be pulled, diagnosed by the operator's pod diagnoser. */
    static ObjectNode modelServerStalled() {
        Pod pod = pod(
                "qwen3-8b-0",
                sglang(false)
                        .withNewState()
                        .withNewWaiting()
                        .withReason("ImagePullBackOff")
                        .withMessage("Back-off pulling image \"" + IMAGE + "\"")
                        .endWaiting()
                        .endState()
                        .build());
        ModelServer server = qwen();
        try (KubernetesClient unused = new KubernetesClientBuilder().build()) {
            List<PodDiagnoser.Finding> findings =
                    new PodDiagnoser(unused).diagnose(server, pod).stream().toList();
            return modelServer(1, List.of(pod), List.of(), findings);
        }
    }

    /** A run waiting for a ModelServer that does not exist yet. */
    static ObjectNode benchmarkRunWaiting() {
        return benchmarkRun(null, NOW.plusSeconds(10), notReady());
    }

    /** A run whose server never became ready within spec.waitTimeoutSeconds. */
    static ObjectNode benchmarkRunServerNeverReady() {
        return benchmarkRun(null, NOW.plusSeconds(100), notReady());
    }

    /** A run whose Job runs stage c16 after three stages finished. */
    static ObjectNode benchmarkRunRunning() {
        return benchmarkRun(null, NOW.plusSeconds(30), job(new JobOutcome.Running("3/6 c16")));
    }

    /** A run whose Job succeeded; with an SLO, its verdict on the results. */
    static ObjectNode benchmarkRunSucceeded(SloSpec slo) {
        return benchmarkRun(slo, NOW.plusSeconds(60), job(new JobOutcome.Completed(SUMMARY, null, null)));
    }

    /**
     * A run 20 % slower than its reference run in every stage, whose spec asks (or not) for Degraded on a regression.
     */
    static ObjectNode benchmarkRunRegressed(boolean degradeOnRegression) {
        return benchmarkRunAgainstReference(
                1.25, false, spec -> spec.reference.degradeOnRegression = degradeOnRegression);
    }

    /**
     * A run 3 times as fast as its reference run whose greedy outputs diverge from it (QualitySuspect), whose spec
     * asks (or not) for Degraded on a suspect quality.
     */
    static ObjectNode benchmarkRunQualitySuspect(boolean degradeOnSuspect) {
        return benchmarkRunAgainstReference(1 / 3.0, true, spec -> {
            spec.quality = new QualitySpec();
            spec.quality.degradeOnSuspect = degradeOnSuspect;
        });
    }

    /** A finished run compared with its reference run, its stages {@code factor} times as slow. */
    private static ObjectNode benchmarkRunAgainstReference(
            double factor, boolean brokenOutputs, Consumer<BenchmarkRunSpec> spec) {
        BenchmarkRun reference = run();
        reference.getMetadata().setName("qwen3-8b-before");
        SampleSet before = PairedRuns.samples(PairedRuns.WORKLOAD, 1, 1, false);
        reference.setStatus(new RunStatusReport(Clock.fixed(NOW, ZoneOffset.UTC), () -> Duration.ofSeconds(30))
                .build(reference, job(new JobOutcome.Completed(SUMMARY, null, PairedRuns.logTail(before))))
                .status());
        BenchmarkRun run = run();
        run.getSpec().reference = new ReferenceSpec();
        run.getSpec().reference.name = reference.getMetadata().getName();
        spec.accept(run.getSpec());
        String after = PairedRuns.logTail(PairedRuns.samples(PairedRuns.WORKLOAD, factor, 2, brokenOutputs));
        RunStatusReport.Observation observed = new RunStatusReport.Observation(
                job(new JobOutcome.Running(null)).target(),
                Optional.of(new RunStatusReport.ObservedJob(
                        "qwen3-8b-run-bench", new JobOutcome.Completed(SUMMARY, null, after))),
                Provenance::new,
                Optional.empty(),
                Optional.of(reference),
                status -> reference.getStatus().samples.equals(status.samples)
                        ? SamplesRead.of(before)
                        : noSamples(status),
                OperatorStatuses::keep);
        run.setStatus(new RunStatusReport(Clock.fixed(NOW.plusSeconds(60), ZoneOffset.UTC), () -> Duration.ZERO)
                .build(run, observed)
                .status());
        return json(run);
    }

    /** A run whose runner rejected its configuration (exit code 2). */
    static ObjectNode benchmarkRunRunnerFailed() {
        return benchmarkRun(
                null,
                NOW.plusSeconds(60),
                job(new JobOutcome.Failed(
                        2,
                        "BackoffLimitExceeded",
                        "Job has reached the specified backoff limit",
                        "bench: --concurrency: 0 is not a positive integer")));
    }

    /** The object with its metadata.generation raised, as after a spec change the operator has not seen yet. */
    static ObjectNode withGeneration(ObjectNode object, long generation) {
        ((ObjectNode) object.get("metadata")).put("generation", generation);
        return object;
    }

    private static ObjectNode modelServer(
            int replicas, List<Pod> pods, List<PodInference> inference, List<PodDiagnoser.Finding> findings) {
        ModelServer server = qwen();
        server.getSpec().replicas = replicas;
        Map<String, PodInference> byUid =
                inference.stream().collect(Collectors.toMap(PodInference::podUid, Function.identity()));
        server.setStatus(StatusReport.build(
                server,
                new StatusReport.Observation(List.of(), pods, List.of(), byUid, findings, IMAGE, ARGS),
                CONDITIONS));
        return json(server);
    }

    private static ModelServer qwen() {
        try {
            ModelServer server = SERIALIZATION.unmarshal(
                    Files.readString(Path.of("deploy/examples/small-model-b200.yaml")), ModelServer.class);
            server.getMetadata().setNamespace("llm");
            server.getMetadata().setGeneration(1L);
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Pod pod(String name, ContainerStatus sglang) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("llm")
                .withUid("uid-" + name)
                .endMetadata()
                .withNewSpec()
                .withNodeName("b200-node")
                .endSpec()
                .withNewStatus()
                .withPhase("Running")
                .addNewCondition()
                .withType("PodScheduled")
                .withStatus("True")
                .endCondition()
                .withContainerStatuses(sglang)
                .endStatus()
                .build();
    }

    private static ContainerStatusBuilder sglang(boolean started) {
        return new ContainerStatusBuilder()
                .withName("sglang")
                .withImage(IMAGE)
                .withStarted(started)
                .withReady(started)
                .withRestartCount(0)
                .withNewState()
                .withNewRunning()
                .endRunning()
                .endState();
    }

    private static PodInference generating(Pod pod, boolean generating) {
        InferenceProbeResult success = new InferenceProbeResult();
        success.time = NOW.minusSeconds(30).toString();
        success.pod = pod.getMetadata().getName();
        return new PodInference(
                pod.getMetadata().getUid(),
                pod.getMetadata().getName(),
                true,
                generating,
                success,
                generating ? null : "HTTP 500 from /v1/chat/completions: CUDA error: an illegal memory access");
    }

    private static ObjectNode benchmarkRun(SloSpec slo, Instant at, RunStatusReport.Observation observed) {
        BenchmarkRun run = run();
        run.getSpec().slo = slo;
        run.setStatus(new RunStatusReport(Clock.fixed(at, ZoneOffset.UTC), () -> Duration.ofSeconds(30))
                .build(run, observed)
                .status());
        return json(run);
    }

    private static BenchmarkRun run() {
        BenchmarkRun run = new BenchmarkRun();
        run.setMetadata(new ObjectMetaBuilder()
                .withName("qwen3-8b-run")
                .withNamespace("llm")
                .withGeneration(1L)
                .withCreationTimestamp(NOW.toString())
                .build());
        BenchmarkRunSpec spec = new BenchmarkRunSpec();
        spec.target = new BenchmarkTarget();
        spec.target.modelServer = "qwen3-8b";
        spec.waitTimeoutSeconds = 100;
        run.setSpec(spec);
        return run;
    }

    private static RunStatusReport.Observation notReady() {
        return new RunStatusReport.Observation(
                TargetState.of(run(), Optional.empty(), new ApiKeyHosts(List.of())),
                Optional.empty(),
                Provenance::new,
                Optional.empty(),
                Optional.empty(),
                OperatorStatuses::noSamples,
                OperatorStatuses::keep);
    }

    private static RunStatusReport.Observation job(JobOutcome outcome) {
        TargetState ready = new TargetState(
                "qwen3-8b", true, "http://qwen3-8b.llm.svc:30000", "qwen3-8b", Optional.of(new ModelServer()), null);
        return new RunStatusReport.Observation(
                ready,
                Optional.of(new RunStatusReport.ObservedJob("qwen3-8b-run-bench", outcome)),
                Provenance::new,
                Optional.empty(),
                Optional.empty(),
                OperatorStatuses::noSamples,
                OperatorStatuses::keep);
    }

    private static SamplesRead noSamples(BenchmarkRunStatus status) {
        return SamplesRead.missing("ConfigMap " + status.samples + " does not exist");
    }

    /** Keeps samples as the operator would, in a ConfigMap named after the Job's run. */
    private static SampleStore.Kept keep(SampleSet samples) {
        return new SampleStore.Kept("kept-samples", "sha256-of-kept-samples", null);
    }

    /** The resource as Argo CD and kstatus read it: its JSON. */
    static ObjectNode json(Object resource) {
        try {
            JsonNode node = JSON.readTree(SERIALIZATION.asJson(resource));
            return (ObjectNode) node;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
