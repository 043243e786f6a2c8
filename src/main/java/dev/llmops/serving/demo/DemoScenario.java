package dev.llmops.serving.demo;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.BenchmarkTarget;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerSpec;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelSpec;
import dev.llmops.serving.api.v1alpha1.modelserver.SpeculativeDecodingSpec;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperimentSpec;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantSpec;
import dev.llmops.serving.simulator.Fault;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The resources a demo applies and how the simulated servers behind them behave: an autoregressive server and an
 * EAGLE3 server with a benchmark each (the second compared with the first), the same pair with a broken draft that
 * goes faster by saying something else, a half-ready server that lists its model but fails every generation, with
 * a benchmark that waits for it in vain, or a ServingExperiment that tries four variants one after another.
 */
public record DemoScenario(
        String name,
        List<ModelServer> servers,
        List<BenchmarkRun> runs,
        List<ServingExperiment> experiments,
        Map<String, SimulatedServerProfile> profiles) {

    public static final String NAMESPACE = "demo";
    static final String SPECULATIVE_RUN = "eagle3";
    static final String BASELINE_RUN = "autoregressive";

    /** The experiment scenario's ServingExperiment. */
    public static final String EXPERIMENT = "qwen3-8b";

    /** The variant that should win the experiment: DFlash, the fastest, its outputs the baseline's. */
    public static final String EXPECTED_WINNER = "dflash-b8";

    /** The variant whose server cannot start: an image whose CUDA toolkit predates SM120 support in FlashInfer. */
    public static final String FAILING_VARIANT = "cu128-image";

    /** What the operator should diagnose in the failing variant's log: FlashInfer's JIT refusing SM120 GPUs. */
    public static final String FAILING_DIAGNOSIS = "FlashInferNvccTooOld";

    /**
     * What an SGLang 0.5 image built on CUDA 12.8 logs on an RTX PRO 6000 before it exits: FlashInfer compiles its
     * attention kernels at start-up and its nvcc knows no SM120 target.
     */
    static final String SM120_FLASHINFER_FAILURE = """
            [2026-01-05 10:00:01] Load weight begin. avail mem=94.51 GB
            [2026-01-05 10:00:04] Load weight end. type=Qwen3ForCausalLM, dtype=torch.bfloat16, avail mem=79.12 GB
            [2026-01-05 10:00:04] Scheduler hit an exception: Traceback (most recent call last):
              File "/sgl-workspace/sglang/python/sglang/srt/layers/attention/flashinfer_backend.py", line 143, in \
            __init__
              File "/usr/local/lib/python3.12/dist-packages/flashinfer/jit/core.py", line 71, in check_cuda_arch
            RuntimeError: No supported CUDA architectures found for major versions [12].
            """;

    /** Baseline and speculative decoding, benchmarked side by side. */
    public static DemoScenario speculativeDecoding() {
        ModelServer autoregressive = server("llm-autoregressive", null);
        ModelServer speculative = server("llm-eagle3", eagle3());
        BenchmarkRun baseline = run(BASELINE_RUN, "llm-autoregressive", null, 600);
        BenchmarkRun candidate = run(SPECULATIVE_RUN, "llm-eagle3", BASELINE_RUN, 600);
        return new DemoScenario(
                "speculative-decoding",
                List.of(autoregressive, speculative),
                List.of(baseline, candidate),
                List.of(),
                Map.of(
                        "llm-autoregressive",
                        SimulatedServerProfile.autoregressive(),
                        "llm-eagle3",
                        SimulatedServerProfile.speculative()));
    }

    /** The same pair, but the EAGLE3 server's draft is broken: it accepts every draft token and changes the text. */
    public static DemoScenario brokenDraft() {
        DemoScenario pair = speculativeDecoding();
        return new DemoScenario(
                "broken-draft",
                pair.servers(),
                pair.runs(),
                List.of(),
                Map.of(
                        "llm-autoregressive",
                        SimulatedServerProfile.autoregressive(),
                        "llm-eagle3",
                        SimulatedServerProfile.speculative().withFault(Fault.BROKEN_DRAFT)));
    }

    /** A server that answers /v1/models but fails every chat completion, and a run that times out waiting for it. */
    public static DemoScenario halfReady() {
        return new DemoScenario(
                "half-ready",
                List.of(server("llm-half-ready", null)),
                List.of(run("half-ready", "llm-half-ready", null, 20)),
                List.of(),
                Map.of("llm-half-ready", SimulatedServerProfile.autoregressive().withFault(Fault.HALF_READY)));
    }

    /**
     * One ServingExperiment of four variants on one pool that holds one server at a time: autoregressive (the
     * baseline), EAGLE3, DFlash with blocks of eight draft tokens (the fastest), and the autoregressive server on a
     * CUDA 12.8 image, which exits at start because FlashInfer cannot build its kernels for SM120.
     */
    public static DemoScenario experiment() {
        ServingExperiment experiment = new ServingExperiment();
        experiment.setMetadata(new ObjectMetaBuilder()
                .withName(EXPERIMENT)
                .withNamespace(NAMESPACE)
                .build());
        ServingExperimentSpec spec = new ServingExperimentSpec();
        spec.server = server(EXPERIMENT, null).getSpec();
        SpeculativeDecodingSpec dflash = new SpeculativeDecodingSpec();
        dflash.algorithm = "DFLASH";
        dflash.draftModelPath = "demo/llm-dflash-draft";
        dflash.numDraftTokens = 8;
        VariantSpec oldImage = variant(FAILING_VARIANT, null);
        oldImage.image = "lmsysorg/sglang:v0.5.18-cu128";
        spec.variants = List.of(
                variant(BASELINE_RUN, null),
                variant(SPECULATIVE_RUN, eagle3()),
                variant(EXPECTED_WINNER, dflash),
                oldImage);
        spec.benchmark.warmup.requests = 1;
        spec.benchmark.warmup.maxTokens = 16;
        spec.benchmark.sampling.maxTokens = 64;
        spec.benchmark.quality.maxTokens = 32;
        spec.benchmark.sweep.concurrency = List.of(8, 16);
        spec.benchmark.sweep.requestsPerLevel = 32;
        spec.benchmark.requestTimeoutSeconds = 60;
        experiment.setSpec(spec);
        Duration loading = Duration.ofSeconds(2);
        return new DemoScenario(
                "experiment",
                List.of(),
                List.of(),
                List.of(experiment),
                Map.of(
                        variantServer(BASELINE_RUN),
                        SimulatedServerProfile.autoregressive().withLoading(loading),
                        variantServer(SPECULATIVE_RUN),
                        SimulatedServerProfile.speculative().withLoading(loading),
                        variantServer(EXPECTED_WINNER),
                        SimulatedServerProfile.dflash().withLoading(loading),
                        variantServer(FAILING_VARIANT),
                        SimulatedServerProfile.autoregressive().failingAtStart(SM120_FLASHINFER_FAILURE)));
    }

    /** The scenarios {@link #named} knows. */
    public static final List<String> NAMES =
            List.of("speculative-decoding", "broken-draft", "half-ready", "experiment");

    public static DemoScenario named(String name) {
        return switch (name) {
            case "speculative-decoding" -> speculativeDecoding();
            case "broken-draft" -> brokenDraft();
            case "half-ready" -> halfReady();
            case "experiment" -> experiment();
            default ->
                throw new IllegalArgumentException("unknown scenario '" + name + "': use " + String.join(", ", NAMES));
        };
    }

    /** How the server of a ModelServer behaves; unknown servers behave like the autoregressive one. */
    public SimulatedServerProfile profileOf(String modelServer) {
        return profiles.getOrDefault(modelServer, SimulatedServerProfile.autoregressive());
    }

    /** The kubectl short names of the kinds this scenario applies or makes the operator create. */
    public String kinds() {
        return experiments.isEmpty() ? "ms,br" : "sx,ms,br";
    }

    /** The ModelServer the experiment scenario's experiment makes for a variant. */
    static String variantServer(String variant) {
        return EXPERIMENT + "-" + variant;
    }

    private static SpeculativeDecodingSpec eagle3() {
        SpeculativeDecodingSpec eagle3 = new SpeculativeDecodingSpec();
        eagle3.algorithm = "EAGLE3";
        eagle3.draftModelPath = "demo/llm-eagle3-draft";
        eagle3.numSteps = 3;
        eagle3.eagleTopK = 1;
        eagle3.numDraftTokens = 4;
        return eagle3;
    }

    private static VariantSpec variant(String name, SpeculativeDecodingSpec speculative) {
        VariantSpec variant = new VariantSpec();
        variant.name = name;
        variant.speculativeDecoding = speculative;
        return variant;
    }

    private static ModelServer server(String name, SpeculativeDecodingSpec speculative) {
        ModelServer server = new ModelServer();
        server.setMetadata(
                new ObjectMetaBuilder().withName(name).withNamespace(NAMESPACE).build());
        ModelServerSpec spec = new ModelServerSpec();
        spec.model = new ModelSpec();
        spec.model.path = "Qwen/Qwen3-8B";
        spec.model.servedModelName = "qwen3-8b";
        spec.accelerator.computeMajor = 12;
        spec.speculativeDecoding = speculative;
        spec.readiness.probeIntervalSeconds = 30;
        server.setSpec(spec);
        return server;
    }

    /** A plan sized to finish in well under a minute against servers of 50–120 tokens/s per stream. */
    private static BenchmarkRun run(String name, String modelServer, String baseline, int waitTimeoutSeconds) {
        BenchmarkRun run = new BenchmarkRun();
        run.setMetadata(
                new ObjectMetaBuilder().withName(name).withNamespace(NAMESPACE).build());
        BenchmarkRunSpec spec = new BenchmarkRunSpec();
        spec.target = new BenchmarkTarget();
        spec.target.modelServer = modelServer;
        spec.waitTimeoutSeconds = waitTimeoutSeconds;
        spec.warmup.requests = 2;
        spec.warmup.maxTokens = 32;
        spec.sampling.maxTokens = 128;
        spec.sweep.concurrency = List.of(8, 16, 32, 48, 64);
        spec.sweep.durationSecondsPerLevel = 4;
        spec.requestTimeoutSeconds = 60;
        spec.baseline = baseline;
        run.setSpec(spec);
        return run;
    }
}
