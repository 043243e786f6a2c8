package dev.llmops.serving.demo;

import java.util.Optional;

/** Where the embedded API reads a container's log from, as kube-apiserver reads it from the pod's kubelet. */
@FunctionalInterface
public interface PodLogSource {

    /** The whole log of the container so far; empty when it has none (yet). */
    Optional<String> log(String namespace, String pod, String container);
}
