package dev.llmops.serving.report;

import dev.llmops.serving.api.v1alpha1.BenchmarkRun;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/** Reads a BenchmarkRun as kubectl prints it (YAML or JSON) and says plainly why a document cannot be reported on. */
public final class RunLoader {

    private final KubernetesSerialization serialization = new KubernetesSerialization();

    /**
     * @param source where the document came from, named in error messages
     * @throws IllegalArgumentException when the document is not a BenchmarkRun with results
     */
    public BenchmarkRun load(String document, String source) {
        if (document == null || document.isBlank()) {
            throw new IllegalArgumentException(source + " is empty: expected a BenchmarkRun, e.g. kubectl get benchmarkrun NAME -o yaml");
        }
        Object parsed;
        try {
            parsed = serialization.unmarshal(document);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(source + " is not YAML or JSON: " + e.getMessage(), e);
        }
        if (!(parsed instanceof HasMetadata object) || !"BenchmarkRun".equals(object.getKind())) {
            throw new IllegalArgumentException(source + " holds " + describe(parsed)
                    + ", not one BenchmarkRun: pass the output of kubectl get benchmarkrun NAME -o yaml");
        }
        BenchmarkRun run = serialization.convertValue(object, BenchmarkRun.class);
        if (run.getStatus() == null || run.getStatus().stages == null || run.getStatus().stages.isEmpty()) {
            throw new IllegalArgumentException(source + ": BenchmarkRun " + run.getMetadata().getName()
                    + " has no measured stages in its status yet (phase "
                    + (run.getStatus() == null ? "none" : run.getStatus().phase) + ")");
        }
        return run;
    }

    private static String describe(Object parsed) {
        if (parsed instanceof HasMetadata object) {
            return "a " + object.getKind();
        }
        return parsed == null ? "nothing" : "a " + parsed.getClass().getSimpleName();
    }
}
