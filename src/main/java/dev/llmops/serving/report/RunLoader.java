package dev.llmops.serving.report;

import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import java.util.List;
import java.util.Locale;

/**
 * Reads a BenchmarkRun as kubectl prints it (YAML or JSON), in any phase, and says plainly why a document cannot be
 * reported on. A plain YAML mapper, not the Kubernetes client's serialization, which would first look up every kind
 * it knows (some 1,300 classes loaded for one document).
 */
public final class RunLoader {

    private final ObjectMapper yaml = listsNeverNull();

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
        JsonNode parsed;
        try {
            parsed = yaml.readTree(document);
        } catch (Exception e) {
            throw new IllegalArgumentException(source + " is not YAML or JSON: " + e.getMessage(), e);
        }
        if (parsed == null || !"BenchmarkRun".equals(parsed.path("kind").asText())) {
            throw new IllegalArgumentException(source + " holds " + describe(parsed)
                    + ", not one BenchmarkRun: pass the output of kubectl get benchmarkrun NAME -o yaml");
        }
        String name = parsed.path("metadata").path("name").asText(null);
        if (name == null) {
            throw new IllegalArgumentException(
                    source + " holds a BenchmarkRun without metadata.name: pass the output of"
                            + " kubectl get benchmarkrun NAME -o yaml");
        }
        BenchmarkRun run;
        try {
            run = yaml.treeToValue(parsed, BenchmarkRun.class);
        } catch (Exception e) {
            throw new IllegalArgumentException(
                    source + ": BenchmarkRun " + name + " does not match its schema: " + e.getMessage(), e);
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
        ObjectMapper mapper =
                new ObjectMapper(new YAMLFactory()).disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        mapper.configOverride(List.class).setSetterInfo(JsonSetter.Value.construct(Nulls.AS_EMPTY, Nulls.SKIP));
        return mapper;
    }

    private static String describe(JsonNode parsed) {
        if (parsed == null || parsed.isMissingNode() || parsed.isNull()) {
            return "nothing";
        }
        String kind = parsed.path("kind").asText("");
        return kind.isEmpty() ? "a " + parsed.getNodeType().name().toLowerCase(Locale.ROOT) : "a " + kind;
    }
}
