package dev.llmops.serving.gitops;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The generic rules by which kstatus (Flux's health checks, kubectl-style waiters) reads a custom resource: a status
 * for an older generation is InProgress, Reconciling=True is InProgress, Stalled=True is Failed, anything else Current.
 */
final class Kstatus {

    enum Status {
        InProgress,
        Current,
        Failed
    }

    private Kstatus() {}

    static Status of(JsonNode object) {
        JsonNode status = object.path("status");
        long generation = object.path("metadata").path("generation").asLong(0);
        if (status.has("observedGeneration") && status.get("observedGeneration").asLong() < generation) {
            return Status.InProgress;
        }
        for (JsonNode condition : status.path("conditions")) {
            boolean isTrue = "True".equals(condition.path("status").asText());
            if (isTrue && "Reconciling".equals(condition.path("type").asText())) {
                return Status.InProgress;
            }
            if (isTrue && "Stalled".equals(condition.path("type").asText())) {
                return Status.Failed;
            }
        }
        return Status.Current;
    }
}
