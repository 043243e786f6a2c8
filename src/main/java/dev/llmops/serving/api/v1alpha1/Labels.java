package dev.llmops.serving.api.v1alpha1;

/** The label keys and values on everything the operator creates, spelled once so selectors and objects agree. */
public final class Labels {

    public static final String NAME = "app.kubernetes.io/name";
    public static final String INSTANCE = "app.kubernetes.io/instance";
    public static final String COMPONENT = "app.kubernetes.io/component";
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    public static final String PART_OF = "app.kubernetes.io/part-of";
    /** Names the owning ModelServer on pods, whose owner chain runs through a ReplicaSet or StatefulSet. */
    public static final String MODEL_SERVER = ApiGroup.GROUP + "/modelserver";
    /** Names the ServingExperiment on the ModelServers and BenchmarkRuns it made for its variants. */
    public static final String EXPERIMENT = ApiGroup.GROUP + "/experiment";
    /** Names the experiment's variant a ModelServer or BenchmarkRun belongs to. */
    public static final String VARIANT = ApiGroup.GROUP + "/variant";

    public static final String OPERATOR = "llm-serving-operator";
    /** Selects the objects this operator made, so its informers cache those and not the whole cluster's. */
    public static final String OWNED = MANAGED_BY + "=" + OPERATOR;

    /** Component of the pods that serve HTTP: every Deployment pod, and the leader of each LeaderWorkerSet group. */
    public static final String SERVER = "server";
    /** Component of the non-leader pods of a multi-node replica; they join the leader's process group. */
    public static final String WORKER = "worker";
    /** Component of benchmark Jobs and their pods. */
    public static final String BENCHMARK = "benchmark";
    /** Selects the benchmark Jobs this operator made. */
    public static final String BENCHMARK_JOBS = COMPONENT + "=" + BENCHMARK + "," + OWNED;

    private Labels() {}
}
