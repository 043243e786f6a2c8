package dev.llmops.serving.api.v1alpha1.benchmarkrun.spec;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;

/** A dataset file mounted read-only into the runner pod, from a ConfigMap key or a file on a claim. */
@EqualsAndHashCode
public abstract class DatasetFile {

    @JsonPropertyDescription("A ConfigMap key holding the file (up to the ConfigMap limit of 1 MiB).")
    public ConfigMapKeyReference configMap;

    @JsonPropertyDescription("A file on an existing PersistentVolumeClaim, for files larger than a ConfigMap holds.")
    public ClaimFileReference persistentVolumeClaim;
}
