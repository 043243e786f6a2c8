package dev.llmops.serving.api.v1alpha1;

/** The condition types of both resources and of their SGLang pods' readiness gate, spelled once for every reader. */
public final class ConditionTypes {

    public static final String READY = "Ready";
    public static final String RECONCILING = "Reconciling";
    public static final String STALLED = "Stalled";
    /** BenchmarkRun: True when it finished with results, False when it failed, Unknown until then. */
    public static final String SUCCEEDED = "Succeeded";

    public static final String SCHEDULED = "Scheduled";
    /** ModelServer: a real chat completion against its serving pods returned tokens. */
    public static final String INFERENCE_READY = "InferenceReady";

    public static final String DEGRADED = "Degraded";
    public static final String SLO_MET = "SLOMet";
    public static final String BASELINE_COMPARED = "BaselineCompared";
    /** BenchmarkRun: its greedy outputs diverge from the baseline's or the reference's beyond spec.quality. */
    public static final String QUALITY_SUSPECT = "QualitySuspect";
    /** BenchmarkRun: its record is in the operator's object-store archive. */
    public static final String ARCHIVED = "Archived";
    /** BenchmarkRun: a stage is slower than spec.reference's beyond the noise band. */
    public static final String REGRESSED = "Regressed";
    /** BenchmarkRun: no stage is slower than spec.reference's and one is faster beyond the noise band. */
    public static final String IMPROVED = "Improved";
    /** The pod condition an SGLang pod's readiness gate waits for; only the operator sets it. */
    public static final String POD_INFERENCE_READY = ApiGroup.GROUP + "/inference-ready";

    private ConditionTypes() {}
}
