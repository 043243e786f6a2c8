package dev.llmops.serving.operator.experiment;

import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BaselineComparison;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.ConfidenceInterval;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.LatencyStats;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.QualityComparison;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageSpeedup;
import dev.llmops.serving.api.v1alpha1.modelserver.Diagnosis;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerPhase;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerStatus;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Instant;
import java.util.List;

/** An experiment of four variants and the servers and runs its variants go through, for the controller's tests. */
final class ExperimentFixtures {

    static final Instant T0 = Instant.parse("2026-12-06T10:00:00Z");

    private ExperimentFixtures() {}

    /** autoregressive (the baseline), eagle3, dflash-b8 and broken, one at a time, Throughput at c32. */
    static ServingExperiment experiment() {
        ServingExperiment experiment = Serialization.unmarshal("""
                apiVersion: serving.llmops.dev/v1alpha1
                kind: ServingExperiment
                metadata:
                  name: kimi
                  namespace: llm
                  uid: 5e1f-uid
                  generation: 1
                spec:
                  server:
                    model:
                      path: moonshotai/Kimi-K2.5
                    accelerator:
                      gpusPerReplica: 8
                    parallelism:
                      tp: 8
                    extraArgs: ["--attention-backend", "triton"]
                    env:
                      - name: SGLANG_LOG_LEVEL
                        value: info
                    resources:
                      cpu: "32"
                      memory: 512Gi
                    modelCache:
                      size: 2Ti
                  variants:
                    - name: autoregressive
                    - name: eagle3
                      speculativeDecoding:
                        algorithm: EAGLE3
                        draftModelPath: lightseekorg/kimi-k2.5-eagle3-mla
                    - name: dflash-b8
                      speculativeDecoding:
                        algorithm: DFLASH
                        draftModelPath: z-lab/Kimi-K2.5-DFlash
                        numDraftTokens: 8
                      env:
                        - name: SGLANG_LOG_LEVEL
                          value: debug
                        - name: DFLASH_TRACE
                          value: "1"
                      resources:
                        memory: 768Gi
                    - name: broken
                      extraArgs: ["--attention-backend", "trtllm_mla"]
                  benchmark:
                    sweep:
                      concurrency: [8, 32]
                  objective:
                    type: Throughput
                    stage: c32
                """, ServingExperiment.class);
        return experiment;
    }

    static ModelServer server(String name, ModelServerPhase phase, Instant created, Instant phaseSince) {
        ModelServer server = new ModelServer();
        server.getMetadata().setName(name);
        server.getMetadata().setNamespace("llm");
        server.getMetadata().setGeneration(1L);
        server.getMetadata().setCreationTimestamp(created.toString());
        ModelServerStatus status = new ModelServerStatus();
        status.observedGeneration = 1L;
        status.phase = phase;
        status.conditions.add(new ConditionBuilder()
                .withType(ConditionTypes.READY)
                .withStatus(phase == ModelServerPhase.Ready ? "True" : "False")
                .withReason(phase.name())
                .withLastTransitionTime(phaseSince.toString())
                .build());
        if (phase == ModelServerPhase.Failed) {
            status.diagnosis = new Diagnosis();
            status.diagnosis.reason = "CudaHeadersMissing";
            status.diagnosis.message = "FlashInfer's JIT could not find cuda_runtime.h on SM120";
            status.diagnosis.hint = "Use an image with the CUDA toolkit headers";
        }
        server.setStatus(status);
        return server;
    }

    /** A run in the given phase; when succeeded, c32 at the given tokens/s and speedup over the baseline. */
    static BenchmarkRun run(
            String name, BenchmarkRunPhase phase, double tokensPerSecond, ConfidenceInterval speedupInterval) {
        BenchmarkRun run = new BenchmarkRun();
        run.getMetadata().setName(name);
        run.getMetadata().setNamespace("llm");
        BenchmarkRunStatus status = new BenchmarkRunStatus();
        status.phase = phase;
        StageResult c32 = new StageResult();
        c32.name = "c32";
        c32.concurrency = 32;
        c32.outputTokensPerSecond = tokensPerSecond;
        c32.tpotMillis = new LatencyStats();
        c32.tpotMillis.p50 = 32_000 / tokensPerSecond;
        c32.specAcceptLength = speedupInterval == null ? null : 3.1;
        status.stages = List.of(c32);
        if (speedupInterval != null) {
            status.comparison = new BaselineComparison();
            StageSpeedup speedup = new StageSpeedup();
            speedup.name = "c32";
            speedup.throughputSpeedup = (speedupInterval.low + speedupInterval.high) / 2;
            speedup.throughputSpeedupInterval = speedupInterval;
            status.comparison.stages = List.of(speedup);
            status.comparison.quality = new QualityComparison();
            status.comparison.quality.prefixAgreement = 1.0;
        }
        run.setStatus(status);
        return run;
    }

    static ConfidenceInterval interval(double low, double high) {
        ConfidenceInterval interval = new ConfidenceInterval();
        interval.low = low;
        interval.high = high;
        return interval;
    }
}
