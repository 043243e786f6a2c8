package dev.llmops.serving.api.v1alpha1;

/**
 * The reasons of conditions that other components act on (the demo, the report, GitOps health checks, tests), spelled
 * once. A ModelServer's diagnosis reasons are listed with their failure signatures in the controller.
 */
public final class ConditionReasons {

    /** Either resource: a reconcile failed; Stalled once the retries are used up. */
    public static final String RECONCILE_ERROR = "ReconcileError";

    /** InferenceReady and the pod gate: the last real generation returned tokens, or failed. */
    public static final String GENERATION_SUCCEEDED = "GenerationSucceeded";

    public static final String GENERATION_FAILED = "GenerationFailed";

    /**
     * ModelServer Stalled: its flags, speculative algorithm or image break a compatibility rule for its GPUs (nothing
     * is created).
     */
    public static final String INCOMPATIBLE_WITH_ACCELERATOR = "IncompatibleWithAccelerator";

    /** BenchmarkRun phases' reasons. */
    public static final String PENDING = "Pending";

    public static final String WAITING_FOR_SERVER = "WaitingForServer";
    public static final String SERVER_NOT_READY = "ServerNotReady";
    public static final String CREATING_JOB = "CreatingJob";
    public static final String JOB_RUNNING = "JobRunning";
    public static final String JOB_FAILED = "JobFailed";
    public static final String SUCCEEDED = "Succeeded";
    public static final String RESULTS_INVALID = "ResultsInvalid";
    public static final String TARGET_DELETED = "TargetDeleted";
    /** The run's samples ConfigMap name is taken by one the operator did not write for this run. */
    public static final String SAMPLES_CONFLICT = "SamplesConflict";
    /** spec.target.apiKeySecret with a spec.target.modelServer, whose own key is the only one its runs may use. */
    public static final String SECRET_NOT_SERVERS = "SecretNotServers";
    /** spec.target.apiKeySecret with a spec.target.url whose host the operator does not allow-list. */
    public static final String SECRET_HOST_NOT_ALLOWED = "SecretHostNotAllowed";

    /** BaselineCompared. */
    public static final String COMPARED = "Compared";

    public static final String BASELINE_PENDING = "BaselinePending";
    public static final String BASELINE_NOT_FOUND = "BaselineNotFound";
    public static final String BASELINE_FAILED = "BaselineFailed";

    /** QualitySuspect. */
    public static final String OUTPUTS_DIVERGE = "OutputsDiverge";

    public static final String OUTPUTS_AGREE = "OutputsAgree";

    /** Regressed and Improved: True with Regressed or Improved, False with WithinNoise, else Unknown. */
    public static final String REGRESSED = "Regressed";

    public static final String IMPROVED = "Improved";
    public static final String WITHIN_NOISE = "WithinNoise";
    public static final String REFERENCE_PENDING = "ReferencePending";
    public static final String REFERENCE_NOT_FOUND = "ReferenceNotFound";
    public static final String REFERENCE_FAILED = "ReferenceFailed";
    /** Either run has no per-request samples, so no interval or verdict. */
    public static final String NO_SAMPLES = "NoSamples";
    /** The runs sent different requests, or no stage has enough pairs for a verdict. */
    public static final String NOT_COMPARABLE = "NotComparable";

    /** ServingExperiment Stalled: spec.maxDurationMinutes ran out (phase Incomplete). */
    public static final String BUDGET_EXHAUSTED = "BudgetExhausted";

    /** ServingExperiment Stalled: every variant failed (phase Failed). */
    public static final String NO_VARIANT_SUCCEEDED = "NoVariantSucceeded";

    /** ServingExperiment Stalled: an object it would create has the name of one it does not own. */
    public static final String NAME_TAKEN = "NameTaken";

    /** BenchmarkRun event: the finished run is deleted under its spec.retention. */
    public static final String EXPIRED = "Expired";

    /** Archived: the record is written. */
    public static final String ARCHIVED = "Archived";

    /** Archived: the store did not answer; retried. */
    public static final String ARCHIVE_UNREACHABLE = "ArchiveUnreachable";

    /** Archived: no credentials, or the store refused them; retried. */
    public static final String ARCHIVE_ACCESS_DENIED = "ArchiveAccessDenied";

    /** Archived: the bucket does not exist; retried. */
    public static final String ARCHIVE_BUCKET_MISSING = "ArchiveBucketMissing";

    /** Archived: the store answered with another error; retried. */
    public static final String ARCHIVE_FAILED = "ArchiveFailed";

    private ConditionReasons() {}
}
