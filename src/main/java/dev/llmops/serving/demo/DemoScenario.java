package dev.llmops.serving.demo;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.BenchmarkTarget;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerSpec;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelSpec;
import dev.llmops.serving.api.v1alpha1.modelserver.SpeculativeDecodingSpec;
import dev.llmops.serving.simulator.Fault;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import java.util.Map;

/**
 * The resources a demo applies and how the simulated servers behind them behave: an autoregressive server and an
 * EAGLE3 server with a benchmark each (the second compared with the first), the same pair with a broken draft that
 * goes faster by saying something else, or a half-ready server that lists its model but fails every generation, with
 * a benchmark that waits for it in vain.
 */
public record DemoScenario(
        String name, List<ModelServer> servers, List<BenchmarkRun> runs, Map<String, SimulatedServerProfile> profiles) {

    public static final String NAMESPACE = "demo";
    static final String SPECULATIVE_RUN = "eagle3";
    static final String BASELINE_RUN = "autoregressive";

    /** Baseline and speculative decoding, benchmarked side by side. */
    public static DemoScenario speculativeDecoding() {
        ModelServer autoregressive = server("llm-autoregressive", null);
        SpeculativeDecodingSpec eagle3 = new SpeculativeDecodingSpec();
        eagle3.algorithm = "EAGLE3";
        eagle3.draftModelPath = "demo/llm-eagle3-draft";
        eagle3.numSteps = 3;
        eagle3.eagleTopK = 1;
        eagle3.numDraftTokens = 4;
        ModelServer speculative = server("llm-eagle3", eagle3);
        BenchmarkRun baseline = run(BASELINE_RUN, "llm-autoregressive", null, 600);
        BenchmarkRun candidate = run(SPECULATIVE_RUN, "llm-eagle3", BASELINE_RUN, 600);
        return new DemoScenario(
                "speculative-decoding",
                List.of(autoregressive, speculative),
                List.of(baseline, candidate),
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
                Map.of("llm-half-ready", SimulatedServerProfile.autoregressive().withFault(Fault.HALF_READY)));
    }

    /** The scenarios {@link #named} knows. */
    public static final List<String> NAMES = List.of("speculative-decoding", "broken-draft", "half-ready");

    public static DemoScenario named(String name) {
        return switch (name) {
            case "speculative-decoding" -> speculativeDecoding();
            case "broken-draft" -> brokenDraft();
            case "half-ready" -> halfReady();
            default ->
                throw new IllegalArgumentException("unknown scenario '" + name + "': use " + String.join(", ", NAMES));
        };
    }

    /** How the server of a ModelServer behaves; unknown servers behave like the autoregressive one. */
    public SimulatedServerProfile profileOf(String modelServer) {
        return profiles.getOrDefault(modelServer, SimulatedServerProfile.autoregressive());
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
