package dev.llmops.serving.operator.modelserver;

import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerSpec;
import dev.llmops.serving.api.v1alpha1.modelserver.ParallelismSpec;
import dev.llmops.serving.api.v1alpha1.modelserver.SpeculativeDecodingSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The SGLang launch command derived from a ModelServer spec, and the flags users may therefore not repeat. */
public final class SglangCommand {

    public static final List<String> COMMAND = List.of("python3", "-m", "sglang.launch_server");
    /** Port of torch.distributed rendezvous on the leader of a multi-node replica. */
    public static final int DIST_INIT_PORT = 20000;
    /** The container variable holding spec.apiKeySecret; the kubelet expands it into --api-key's value. */
    public static final String API_KEY_ENV = "LLMOPS_SERVER_API_KEY";
    /**
     * Makes SGLang report each request's cached prompt tokens in its usage, which benchmarks read; on by default, and
     * not repeated when the extra arguments already have it.
     */
    public static final String CACHE_REPORT = "--enable-cache-report";

    /** A flag the operator sets, with its aliases in SGLang, and the spec field that controls it. */
    public record DerivedFlag(String field, List<String> names) {}

    public static final List<DerivedFlag> DERIVED_FLAGS = List.of(
            new DerivedFlag("spec.model.path", List.of("--model-path", "--model")),
            new DerivedFlag("spec.model.servedModelName", List.of("--served-model-name")),
            new DerivedFlag("spec.model.revision", List.of("--revision")),
            new DerivedFlag("spec.model.trustRemoteCode", List.of("--trust-remote-code")),
            new DerivedFlag("(always 0.0.0.0 in a pod)", List.of("--host")),
            new DerivedFlag("spec.apiKeySecret", List.of("--api-key")),
            new DerivedFlag("spec.port", List.of("--port")),
            new DerivedFlag("spec.parallelism.tp", List.of("--tp-size", "--tensor-parallel-size", "--tp")),
            new DerivedFlag("spec.parallelism.dp", List.of("--dp-size", "--data-parallel-size", "--dp")),
            new DerivedFlag("spec.parallelism.ep", List.of("--ep-size", "--expert-parallel-size", "--ep")),
            new DerivedFlag("spec.parallelism.enableDpAttention", List.of("--enable-dp-attention")),
            new DerivedFlag(
                    "spec.parallelism.nodes",
                    List.of("--nnodes", "--node-rank", "--dist-init-addr", "--nccl-init-addr")),
            new DerivedFlag("spec.speculativeDecoding.algorithm", List.of("--speculative-algorithm")),
            new DerivedFlag("spec.speculativeDecoding.draftModelPath", List.of("--speculative-draft-model-path")),
            new DerivedFlag("spec.speculativeDecoding.numSteps", List.of("--speculative-num-steps")),
            new DerivedFlag("spec.speculativeDecoding.eagleTopK", List.of("--speculative-eagle-topk")),
            new DerivedFlag("spec.speculativeDecoding.numDraftTokens", List.of("--speculative-num-draft-tokens")),
            new DerivedFlag("spec.speculativeDecoding.dflashBlockSize", List.of("--speculative-dflash-block-size")),
            new DerivedFlag(
                    "spec.speculativeDecoding.dflashDraftWindowSize",
                    List.of("--speculative-dflash-draft-window-size")),
            new DerivedFlag("(always on: the operator reads the metrics)", List.of("--enable-metrics")));

    private SglangCommand() {}

    /** The arguments after {@link #COMMAND}; multi-node replicas rendezvous through the LeaderWorkerSet variables. */
    public static List<String> args(ModelServerSpec spec) {
        List<String> args = new ArrayList<>();
        args.add("--model-path");
        args.add(spec.model.path);
        addIfSet(args, "--served-model-name", spec.model.servedModelName);
        addIfSet(args, "--revision", spec.model.revision);
        if (Boolean.TRUE.equals(spec.model.trustRemoteCode)) {
            args.add("--trust-remote-code");
        }
        args.addAll(List.of("--host", "0.0.0.0", "--port", String.valueOf(spec.port)));
        if (spec.apiKeySecret != null) {
            args.addAll(List.of("--api-key", "$(" + API_KEY_ENV + ")"));
        }
        ParallelismSpec parallelism = spec.parallelism;
        args.addAll(List.of("--tp-size", String.valueOf(parallelism.tp)));
        if (parallelism.dp > 1) {
            args.addAll(List.of("--dp-size", String.valueOf(parallelism.dp)));
        }
        if (parallelism.ep > 1) {
            args.addAll(List.of("--ep-size", String.valueOf(parallelism.ep)));
        }
        if (Boolean.TRUE.equals(parallelism.enableDpAttention)) {
            args.add("--enable-dp-attention");
        }
        SpeculativeDecodingSpec speculative = spec.speculativeDecoding;
        if (speculative != null) {
            args.addAll(List.of("--speculative-algorithm", speculative.algorithm));
            addIfSet(args, "--speculative-draft-model-path", speculative.draftModelPath);
            addIfSet(args, "--speculative-num-steps", speculative.numSteps);
            addIfSet(args, "--speculative-eagle-topk", speculative.eagleTopK);
            addIfSet(args, "--speculative-num-draft-tokens", speculative.numDraftTokens);
            addIfSet(args, "--speculative-dflash-block-size", speculative.dflashBlockSize);
            addIfSet(args, "--speculative-dflash-draft-window-size", speculative.dflashDraftWindowSize);
        }
        args.add("--enable-metrics");
        if (!spec.extraArgs.contains(CACHE_REPORT)) {
            args.add(CACHE_REPORT);
        }
        if (parallelism.nodes > 1) {
            args.addAll(List.of(
                    "--dist-init-addr", "$(LWS_LEADER_ADDRESS):" + DIST_INIT_PORT,
                    "--nnodes", "$(LWS_GROUP_SIZE)",
                    "--node-rank", "$(LWS_WORKER_INDEX)"));
        }
        args.addAll(spec.extraArgs);
        return args;
    }

    /**
     * The derived flag an extra argument repeats, if any; accepts both {@code --flag value} and {@code --flag=value}.
     */
    public static Optional<DerivedFlag> derivedFlagOf(String extraArg) {
        String flag = extraArg.contains("=") ? extraArg.substring(0, extraArg.indexOf('=')) : extraArg;
        return DERIVED_FLAGS.stream().filter(d -> d.names().contains(flag)).findFirst();
    }

    private static void addIfSet(List<String> args, String flag, Object value) {
        if (value != null) {
            args.add(flag);
            args.add(String.valueOf(value));
        }
    }
}
