package dev.llmops.serving.api.v1alpha1.benchmarkrun;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import lombok.EqualsAndHashCode;

/** Observed state and results of a BenchmarkRun. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class BenchmarkRunStatus {

    @JsonPropertyDescription("metadata.generation this status describes.")
    public Long observedGeneration;

    @JsonPropertyDescription("Pending, WaitingForServer, Running, Succeeded or Failed.")
    public BenchmarkRunPhase phase;

    @JsonPropertyDescription(
            "Ready, Succeeded, Reconciling, Stalled, SLOMet, BaselineCompared, QualitySuspect, Regressed "
                    + "and Improved, in the Kubernetes condition shape.")
    public List<Condition> conditions = new ArrayList<>();

    @JsonPropertyDescription("What is measured: ModelServer name or URL, for kubectl get.")
    public String target;

    @JsonPropertyDescription("Name of the benchmark Job.")
    public String jobName;

    @JsonPropertyDescription("When the benchmark Job started (RFC 3339).")
    public String startTime;

    @JsonPropertyDescription("When the run finished (RFC 3339).")
    public String completionTime;

    @JsonPropertyDescription(
            "Stages finished out of stages planned, then the stage running: 2/5 c16 while c16 runs, 5/5 at the end.")
    public String progress;

    @JsonPropertyDescription("Results of each measured stage: the single-request phase and every concurrency level.")
    public List<StageResult> stages = new ArrayList<>();

    @JsonPropertyDescription("Each single-request prompt on its own.")
    public List<SingleRequestResult> singleRequests = new ArrayList<>();

    @JsonPropertyDescription("The figures a team decides on.")
    public BenchmarkSummary summary;

    @JsonPropertyDescription("The highest load that met spec.slo, when spec.capacity asked for it.")
    public CapacityResult capacity;

    @JsonPropertyDescription("Speedup over spec.baseline.")
    public BaselineComparison comparison;

    @JsonPropertyDescription("Comparison with spec.reference, whose verdicts set Regressed and Improved.")
    public BaselineComparison referenceComparison;

    @JsonPropertyDescription("Name of the ConfigMap holding this run's per-request samples and quality outputs, which "
            + "comparisons pair request by request.")
    public String samples;

    @JsonPropertyDescription(
            "SHA-256 of the samples the operator wrote into that ConfigMap; samples that do not match it "
                    + "are not read.")
    public String samplesSha256;

    @JsonPropertyDescription("What was measured: server image and arguments, GPUs, driver, model.")
    public Provenance provenance;

    @JsonPropertyDescription("What was sent: the workload's digest and, for a trace replay, the window's shape.")
    public WorkloadSummary workload;

    @JsonPropertyDescription(
            "Lowest concurrency at which a spec.slo limit was exceeded; absent when every level met it.")
    public Integer sloBrokenAtConcurrency;

    @JsonPropertyDescription(
            "Warnings of the runner about the trustworthiness of its figures (client bottleneck, token counts "
                    + "estimated).")
    public List<String> warnings = new ArrayList<>();

    @JsonPropertyDescription("Of a finished run with a retention: when it will be deleted, or which runs keep it.")
    public RetentionStatus retention;

    @JsonPropertyDescription("Of a finished run, with the operator's archive enabled: where its record is in object "
            + "storage, which keeps its samples for comparisons after the run is deleted.")
    public ArchiveStatus archive;
}
