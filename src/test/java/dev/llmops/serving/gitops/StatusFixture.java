package dev.llmops.serving.gitops;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** A ModelServer or BenchmarkRun as the API returns it, reduced to what health checks read. */
final class StatusFixture {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ObjectNode object = JSON.createObjectNode();

    private StatusFixture(String kind, long generation) {
        object.put("apiVersion", "serving.llmops.dev/v1alpha1").put("kind", kind);
        object.putObject("metadata")
                .put("name", "fixture")
                .put("namespace", "llm")
                .put("generation", generation);
    }

    static StatusFixture modelServer(long generation) {
        return new StatusFixture("ModelServer", generation);
    }

    static StatusFixture benchmarkRun(long generation) {
        return new StatusFixture("BenchmarkRun", generation);
    }

    StatusFixture observed(long observedGeneration) {
        status().put("observedGeneration", observedGeneration);
        return this;
    }

    StatusFixture phase(String phase) {
        status().put("phase", phase);
        return this;
    }

    StatusFixture progress(String progress) {
        status().put("progress", progress);
        return this;
    }

    StatusFixture condition(String type, String status, String reason, String message, long observedGeneration) {
        ArrayNode conditions =
                status().has("conditions") ? (ArrayNode) status().get("conditions") : status().putArray("conditions");
        conditions
                .addObject()
                .put("type", type)
                .put("status", status)
                .put("reason", reason)
                .put("message", message)
                .put("observedGeneration", observedGeneration)
                .put("lastTransitionTime", "2026-11-30T10:00:00Z");
        return this;
    }

    ObjectNode json() {
        return object;
    }

    private ObjectNode status() {
        return object.has("status") ? (ObjectNode) object.get("status") : object.putObject("status");
    }
}
