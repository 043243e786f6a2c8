package dev.llmops.serving.demo;

import java.util.Optional;

/** Where the embedded API finds a container's log, since no kubelet serves it. */
public interface PodLogSource {
    Optional<String> log(String namespace, String pod, String container);
}
