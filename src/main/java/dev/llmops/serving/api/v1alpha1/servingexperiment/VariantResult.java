package dev.llmops.serving.api.v1alpha1.servingexperiment;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BaselineComparison;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkSummary;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.CapacityResult;
import dev.llmops.serving.api.v1alpha1.modelserver.Diagnosis;
import io.fabric8.generator.annotation.Size;
import lombok.EqualsAndHashCode;

/**
 * One variant's part of an experiment: its phase, its ModelServer and BenchmarkRun, how long the server took to start,
 * and the run's results against the baseline's. The runs keep their full results (every stage, every request).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class VariantResult {

    @Size(max = 63)
    @JsonPropertyDescription("The variant's name in spec.variants.")
    public String name;

    @JsonPropertyDescription("Pending, Deploying, Benchmarking, Succeeded, Failed or Skipped.")
    public VariantPhase phase;

    @Size(max = 253)
    @JsonPropertyDescription("The variant's ModelServer.")
    public String modelServer;

    @Size(max = 253)
    @JsonPropertyDescription("The variant's BenchmarkRun, which holds every stage's results.")
    public String benchmarkRun;

    @Size(max = 64)
    @JsonPropertyDescription("When the variant's ModelServer was created (RFC 3339).")
    public String startTime;

    @Size(max = 64)
    @JsonPropertyDescription("When the variant ended: its run finished or its server failed (RFC 3339).")
    public String completionTime;

    @JsonPropertyDescription("Seconds from the ModelServer's creation to its first inference-ready replica: pulling "
            + "the image, loading the weights, warming up.")
    public Double timeToReadySeconds;

    @JsonPropertyDescription("Seconds from the ModelServer's creation until it was found failing to start.")
    public Double timeToFailureSeconds;

    @JsonPropertyDescription("Why the variant's server did not start, as its ModelServer diagnosed it.")
    public Diagnosis diagnosis;

    @JsonPropertyDescription("The run's headline figures: single-stream and peak output tokens/s.")
    public BenchmarkSummary summary;

    @JsonPropertyDescription("The most load that met spec.benchmark.slo, when spec.benchmark.capacity searched for it.")
    public CapacityResult capacity;

    @JsonPropertyDescription("Speculative acceptance length (tokens per verify step) at the objective's stage; absent "
            + "for autoregressive decoding or without the server's counters.")
    public Double specAcceptLength;

    @JsonPropertyDescription("The run's paired comparison with the baseline variant's run: speedups per stage with "
            + "95 % intervals and verdicts, and the agreement of the greedy outputs; absent for the baseline itself.")
    public BaselineComparison comparison;

    @JsonPropertyDescription("The run's outputs diverge from the baseline's beyond spec.benchmark.quality.minAgreement "
            + "(its QualitySuspect condition): never the winner.")
    public Boolean qualitySuspect;

    @Size(max = 1024)
    @JsonPropertyDescription("What happened to the variant, in a sentence.")
    public String message;
}
