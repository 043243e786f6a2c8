package dev.llmops.serving.operator.crd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmops.serving.api.contract.BenchmarkDefaults;
import dev.llmops.serving.api.v1alpha1.ApiGroup;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunSpec;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerSpec;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperimentSpec;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What the committed CRDs must keep declaring: defaults, enums, rules, bounds, printer columns and subresources. */
class CrdSchemaTest {

    /** Reads JSON values as the validator does, whole numbers as {@code Long}, so defaults compare by value. */
    static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_LONG_FOR_INTS);

    static final CrdValidator MODEL_SERVER = CrdValidator.forKind("ModelServer");
    static final CrdValidator BENCHMARK_RUN = CrdValidator.forKind("BenchmarkRun");
    static final CrdValidator SERVING_EXPERIMENT = CrdValidator.forKind("ServingExperiment");

    /**
     * Where a ServingExperiment's schema reuses another kind's types, and the path their rules' messages name, the one
     * in the other kind: the API server prints the full path before each message.
     */
    static final Map<String, String> REUSED_TYPES = Map.of(
            "spec.server", "spec",
            "spec.benchmark", "spec",
            "spec.variants[*].speculativeDecoding", "spec.speculativeDecoding",
            "spec.variants[*].parallelism", "spec.parallelism");

    @Test
    void modelServerDefaults() {
        assertThat(defaultAt(MODEL_SERVER, "spec.accelerator.family")).isEqualTo("blackwell");
        assertThat(defaultAt(MODEL_SERVER, "spec.accelerator.minDriverMajor")).isEqualTo(580L);
        assertThat(defaultAt(MODEL_SERVER, "spec.accelerator.gpusPerReplica")).isEqualTo(1L);
        assertThat(defaultAt(MODEL_SERVER, "spec.port")).isEqualTo(30000L);
        assertThat(defaultAt(MODEL_SERVER, "spec.sharedMemorySize")).isEqualTo("16Gi");
        assertThat(defaultAt(MODEL_SERVER, "spec.replicas")).isEqualTo(1L);
        assertThat(defaultAt(MODEL_SERVER, "spec.parallelism.tp")).isEqualTo(1L);
    }

    /**
     * The committed CRD's defaults are the runner's, so a field left out runs as the bench command runs without its
     * flag.
     */
    @Test
    void benchmarkRunDefaults() {
        assertThat(defaultAt(BENCHMARK_RUN, "spec.sampling.temperature"))
                .isEqualTo(0.6)
                .isEqualTo(BenchmarkDefaults.TEMPERATURE);
        assertThat(defaultAt(BENCHMARK_RUN, "spec.sampling.topP"))
                .isEqualTo(0.95)
                .isEqualTo(BenchmarkDefaults.TOP_P);
        assertThat(defaultAt(BENCHMARK_RUN, "spec.sampling.maxTokens"))
                .isEqualTo(4096L)
                .isEqualTo((long) BenchmarkDefaults.MAX_TOKENS);
        assertThat(defaultAt(BENCHMARK_RUN, "spec.warmup.requests"))
                .isEqualTo(3L)
                .isEqualTo((long) BenchmarkDefaults.WARMUP_REQUESTS);
        assertThat(defaultAt(BENCHMARK_RUN, "spec.warmup.maxTokens"))
                .isEqualTo(256L)
                .isEqualTo((long) BenchmarkDefaults.WARMUP_MAX_TOKENS);
        assertThat(defaultAt(BENCHMARK_RUN, "spec.requestTimeoutSeconds"))
                .isEqualTo(900L)
                .isEqualTo((long) BenchmarkDefaults.REQUEST_TIMEOUT_SECONDS);
        assertThat(defaultAt(BENCHMARK_RUN, "spec.waitTimeoutSeconds")).isEqualTo(3600L);
        assertThat(property(BENCHMARK_RUN, "spec.sweep.concurrency").getDefault())
                .as("no schema default: a rate sweep must not get closed-loop levels too")
                .isNull();
        assertThat(defaultAt(BENCHMARK_RUN, "spec.capacity.maxProbes")).isEqualTo(12L);
        assertThat(defaultAt(BENCHMARK_RUN, "spec.capacity.maxSearchSeconds")).isEqualTo(1800L);
        assertThat(defaultAt(BENCHMARK_RUN, "spec.singleRequest.prompts"))
                .isEqualTo(List.of(
                        "Write a Python quicksort implementation",
                        "Explain quantum entanglement",
                        "Write a comprehensive guide to Redis data structures"))
                .isEqualTo(BenchmarkDefaults.PROMPTS);
        assertThat(defaultAt(BENCHMARK_RUN, "spec.dataset.type")).isEqualTo("Random");
    }

    @Test
    void theApiServerAppliesTheDefaultsOfObjectsThatArePresent() {
        Map<String, Object> run = Map.of(
                "apiVersion",
                ApiGroup.API_VERSION,
                "kind",
                "BenchmarkRun",
                "metadata",
                Map.of("name", "r"),
                "spec",
                Map.of("target", Map.of("modelServer", "m"), "sweep", Map.of(), "sampling", Map.of()));

        @SuppressWarnings("unchecked")
        Map<String, Object> spec =
                (Map<String, Object>) BENCHMARK_RUN.withDefaults(run).get("spec");

        assertThat(spec.get("sweep")).isEqualTo(Map.of());
        assertThat(spec.get("sampling")).isEqualTo(Map.of("temperature", 0.6, "topP", 0.95, "maxTokens", 4096L));
        assertThat(spec).containsEntry("requestTimeoutSeconds", 900L).doesNotContainKey("singleRequest");
    }

    @Test
    void servingExperimentDefaults() {
        assertThat(defaultAt(SERVING_EXPERIMENT, "spec.parallelVariants")).isEqualTo(1L);
        assertThat(defaultAt(SERVING_EXPERIMENT, "spec.keepWinner")).isEqualTo(false);
        assertThat(defaultAt(SERVING_EXPERIMENT, "spec.objective.type")).isEqualTo("Throughput");
        assertThat(property(SERVING_EXPERIMENT, "spec.objective.stage").getDefault())
                .as("empty means the highest level of whichever sweep spec.benchmark runs")
                .isNull();
        assertThat(property(SERVING_EXPERIMENT, "spec.maxDurationMinutes").getDefault())
                .isNull();
        assertThat(property(SERVING_EXPERIMENT, "spec.baseline").getDefault())
                .as("empty means the first variant")
                .isNull();
    }

    /**
     * A variant is laid over spec.server field by field: a schema default in a variant's own field would replace the
     * server's value with the default. Only the fields of the reused types that are whole objects may have them.
     */
    @Test
    void aVariantsOwnFieldsHaveNoDefaults() {
        JSONSchemaProps variant = property(SERVING_EXPERIMENT, "spec.variants[*]");
        assertThat(variant.getProperties())
                .allSatisfy((name, field) -> assertThat(field.getDefault())
                        .as("default of spec.variants[*]." + name)
                        .isNull());
        assertThat(property(SERVING_EXPERIMENT, "spec.variants[*].resources.memory")
                        .getDefault())
                .isNull();
    }

    /**
     * spec.benchmark is the BenchmarkRun's spec without what the experiment sets itself (target, baseline, reference,
     * the readiness wait) and without its immutability rule, which the experiment states per field: one class, so the
     * two kinds cannot drift apart.
     */
    @Test
    @SuppressWarnings("unchecked")
    void theExperimentsBenchmarkIsTheBenchmarkRunsPlan() {
        Map<String, Object> run = JSON.convertValue(property(BENCHMARK_RUN, "spec"), Map.class);
        ((Map<String, Object>) run.get("properties"))
                .keySet()
                .removeAll(List.of("target", "waitTimeoutSeconds", "baseline", "reference", "retention"));
        ((List<Map<String, Object>>) run.get("x-kubernetes-validations"))
                .removeIf(rule -> rule.get("rule").equals("self == oldSelf")
                        || rule.get("rule").toString().contains("self.retention"));
        Map<String, Object> benchmark = JSON.convertValue(property(SERVING_EXPERIMENT, "spec.benchmark"), Map.class);
        for (Map<String, Object> schema : List.of(run, benchmark)) {
            schema.remove("description");
            schema.remove("required");
        }

        assertThat(benchmark).isEqualTo(run);
    }

    /**
     * A default only in Java is invisible to kubectl and to every other client; one only in the schema is lost on a
     * missing parent.
     */
    @ParameterizedTest
    @ValueSource(strings = {"ModelServer", "BenchmarkRun", "ServingExperiment"})
    void javaFieldDefaultsAndSchemaDefaultsAgree(String kind) {
        Object javaSpec = switch (kind) {
            case "ModelServer" -> new ModelServerSpec();
            case "BenchmarkRun" -> new BenchmarkRunSpec();
            default -> new ServingExperimentSpec();
        };
        Object javaDefaults = JSON.convertValue(javaSpec, Map.class);
        List<String> disagreements = new ArrayList<>();
        compareDefaults(property(CrdValidator.forKind(kind), "spec"), javaDefaults, "spec", disagreements);
        assertThat(disagreements).isEmpty();
    }

    /** Spelled out: renaming a Java constant changes the API, and stored objects and clients still use the old name. */
    @Test
    void enums() {
        assertThat(enumAt(BENCHMARK_RUN, "status.phase"))
                .containsExactlyInAnyOrder("Pending", "WaitingForServer", "Running", "Succeeded", "Failed");
        assertThat(enumAt(MODEL_SERVER, "status.phase"))
                .containsExactlyInAnyOrder("Pending", "Scheduling", "Loading", "Ready", "Degraded", "Failed");
        assertThat(enumAt(BENCHMARK_RUN, "spec.dataset.type"))
                .containsExactly("Prompts", "Random", "Sessions", "ShareGPT", "SharedPrefix", "Trace");
        assertThat(enumAt(BENCHMARK_RUN, "spec.sweep.arrival")).containsExactlyInAnyOrder("Constant", "Poisson");
        assertThat(enumAt(BENCHMARK_RUN, "spec.capacity.mode")).containsExactlyInAnyOrder("Concurrency", "Rate");
        assertThat(enumAt(BENCHMARK_RUN, "status.capacity.mode")).containsExactlyInAnyOrder("Concurrency", "Rate");
        assertThat(enumAt(BENCHMARK_RUN, "status.capacity.outcome"))
                .containsExactlyInAnyOrder("Found", "BudgetExhausted", "NeverMet");
        assertThat(enumAt(SERVING_EXPERIMENT, "spec.objective.type"))
                .containsExactlyInAnyOrder("Capacity", "Throughput", "TPOT");
        assertThat(enumAt(SERVING_EXPERIMENT, "status.phase"))
                .containsExactlyInAnyOrder("Pending", "Running", "Succeeded", "Incomplete", "Failed");
        assertThat(enumAt(SERVING_EXPERIMENT, "status.variants[*].phase"))
                .containsExactlyInAnyOrder("Pending", "Deploying", "Benchmarking", "Succeeded", "Failed", "Skipped");
    }

    @Test
    void namesCategoryScopeAndStatusSubresource() {
        assertThat(MODEL_SERVER.crd().getSpec().getNames().getShortNames()).containsExactly("ms");
        assertThat(BENCHMARK_RUN.crd().getSpec().getNames().getShortNames()).containsExactly("br");
        assertThat(SERVING_EXPERIMENT.crd().getSpec().getNames().getShortNames())
                .containsExactly("sx");
        for (CrdValidator validator : List.of(MODEL_SERVER, BENCHMARK_RUN, SERVING_EXPERIMENT)) {
            CustomResourceDefinition crd = validator.crd();
            assertThat(crd.getSpec().getGroup()).isEqualTo(ApiGroup.GROUP);
            assertThat(crd.getSpec().getNames().getCategories()).containsExactly(ApiGroup.CATEGORY);
            assertThat(crd.getSpec().getScope()).isEqualTo("Namespaced");
            CustomResourceDefinitionVersion version = onlyVersion(validator);
            assertThat(version.getName()).isEqualTo(ApiGroup.VERSION);
            assertThat(version.getServed()).isTrue();
            assertThat(version.getStorage()).isTrue();
            assertThat(version.getSubresources().getStatus())
                    .as("status subresource")
                    .isNotNull();
        }
    }

    @Test
    void printerColumnsInDeclaredOrder() {
        assertThat(onlyVersion(MODEL_SERVER).getAdditionalPrinterColumns())
                .extracting(CustomResourceColumnDefinition::getName)
                .containsExactly("Model", "GPUs", "Phase", "Ready", "Reason", "Endpoint", "Age");
        assertThat(onlyVersion(BENCHMARK_RUN).getAdditionalPrinterColumns())
                .extracting(CustomResourceColumnDefinition::getName)
                .containsExactly(
                        "Target",
                        "Phase",
                        "Progress",
                        "Single tok/s",
                        "Peak tok/s",
                        "At Conc",
                        "Capacity",
                        "Speedup",
                        "Quality",
                        "Reason",
                        "Age");
        assertThat(onlyVersion(SERVING_EXPERIMENT).getAdditionalPrinterColumns())
                .extracting(CustomResourceColumnDefinition::getName)
                .containsExactly("Phase", "Progress", "Winner", "Speedup", "Age");
    }

    /** kubectl prints {@code <none>} for a column whose path is misspelled; nothing else would notice. */
    @ParameterizedTest
    @ValueSource(strings = {"ModelServer", "BenchmarkRun", "ServingExperiment"})
    void everyPrinterColumnPointsAtAFieldOfItsType(String kind) {
        CrdValidator validator = CrdValidator.forKind(kind);
        for (CustomResourceColumnDefinition column : onlyVersion(validator).getAdditionalPrinterColumns()) {
            if (column.getJsonPath().equals(".metadata.creationTimestamp")) {
                continue;
            }
            JSONSchemaProps field = property(validator, column.getJsonPath().substring(1));
            assertThat(field)
                    .as(column.getName() + " -> " + column.getJsonPath())
                    .isNotNull();
            assertThat(field.getType()).as(column.getName()).isEqualTo(column.getType());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"ModelServer", "BenchmarkRun", "ServingExperiment"})
    void everyDefaultPassesItsOwnSchemaAndRules(String kind) {
        assertThat(CrdValidator.forKind(kind).validateDefaults()).isEmpty();
    }

    @Test
    void theRulesTheBriefNamesArePresent() {
        assertThat(rulesAt(BENCHMARK_RUN, "spec")).contains("self == oldSelf", "!has(self.capacity) || has(self.slo)");
        assertThat(rulesAt(BENCHMARK_RUN, "spec.sweep.concurrency"))
                .containsExactly("self.all(c, c >= 1 && c <= 4096)", "self.all(c, self.exists_one(d, d == c))");
        assertThat(rulesAt(BENCHMARK_RUN, "spec.target")).hasSize(4);
        assertThat(BENCHMARK_RUN
                        .crd()
                        .getSpec()
                        .getVersions()
                        .get(0)
                        .getSchema()
                        .getOpenAPIV3Schema()
                        .getXKubernetesValidations())
                .extracting(ValidationRule::getFieldPath)
                .as("rules that read metadata.name, at the resource root")
                .containsExactly(".spec.baseline", ".spec.reference.name");
        assertThat(rulesAt(BENCHMARK_RUN, "spec.dataset")).hasSize(5);
        assertThat(rulesAt(BENCHMARK_RUN, "spec.dataset.shareGpt")).hasSize(2);
        assertThat(rulesAt(BENCHMARK_RUN, "spec.dataset.trace")).hasSize(3);
        assertThat(rulesAt(BENCHMARK_RUN, "spec.sweep")).hasSize(2);
        assertThat(rulesAt(BENCHMARK_RUN, "spec.slo")).hasSize(2);
        assertThat(rulesAt(MODEL_SERVER, "spec")).hasSize(3);
        assertThat(rulesAt(MODEL_SERVER, "spec.parallelism")).hasSize(3);
        assertThat(rulesAt(MODEL_SERVER, "spec.speculativeDecoding")).hasSize(3);
        assertThat(rulesAt(MODEL_SERVER, "spec.modelCache")).hasSize(2);
        assertThat(rulesAt(MODEL_SERVER, "spec.accelerator.computeMajor")).containsExactly("self == 10 || self == 12");
        assertThat(SERVING_EXPERIMENT
                        .crd()
                        .getSpec()
                        .getVersions()
                        .get(0)
                        .getSchema()
                        .getOpenAPIV3Schema()
                        .getXKubernetesValidations())
                .extracting(ValidationRule::getFieldPath)
                .as("the rule that reads metadata.name, at the resource root")
                .containsExactly(".spec.variants");
        assertThat(rulesAt(SERVING_EXPERIMENT, "spec")).hasSize(13);
        assertThat(rulesAt(SERVING_EXPERIMENT, "spec.variants"))
                .containsExactly("self.all(v, self.exists_one(w, w.name == v.name))");
        assertThat(rulesAt(SERVING_EXPERIMENT, "spec.variants[*].env")).hasSize(2);
        assertThat(rulesAt(SERVING_EXPERIMENT, "spec.objective")).hasSize(1);
    }

    /**
     * Every field of a ServingExperiment's spec but maxDurationMinutes and keepWinner has a transition rule that
     * refuses to change it, at the spec so that adding or removing an optional field counts, naming the field.
     */
    @Test
    void aServingExperimentIsImmutableButForItsBudgetAndKeepWinner() {
        List<ValidationRule> transitionRules = rules(property(SERVING_EXPERIMENT, "spec")).stream()
                .filter(rule -> rule.getRule().contains("oldSelf"))
                .toList();
        assertThat(transitionRules)
                .allSatisfy(rule ->
                        assertThat(rule.getMessage()).startsWith("spec" + rule.getFieldPath() + " is immutable"));
        List<String> guarded = transitionRules.stream()
                .map(rule -> rule.getFieldPath().substring(1))
                .toList();

        List<String> fields = new ArrayList<>(
                property(SERVING_EXPERIMENT, "spec").getProperties().keySet());
        fields.removeAll(List.of("maxDurationMinutes", "keepWinner"));
        assertThat(guarded).containsExactlyInAnyOrderElementsOf(fields);
    }

    /** The experiment's own status fields are bounded, so a status of 16 variants stays far below an object's limit. */
    @Test
    void theExperimentsOwnStatusListsAndStringsAreBounded() {
        for (String path : List.of("status", "status.variants[*]", "status.winner")) {
            property(SERVING_EXPERIMENT, path).getProperties().forEach((name, field) -> {
                if ("array".equals(field.getType())) {
                    assertThat(field.getMaxItems())
                            .as("maxItems of " + path + "." + name)
                            .isNotNull();
                }
                if ("string".equals(field.getType()) && field.getEnum() == null) {
                    assertThat(field.getMaxLength())
                            .as("maxLength of " + path + "." + name)
                            .isNotNull();
                }
            });
        }
    }

    /** Users see only the message: every rule has one, and it names the field it is about. */
    @ParameterizedTest
    @ValueSource(strings = {"ModelServer", "BenchmarkRun", "ServingExperiment"})
    void everyRuleHasAMessageNamingItsField(String kind) {
        forEachSchema(onlyVersion(CrdValidator.forKind(kind)).getSchema().getOpenAPIV3Schema(), "", (path, schema) -> {
            for (ValidationRule rule : rules(schema)) {
                assertThat(rule.getMessage())
                        .as("message of " + rule.getRule() + " at " + path)
                        .isNotBlank()
                        .contains(pathInOwnKind(path));
            }
        });
    }

    /** The path a rule's message names: inside a type another kind owns, the path in that kind. */
    private static String pathInOwnKind(String path) {
        return REUSED_TYPES.entrySet().stream()
                .filter(reused -> path.equals(reused.getKey()) || path.startsWith(reused.getKey() + "."))
                .map(reused ->
                        reused.getValue() + path.substring(reused.getKey().length()))
                .findFirst()
                .orElse(path);
    }

    /**
     * The API server refuses a CRD whose rules' estimated cost is over budget; a rule that iterates a list or map is
     * estimated by that list's declared bound (without one, from the 3 MiB request limit: far over budget). Object
     * equality such as {@code self == oldSelf} is estimated by the top-level field count only, so it needs no bound.
     */
    @ParameterizedTest
    @ValueSource(strings = {"ModelServer", "BenchmarkRun", "ServingExperiment"})
    void everyListOrMapWithRulesIsBounded(String kind) {
        forEachSchema(onlyVersion(CrdValidator.forKind(kind)).getSchema().getOpenAPIV3Schema(), "", (path, schema) -> {
            if (rules(schema).isEmpty()) {
                return;
            }
            if ("array".equals(schema.getType())) {
                assertThat(schema.getMaxItems()).as("maxItems of " + path).isNotNull();
            }
            if (schema.getAdditionalProperties() != null
                    && schema.getAdditionalProperties().getSchema() != null) {
                assertThat(schema.getMaxProperties())
                        .as("maxProperties of " + path)
                        .isNotNull();
            }
            if ("string".equals(schema.getType())) {
                assertThat(schema.getMaxLength()).as("maxLength of " + path).isNotNull();
            }
        });
    }

    private static void compareDefaults(
            JSONSchemaProps schema, Object javaValue, String path, List<String> disagreements) {
        if (schema.getDefault() != null) {
            Object schemaDefault = JSON.convertValue(schema.getDefault(), Object.class);
            if (!schemaDefault.equals(javaValue)) {
                disagreements.add(path + ": schema default " + schemaDefault + ", Java default " + javaValue);
            }
        } else if (javaValue != null
                && !(javaValue instanceof Map)
                && !(javaValue instanceof List<?> list && list.isEmpty())) {
            disagreements.add(path + ": Java default " + javaValue + " has no schema default");
        }
        if (javaValue instanceof Map<?, ?> javaObject && schema.getProperties() != null) {
            schema.getProperties()
                    .forEach((name, child) ->
                            compareDefaults(child, javaObject.get(name), path + "." + name, disagreements));
        }
    }

    private static void forEachSchema(
            JSONSchemaProps schema, String path, BiConsumer<String, JSONSchemaProps> visitor) {
        visitor.accept(path, schema);
        if (schema.getProperties() != null) {
            schema.getProperties()
                    .forEach((name, child) -> forEachSchema(child, path.isEmpty() ? name : path + "." + name, visitor));
        }
        if (schema.getItems() != null && schema.getItems().getSchema() != null) {
            forEachSchema(schema.getItems().getSchema(), path + "[*]", visitor);
        }
        if (schema.getAdditionalProperties() != null
                && schema.getAdditionalProperties().getSchema() != null) {
            forEachSchema(schema.getAdditionalProperties().getSchema(), path + "[*]", visitor);
        }
    }

    private static List<ValidationRule> rules(JSONSchemaProps schema) {
        return schema.getXKubernetesValidations() == null ? List.of() : schema.getXKubernetesValidations();
    }

    private static List<String> rulesAt(CrdValidator validator, String path) {
        return rules(property(validator, path)).stream()
                .map(ValidationRule::getRule)
                .toList();
    }

    private static Object defaultAt(CrdValidator validator, String path) {
        JSONSchemaProps property = property(validator, path);
        assertThat(property.getDefault()).as("default of " + path).isNotNull();
        return JSON.convertValue(property.getDefault(), Object.class);
    }

    private static List<String> enumAt(CrdValidator validator, String path) {
        return property(validator, path).getEnum().stream()
                .map(node -> node.asText())
                .toList();
    }

    private static JSONSchemaProps property(CrdValidator validator, String path) {
        JSONSchemaProps schema = onlyVersion(validator).getSchema().getOpenAPIV3Schema();
        String anyFilterAsItems = path.replaceAll("\\[\\?\\(@\\.[^)]*\\)]", "[*]");
        for (String name : anyFilterAsItems.split("\\.")) {
            boolean item = name.endsWith("[*]");
            String field = item ? name.substring(0, name.length() - "[*]".length()) : name;
            if (schema.getProperties() == null || !schema.getProperties().containsKey(field)) {
                fail("no field " + path + " in the "
                        + validator.crd().getSpec().getNames().getKind() + " schema");
            }
            schema = schema.getProperties().get(field);
            if (item) {
                schema = schema.getItems().getSchema();
            }
        }
        return schema;
    }

    private static CustomResourceDefinitionVersion onlyVersion(CrdValidator validator) {
        assertThat(validator.crd().getSpec().getVersions()).hasSize(1);
        return validator.crd().getSpec().getVersions().get(0);
    }
}
