package dev.llmops.serving.api.v1alpha1.modelserver;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import lombok.EqualsAndHashCode;

/** Observed state of a ModelServer, written by the operator through the status subresource. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class ModelServerStatus {

    @JsonPropertyDescription("metadata.generation this status describes.")
    public Long observedGeneration;

    @JsonPropertyDescription("Pending, Scheduling, Loading, Ready, Degraded or Failed.")
    public ModelServerPhase phase;

    @JsonPropertyDescription(
            "Ready, Scheduled, InferenceReady, Reconciling, Stalled and Degraded, in the Kubernetes condition shape.")
    public List<Condition> conditions = new ArrayList<>();

    @JsonPropertyDescription("In-cluster URL of the OpenAI-compatible API, e.g. http://kimi.llm.svc:30000.")
    public String endpoint;

    @JsonPropertyDescription("Replicas desired by the spec.")
    public Integer replicas;

    @JsonPropertyDescription("Replicas whose pods have passed a real generation.")
    public Integer readyReplicas;

    @JsonPropertyDescription("readyReplicas/replicas, for kubectl get.")
    public String readyReplicasText;

    @JsonPropertyDescription("The last real generation that succeeded.")
    public InferenceProbeResult lastInferenceProbe;

    @JsonPropertyDescription("Why the server is not ready, in plain words, with a hint; absent when nothing is wrong.")
    public Diagnosis diagnosis;

    @JsonPropertyDescription("The image the pods run (the spec's, or the operator's default).")
    public String image;

    @JsonPropertyDescription("The SGLang command line the pods run.")
    public List<String> serverArgs = new ArrayList<>();

    @Size(max = 32)
    @JsonPropertyDescription(
            "Compatibility rules this server breaks but that its serving.llmops.dev/allow-incompatible annotation "
                    + "allows (an expert's override); absent when none.")
    public List<String> allowedIncompatibilities;
}
