package dev.llmops.serving.demo.apiserver;

import java.util.Optional;

/** Where the embedded API reads a container's log from, as kube-apiserver reads it from the pod's kubelet. */
@FunctionalInterface
public interface PodLogSource {

    /** The whole log of the container so far; empty when it has none (yet). */
    Optional<String> log(String namespace, String pod, String container);

    /** The last lines of a log, as a kubelet cuts a tail: a final line without newline counts as a line. */
    static String tail(String log, int lines) {
        if (lines == 0) {
            return "";
        }
        int start = log.endsWith("\n") ? log.length() - 1 : log.length();
        for (int found = 0; found < lines; found++) {
            start = log.lastIndexOf('\n', start - 1);
            if (start < 0) {
                return log;
            }
        }
        return log.substring(start + 1);
    }
}
