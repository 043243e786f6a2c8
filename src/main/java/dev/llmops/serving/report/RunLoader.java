package dev.llmops.serving.report;

import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmops.serving.api.v1alpha1.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.BenchmarkRunStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;

/**
 * Reads a BenchmarkRun as kubectl prints it (YAML or JSON), in any phase, and says plainly why a document cannot be
 * reported on.
 */
public final class RunLoader {

    private final KubernetesSerialization serialization = new KubernetesSerialization(listsNeverNull(), true);

    /**
     * @param source where the document came from, named in error messages
     * @return the run; a run without a status yet gets an empty one, so a pending run is reported like a failed one
     * @throws IllegalArgumentException when the document is not one named BenchmarkRun
     */
    public BenchmarkRun load(String document, String source) {
        if (document == null || document.isBlank()) {
            throw new IllegalArgumentException(
                    source + " is empty: expected a BenchmarkRun, e.g. kubectl get benchmarkrun NAME -o yaml");
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
        if (object.getMetadata() == null || object.getMetadata().getName() == null) {
            throw new IllegalArgumentException(
                    source + " holds a BenchmarkRun without metadata.name: pass the output of"
                            + " kubectl get benchmarkrun NAME -o yaml");
        }
        BenchmarkRun run;
        try {
            run = serialization.convertValue(object, BenchmarkRun.class);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    source + ": BenchmarkRun " + object.getMetadata().getName() + " does not match its schema: "
                            + e.getMessage(),
                    e);
        }
        if (run.getStatus() == null) {
            run.setStatus(new BenchmarkRunStatus());
        }
        return run;
    }

    /**
     * A mapper that reads a null list as empty and drops null items, so no part of a report has to guard against them.
     */
    private static ObjectMapper listsNeverNull() {
        ObjectMapper mapper = new ObjectMapper();
        mapper.configOverride(List.class).setSetterInfo(JsonSetter.Value.construct(Nulls.AS_EMPTY, Nulls.SKIP));
        return mapper;
    }

    private static String describe(Object parsed) {
        if (parsed instanceof HasMetadata object) {
            return "a " + object.getKind();
        }
        return parsed == null ? "nothing" : "a " + parsed.getClass().getSimpleName();
    }
}
