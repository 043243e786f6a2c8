package dev.llmops.serving.api.v1alpha1.servingexperiment;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.llmops.serving.api.v1alpha1.modelserver.ComputeResourcesSpec;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerSpec;
import dev.llmops.serving.api.v1alpha1.modelserver.ParallelismSpec;
import dev.llmops.serving.api.v1alpha1.modelserver.SpeculativeDecodingSpec;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.EnvVar;
import java.util.List;
import lombok.EqualsAndHashCode;

/**
 * One way of serving the experiment's model: a name and the ModelServer fields it changes, laid over spec.server the
 * way a strategic merge patch is. Fields left out keep spec.server's; the fields are typed so that the API server
 * rejects a misspelled one. The fields a variant may not change are those that would make it another model (model),
 * another pool (accelerator, replicas, scheduling) or that every variant must share (modelCache, secrets, port).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class VariantSpec {

    @Required
    @Size(min = 1, max = 63)
    @Pattern("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
    @JsonPropertyDescription("The variant's name, unique in spec.variants: a DNS label. Its ModelServer and "
            + "BenchmarkRun are named <experiment>-<name>, at most 63 characters in all.")
    public String name;

    @Size(max = 512)
    @JsonPropertyDescription("Replaces spec.server.image.")
    public String image;

    @JsonPropertyDescription("Replaces spec.server.speculativeDecoding as a whole, never field by field: its settings "
            + "belong to one algorithm. Absent keeps spec.server's (autoregressive when spec.server has none), so "
            + "put speculative decoding in the variants, not in spec.server, to compare it with autoregressive "
            + "decoding.")
    public SpeculativeDecodingSpec speculativeDecoding;

    @JsonPropertyDescription("Replaces spec.server.parallelism. Its fields default as a ModelServer's do (tp 1, dp 1, "
            + "ep 1, nodes 1), not to spec.server's: write every one the variant needs. It must fit "
            + "spec.server.accelerator.gpusPerReplica.")
    public ParallelismSpec parallelism;

    @Size(max = 128)
    @JsonPropertyDescription("Replaces spec.server.extraArgs, as a strategic merge replaces a list: repeat the "
            + "server's arguments the variant keeps, e.g. [\"--reasoning-parser\", \"kimi_k2\", "
            + "\"--attention-backend\", \"triton\"].")
    public List<String> extraArgs;

    @Size(max = 128)
    @ValidationRule(
            value = "self.all(e, has(e.name) && size(e.name) > 0)",
            message = "spec.variants[*].env: every entry needs a name, as Kubernetes requires of a container's "
                    + "environment",
            reason = "FieldValueRequired")
    @ValidationRule(
            value = ModelServerSpec.ENV_VALUE_FROM_COMPLETE,
            message = "spec.variants[*].env: a valueFrom needs its key (secretKeyRef, configMapKeyRef), fieldPath "
                    + "(fieldRef) or resource (resourceFieldRef), as Kubernetes requires",
            reason = "FieldValueRequired")
    @JsonPropertyDescription("Merged into spec.server.env by name: an entry replaces the server's entry of the same "
            + "name, others are added after the server's.")
    public List<EnvVar> env;

    @JsonPropertyDescription("Merged into spec.server.resources field by field: cpu or memory given here replaces the "
            + "server's, the other is kept.")
    public ComputeResourcesSpec resources;
}
