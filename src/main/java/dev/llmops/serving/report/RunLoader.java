package dev.llmops.serving.report;

import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperimentSpec;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperimentStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Reads a BenchmarkRun, a ServingExperiment or an experiment's runs as kubectl prints them (YAML or JSON), in any
 * phase, or a result {@code bench --json-out} wrote, and says plainly why a document cannot be reported on. A plain
 * YAML mapper, not the Kubernetes client's serialization, which would first look up every kind it knows (some 1,300
 * classes loaded for one document).
 */
public final class RunLoader {

    private static final String EXPERIMENT = "ServingExperiment";
    /** The most runs report history reads: years of nightly runs of one target. */
    static final int MAX_SERIES = 5000;

    private static final String RUN_HINT =
            "pass the output of kubectl get benchmarkrun NAME -o yaml, or a result of bench --json-out";
    private static final String RUNS_HINT =
            "pass the output of kubectl get benchmarkruns -l serving.llmops.dev/experiment=NAME -o yaml";

    private final ObjectMapper yaml = listsNeverNull();

    /**
     * @param source where the document came from, named in error messages
     * @return the run, or a bench result read as one; a run without a status yet gets an empty one, so a pending run is
     *     reported like a failed one
     * @throws IllegalArgumentException when the document is neither one named BenchmarkRun nor a bench result
     */
    public BenchmarkRun load(String document, String source) {
        if (document == null || document.isBlank()) {
            throw new IllegalArgumentException(
                    source + " is empty: expected a BenchmarkRun, e.g. kubectl get benchmarkrun NAME -o yaml");
        }
        JsonNode parsed = parse(document, source);
        if (BenchResult.shapeOf(parsed)) {
            return BenchResult.of(parsed, runName(source), source).run();
        }
        return run(parsed, source, RUN_HINT);
    }

    /**
     * A result {@code bench --json-out} wrote, named after its file: {@code fast} for {@code results/fast.json}.
     *
     * @param source where the document came from, named in error messages
     * @throws IllegalArgumentException when the document is not such a result, or a field of it is not as bench writes
     */
    public BenchResult loadBenchResult(String document, String source) {
        JsonNode parsed = parse(document, source);
        if (!BenchResult.shapeOf(parsed)) {
            throw new IllegalArgumentException(source + " holds " + describe(parsed) + ", not a result of bench"
                    + " --json-out (an object with model, max_tokens and stages)");
        }
        return BenchResult.of(parsed, runName(source), source);
    }

    /** The file name without its directory and extension; the source itself when it is no file. */
    static String runName(String source) {
        String file = source.substring(source.lastIndexOf('/') + 1);
        int dot = file.lastIndexOf('.');
        return dot > 0 ? file.substring(0, dot) : file;
    }

    /** Whether the document is a ServingExperiment, which the report renders with its variants' runs. */
    public boolean holdsExperiment(String document) {
        if (document == null || document.isBlank()) {
            return false;
        }
        try {
            return EXPERIMENT.equals(yaml.readTree(document).path("kind").asText());
        } catch (Exception e) {
            return false;
        }
    }

    /**
     * @param source where the document came from, named in error messages
     * @return the experiment; one without a status yet gets an empty one
     * @throws IllegalArgumentException when the document is not one named ServingExperiment of at most
     *     {@value ServingExperimentSpec#MAX_VARIANTS} variants
     */
    public ServingExperiment loadExperiment(String document, String source) {
        JsonNode parsed = parse(document, source);
        String hint = "pass the output of kubectl get servingexperiment NAME -o yaml";
        if (parsed == null || !EXPERIMENT.equals(parsed.path("kind").asText())) {
            throw new IllegalArgumentException(
                    source + " holds " + describe(parsed) + ", not one ServingExperiment: " + hint);
        }
        String name = parsed.path("metadata").path("name").asText(null);
        if (name == null) {
            throw new IllegalArgumentException(source + " holds a ServingExperiment without metadata.name: " + hint);
        }
        ServingExperiment experiment;
        try {
            experiment = yaml.treeToValue(parsed, ServingExperiment.class);
        } catch (Exception e) {
            throw new IllegalArgumentException(
                    source + ": ServingExperiment " + name + " does not match its schema: " + e.getMessage(), e);
        }
        if (experiment.getStatus() == null) {
            experiment.setStatus(new ServingExperimentStatus());
        }
        int variants = Math.max(
                experiment.getStatus().variants.size(),
                experiment.getSpec() == null ? 0 : experiment.getSpec().variants.size());
        if (variants > ServingExperimentSpec.MAX_VARIANTS) {
            throw new IllegalArgumentException(source + ": ServingExperiment " + name + " has " + variants
                    + " variants, more than the " + ServingExperimentSpec.MAX_VARIANTS + " an experiment may have");
        }
        return experiment;
    }

