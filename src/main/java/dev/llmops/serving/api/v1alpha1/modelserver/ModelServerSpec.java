package dev.llmops.serving.api.v1alpha1.modelserver;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.llmops.serving.api.v1alpha1.QuantityPattern;
import dev.llmops.serving.api.v1alpha1.SecretKeyReference;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.EnvVar;
import java.util.ArrayList;
import java.util.List;
import lombok.EqualsAndHashCode;

/** Desired state of a ModelServer: what to serve, on which GPUs, and how to decide it is ready. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value = "!has(self.parallelism) || self.parallelism.tp * (self.parallelism.enableDpAttention ? 1 : "
                + "self.parallelism.dp)"
                + " <= (has(self.accelerator) ? self.accelerator.gpusPerReplica : 1)",
        message = "spec.parallelism: tp × dp (dp counts only without DP attention) needs more GPUs than "
                + "spec.accelerator.gpusPerReplica provides",
        reason = "FieldValueInvalid",
        fieldPath = ".parallelism.tp")
@ValidationRule(
        value = "!has(self.parallelism) || (has(self.accelerator) ? self.accelerator.gpusPerReplica : 1) % "
                + "self.parallelism.nodes == 0",
        message = "spec.accelerator.gpusPerReplica must be a multiple of spec.parallelism.nodes (each node of a "
                + "replica gets the same number of GPUs)",
        reason = "FieldValueInvalid",
        fieldPath = ".accelerator.gpusPerReplica")
@ValidationRule(
        value = "!has(self.speculativeDecoding) || self.speculativeDecoding.algorithm != 'DFLASH'"
                + " || !has(self.parallelism) || (!self.parallelism.enableDpAttention && self.parallelism.dp == 1)",
        message = "spec.speculativeDecoding.algorithm DFLASH does not support data parallelism: set "
                + "spec.parallelism.dp to 1 and enableDpAttention to false",
        reason = "FieldValueForbidden",
        fieldPath = ".speculativeDecoding.algorithm")
@EqualsAndHashCode
public class ModelServerSpec {

    /** CEL over a list of env entries: each valueFrom names its key, fieldPath or resource, as Kubernetes requires. */
    public static final String ENV_VALUE_FROM_COMPLETE = "self.all(e, !has(e.valueFrom) || ["
            + "!has(e.valueFrom.secretKeyRef) || has(e.valueFrom.secretKeyRef.key),"
            + " !has(e.valueFrom.configMapKeyRef) || has(e.valueFrom.configMapKeyRef.key),"
            + " !has(e.valueFrom.fieldRef) || has(e.valueFrom.fieldRef.fieldPath),"
            + " !has(e.valueFrom.resourceFieldRef) || has(e.valueFrom.resourceFieldRef.resource)"
            + "].all(ok, ok))";

    @Required
    @JsonPropertyDescription("The model to serve.")
    public ModelSpec model;

    @Size(max = 512)
    @JsonPropertyDescription("SGLang container image. Defaults to the operator's pinned CUDA 13 SGLang image.")
    public String image;

    @JsonPropertyDescription("Which GPUs each replica needs and on which nodes they may be.")
    public AcceleratorSpec accelerator = new AcceleratorSpec();

    @JsonPropertyDescription("Tensor, data and expert parallelism, and the number of nodes per replica.")
    public ParallelismSpec parallelism = new ParallelismSpec();

    @JsonPropertyDescription(
            "Speculative decoding (EAGLE, EAGLE3, NEXTN, STANDALONE, NGRAM, DFLASH). Absent means autoregressive "
                    + "decoding.")
    public SpeculativeDecodingSpec speculativeDecoding;

    @Size(max = 128)
    @JsonPropertyDescription("Extra arguments appended last to the SGLang command line, e.g. [\"--reasoning-parser\", "
            + "\"kimi_k2\"]. Flags the operator derives from other fields (--model-path, --host, --port, --tp-size, "
            + "...) are rejected. The operator adds --enable-metrics, and --enable-cache-report (each request's cached "
            + "prompt tokens in its usage, which benchmarks report) unless it is given here.")
    public List<String> extraArgs = new ArrayList<>();

    @Size(max = 128)
    @ValidationRule(
            value = "self.all(e, has(e.name) && size(e.name) > 0)",
            message = "spec.env: every entry needs a name, as Kubernetes requires of a container's environment",
            reason = "FieldValueRequired")
    @ValidationRule(
            value = ModelServerSpec.ENV_VALUE_FROM_COMPLETE,
            message = "spec.env: a valueFrom needs its key (secretKeyRef, configMapKeyRef), fieldPath (fieldRef) or "
                    + "resource (resourceFieldRef), as Kubernetes requires",
            reason = "FieldValueRequired")
    @JsonPropertyDescription("Extra environment variables for the SGLang container.")
    public List<EnvVar> env = new ArrayList<>();

    @JsonPropertyDescription("CPU and memory for each SGLang pod. GPUs come from spec.accelerator.")
    public ComputeResourcesSpec resources = new ComputeResourcesSpec();

    @Default("16Gi")
    @io.fabric8.generator.annotation.Pattern(QuantityPattern.VALUE)
    @JsonPropertyDescription(
            "Size of the memory-backed /dev/shm that NCCL needs (the container default of 64Mi is far too small).")
    public String sharedMemorySize = "16Gi";

    @JsonPropertyDescription(
            "Where model weights are cached: an existing PersistentVolumeClaim, or a new one of the given size.")
    public ModelCacheSpec modelCache;

    @JsonPropertyDescription("Secret key holding a Hugging Face token, passed to the server as HF_TOKEN.")
    public SecretKeyReference huggingFaceTokenSecret;

    @JsonPropertyDescription(
            "Secret key holding the API key the server requires (--api-key, given through an environment variable, "
                    + "never in the pod spec); the operator's probes and BenchmarkRuns against this server send it.")
    public SecretKeyReference apiKeySecret;

    @JsonPropertyDescription(
            "How the operator decides that a pod really serves: a real chat completion, not just an open port.")
    public ReadinessSpec readiness = new ReadinessSpec();

    @JsonPropertyDescription("Scheduling settings merged with the GPU placement derived from spec.accelerator.")
    public SchedulingSpec scheduling = new SchedulingSpec();

    @Default("1")
    @Min(0)
    @Max(64)
    @JsonPropertyDescription("Number of server replicas (each replica spans spec.parallelism.nodes nodes).")
    public Integer replicas = 1;

    @Default("30000")
    @Min(1024)
    @Max(65535)
    @JsonPropertyDescription("Port the SGLang server listens on.")
    public Integer port = 30000;
}