    /**
     * The runs of a {@code kind: List} (what kubectl prints for several objects), of a stream of YAML documents, or of
     * one run; at most one per variant an experiment may have.
     *
     * @param source where the documents came from, named in error messages
     * @throws IllegalArgumentException when a document or list item is not a named BenchmarkRun, or there are too many
     */
    public List<BenchmarkRun> loadRuns(String document, String source) {
        return loadRuns(
                document,
                source,
                ServingExperimentSpec.MAX_VARIANTS,
                "more runs than an experiment has variants: " + RUNS_HINT);
    }

    /** As {@link #loadRuns(String, String)}, a target's runs for report history: {@value #MAX_SERIES} at most. */
    public List<BenchmarkRun> loadRunSeries(String document, String source) {
        return loadRuns(document, source, MAX_SERIES, "more than report history reads at once");
    }

    private List<BenchmarkRun> loadRuns(String document, String source, int max, String tooMany) {
        if (document == null || document.isBlank()) {
            throw new IllegalArgumentException(source + " is empty: expected BenchmarkRuns, e.g. kubectl get "
                    + "benchmarkruns -l serving.llmops.dev/experiment=NAME -o yaml");
        }
        List<JsonNode> items = new ArrayList<>();
        try (MappingIterator<JsonNode> documents =
                yaml.readerFor(JsonNode.class).readValues(document)) {
            while (documents.hasNextValue()) {
                JsonNode parsed = documents.nextValue();
                if (parsed != null && "List".equals(parsed.path("kind").asText())) {
                    parsed.path("items").forEach(item -> add(items, item, source, max, tooMany));
                } else if (parsed != null && !parsed.isNull() && !parsed.isMissingNode()) {
                    add(items, parsed, source, max, tooMany);
                }
            }
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalArgumentException(source + " is not YAML or JSON: " + parserSays(e), e);
        }
        List<BenchmarkRun> runs = new ArrayList<>();
        for (int index = 0; index < items.size(); index++) {
            runs.add(run(items.get(index), source + " item " + (index + 1), RUNS_HINT));
        }
        return runs;
    }

    private static void add(List<JsonNode> items, JsonNode item, String source, int max, String tooMany) {
        if (items.size() == max) {
            throw new IllegalArgumentException(source + " holds more than " + max + " objects, " + tooMany);
        }
        items.add(item);
    }

    private JsonNode parse(String document, String source) {
        if (document == null || document.isBlank()) {
            throw new IllegalArgumentException(source + " is empty");
        }
        try {
            return yaml.readTree(document);
        } catch (Exception e) {
            throw new IllegalArgumentException(source + " is not YAML or JSON: " + parserSays(e), e);
        }
    }

    private BenchmarkRun run(JsonNode parsed, String source, String hint) {
        if (parsed == null || !"BenchmarkRun".equals(parsed.path("kind").asText())) {
            throw new IllegalArgumentException(
                    source + " holds " + describe(parsed) + ", not one BenchmarkRun: " + hint);
        }
        String name = parsed.path("metadata").path("name").asText(null);
        if (name == null) {
            throw new IllegalArgumentException(source + " holds a BenchmarkRun without metadata.name: " + hint);
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
        if (!kind.isEmpty()) {
            return "a " + kind;
        }
        return parsed.isObject()
                ? "an object without a kind"
                : parsed.isArray()
                        ? "a list"
                        : "a " + parsed.getNodeType().name().toLowerCase(Locale.ROOT);
    }

    /**
     * What the parser found wrong, on one line with where: its own lines without the excerpts of the input it quotes
     * (indented) and without its description of the input source.
     */
    static String parserSays(Exception e) {
        if (!(e instanceof JsonProcessingException parsing)) {
            return e.getMessage();
        }
        String what = parsing.getOriginalMessage() == null
                ? "unreadable"
                : parsing.getOriginalMessage()
                        .lines()
                        .filter(line -> !line.isBlank() && !Character.isWhitespace(line.charAt(0)))
                        .collect(Collectors.joining("; "));
        JsonLocation where = parsing.getLocation();
        return where == null ? what : what + " (line " + where.getLineNr() + ", column " + where.getColumnNr() + ")";
    }
}
