package dev.llmops.serving.operator.crd;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.google.re2j.Pattern;
import dev.cel.runtime.CelEvaluationException;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Validates a manifest against a CRD offline, in the order the API server does on create and update: drop nulls,
 * apply the schema defaults, check the OpenAPI schema (reporting unknown fields as strict field validation does), and
 * then, unless a blocking schema error was found, evaluate every x-kubernetes-validations rule with CEL.
 *
 * <p>The schema is walked by hand rather than handed to a JSON Schema library: the walk is needed anyway for
 * defaulting and for binding {@code self}/{@code oldSelf} of each rule, and Kubernetes' structural schemas differ from
 * JSON Schema where it matters here (boolean exclusiveMinimum, int-or-string, RE2 patterns, unknown fields).
 * Not covered: ratcheting of unchanged invalid fields on update, list-type map correlation, messageExpression, metadata
 * validation and the CEL cost budget.
 */
public final class CrdValidator {

    /** Where the committed CRDs live, relative to the project directory tests run in. */
    private static final Path CRD_DIRECTORY = Path.of("deploy/crds");

    private static final ObjectMapper YAML =
            new ObjectMapper(new YAMLFactory()).enable(DeserializationFeature.USE_LONG_FOR_INTS);
    private static final Set<String> RESOURCE_ROOT_FIELDS = Set.of("apiVersion", "kind", "metadata");
    private static final String RULES_NOT_CHECKED =
            "some validation rules were not checked because the object was invalid; correct the existing errors to "
                    + "complete validation";

    private static final Map<String, CrdValidator> BY_KIND = new ConcurrentHashMap<>();

    private final CustomResourceDefinition crd;
    private final JSONSchemaProps schema;
    private final CelRules rules;

    private CrdValidator(CustomResourceDefinition crd) {
        this.crd = crd;
        this.schema = crd.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema();
        this.rules = new CelRules(schema);
    }

    /** The validator of the committed CRD whose kind is {@code kind}, e.g. {@code ModelServer}. */
    public static CrdValidator forKind(String kind) {
        return BY_KIND.computeIfAbsent(kind, CrdValidator::load);
    }

    private static CrdValidator load(String kind) {
        try (Stream<Path> files = Files.list(CRD_DIRECTORY)) {
            return files.sorted()
                    .map(CrdValidator::readCrd)
                    .filter(crd -> kind.equals(crd.getSpec().getNames().getKind()))
                    .findFirst()
                    .map(CrdValidator::new)
                    .orElseThrow(
                            () -> new IllegalArgumentException("no CRD for kind " + kind + " in " + CRD_DIRECTORY));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public CustomResourceDefinition crd() {
        return crd;
    }

    /** Reads the documents of a YAML file into plain maps and lists, with integers as {@code Long}. */
    public static List<Map<String, Object>> readDocuments(Path file) {
        try (MappingIterator<Map<String, Object>> documents =
                YAML.readerFor(Map.class).readValues(file.toFile())) {
            return documents.readAll();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** A copy of {@code manifest} with nulls dropped and schema defaults applied, as the API server stores it. */
    public Map<String, Object> withDefaults(Map<String, Object> manifest) {
        Map<String, Object> copy = deepCopy(manifest);
        applyDefaults(copy, schema);
        return copy;
    }

    /** What the API server would say to creating {@code manifest}; empty when it would accept it. */
    public List<FieldError> validateCreate(Map<String, Object> manifest) {
        return validate(withDefaults(manifest), null);
    }

    /**
     * What the API server would say to replacing {@code oldManifest} with {@code newManifest}; transition rules
     * included.
     */
    public List<FieldError> validateUpdate(Map<String, Object> oldManifest, Map<String, Object> newManifest) {
        return validate(withDefaults(newManifest), withDefaults(oldManifest));
    }

    /**
     * Checks every default in the schema against the schema node it belongs to, rules included: the API server rejects
     * a CRD whose defaults would not validate.
     */
    public List<FieldError> validateDefaults() {
        List<FieldError> errors = new ArrayList<>();
        checkDefaults(schema, "", errors);
        return errors;
    }

    private List<FieldError> validate(Map<String, Object> object, Map<String, Object> old) {
        Walk walk = new Walk();
        walk.checkSchema(object, schema, "", true);
        if (walk.blocked) {
            walk.errors.add(new FieldError(FieldError.NO_FIELD, FieldError.INVALID, null, RULES_NOT_CHECKED));
        } else {
            walk.checkRules(object, old, schema, "");
        }
        return walk.errors;
    }

    private void checkDefaults(JSONSchemaProps node, String path, List<FieldError> errors) {
        if (node.getDefault() != null) {
            Object value = YAML.convertValue(node.getDefault(), Object.class);
            applyDefaults(value, node);
            Walk walk = new Walk();
            walk.checkSchema(value, node, path, false);
            if (!walk.blocked) {
                walk.checkRules(value, null, node, path);
            }
            errors.addAll(walk.errors);
        }
        if (node.getProperties() != null) {
            node.getProperties().forEach((name, child) -> checkDefaults(child, join(path, name), errors));
        }
        if (node.getItems() != null && node.getItems().getSchema() != null) {
            checkDefaults(node.getItems().getSchema(), path + "[*]", errors);
        }
        if (node.getAdditionalProperties() != null
                && node.getAdditionalProperties().getSchema() != null) {
            checkDefaults(node.getAdditionalProperties().getSchema(), path + "[*]", errors);
        }
    }

    @SuppressWarnings("unchecked")
    private static void applyDefaults(Object value, JSONSchemaProps node) {
        if (node == null) {
            return;
        }
        if (value instanceof Map<?, ?> raw) {
            Map<String, Object> object = (Map<String, Object>) raw;
            object.values().removeIf(v -> v == null);
            if (node.getProperties() != null) {
                node.getProperties().forEach((name, property) -> {
                    if (property.getDefault() != null && !object.containsKey(name)) {
                        object.put(name, YAML.convertValue(property.getDefault(), Object.class));
                    }
                });
            }
            object.forEach((key, child) -> applyDefaults(child, CelRules.childSchema(node, key)));
        } else if (value instanceof List<?> list && node.getItems() != null) {
            list.forEach(item -> applyDefaults(item, node.getItems().getSchema()));
        }
    }

    /** The errors of one validation, and whether one of them stops rule evaluation as it does in the API server. */
    private final class Walk {
        final List<FieldError> errors = new ArrayList<>();
        boolean blocked;

        void block(FieldError error) {
            errors.add(error);
            blocked = true;
        }

        void checkSchema(Object value, JSONSchemaProps node, String path, boolean resourceRoot) {
            if (!hasSchemaType(value, node)) {
                block(new FieldError(
                        path,
                        FieldError.INVALID,
                        jsonType(value),
                        path + " in body must be of type " + node.getType() + ": \"" + jsonType(value) + "\""));
                return;
            }
            if (node.getEnum() != null && !node.getEnum().isEmpty()) {
                List<Object> allowed = node.getEnum().stream()
                        .map(v -> YAML.convertValue(v, Object.class))
                        .toList();
                if (!allowed.contains(value)) {
                    block(new FieldError(
                            path,
                            FieldError.UNSUPPORTED,
                            value,
                            "supported values: "
                                    + allowed.stream().map(v -> "\"" + v + "\"").collect(Collectors.joining(", "))));
                }
            }
            if (value instanceof Number number) {
                checkBounds(number.doubleValue(), value, node, path);
            } else if (value instanceof String string) {
                checkString(string, node, path);
            } else if (value instanceof List<?> list) {
                checkList(list, node, path);
            } else if (value instanceof Map<?, ?> map) {
                checkObject(map, node, path, resourceRoot);
            }
        }

        private void checkBounds(double number, Object value, JSONSchemaProps node, String path) {
            Double max = node.getMaximum();
            if (max != null && (Boolean.TRUE.equals(node.getExclusiveMaximum()) ? number >= max : number > max)) {
                errors.add(new FieldError(
                        path,
                        FieldError.INVALID,
                        value,
                        path + " in body should be less than "
                                + (Boolean.TRUE.equals(node.getExclusiveMaximum()) ? "" : "or equal to ")
                                + plain(max)));
            }
            Double min = node.getMinimum();
            if (min != null && (Boolean.TRUE.equals(node.getExclusiveMinimum()) ? number <= min : number < min)) {
                errors.add(new FieldError(
                        path,
                        FieldError.INVALID,
                        value,
                        path + " in body should be greater than "
                                + (Boolean.TRUE.equals(node.getExclusiveMinimum()) ? "" : "or equal to ")
                                + plain(min)));
            }
        }

        private void checkString(String string, JSONSchemaProps node, String path) {
            int length = string.codePointCount(0, string.length());
            if (node.getMaxLength() != null && length > node.getMaxLength()) {
                block(new FieldError(
                        path, FieldError.TOO_LONG, null, "may not be more than " + node.getMaxLength() + " bytes"));
            }
            if (node.getMinLength() != null && length < node.getMinLength()) {
                errors.add(new FieldError(
                        path,
                        FieldError.INVALID,
                        string,
                        path + " in body should be at least " + node.getMinLength() + " chars long"));
            }
            if (node.getPattern() != null
                    && !Pattern.compile(node.getPattern()).matcher(string).find()) {
                errors.add(new FieldError(
                        path, FieldError.INVALID, string, path + " in body should match '" + node.getPattern() + "'"));
            }
        }

        private void checkList(List<?> list, JSONSchemaProps node, String path) {
            if (node.getMaxItems() != null && list.size() > node.getMaxItems()) {
                block(new FieldError(
                        path,
                        FieldError.TOO_MANY,
                        (long) list.size(),
                        "must have at most " + node.getMaxItems() + " items"));
            }
            if (node.getMinItems() != null && list.size() < node.getMinItems()) {
                errors.add(new FieldError(
                        path,
                        FieldError.INVALID,
                        (long) list.size(),
                        path + " in body should have at least " + node.getMinItems() + " items"));
            }
            JSONSchemaProps items =
                    node.getItems() == null ? null : node.getItems().getSchema();
            for (int i = 0; i < list.size() && items != null; i++) {
                checkSchema(list.get(i), items, path + "[" + i + "]", false);
            }
        }

        private void checkObject(Map<?, ?> object, JSONSchemaProps node, String path, boolean resourceRoot) {
            if (node.getRequired() != null) {
                node.getRequired().stream()
                        .filter(name -> !object.containsKey(name))
                        .forEach(name -> block(new FieldError(join(path, name), FieldError.REQUIRED, null, "")));
            }
            boolean preserveUnknown = Boolean.TRUE.equals(node.getXKubernetesPreserveUnknownFields());
            object.forEach((rawKey, child) -> {
                String key = (String) rawKey;
                JSONSchemaProps childSchema = CelRules.childSchema(node, key);
                String childPath = childPath(node, path, key);
                if (childSchema != null) {
                    checkSchema(child, childSchema, childPath, false);
                } else if (!preserveUnknown && !(resourceRoot && RESOURCE_ROOT_FIELDS.contains(key))) {
                    errors.add(new FieldError(childPath, FieldError.UNKNOWN_FIELD, null, ""));
                }
            });
        }

        void checkRules(Object value, Object old, JSONSchemaProps node, String path) {
            if (value == null || node == null) {
                return;
            }
            for (CelRules.Compiled compiled : rules.at(node)) {
                if (compiled.transition() && old == null) {
                    continue;
                }
                evaluate(compiled, value, old, node, path);
            }
            if (value instanceof Map<?, ?> object) {
                Map<?, ?> oldObject = old instanceof Map<?, ?> m ? m : Map.of();
                object.forEach((key, child) -> checkRules(
                        child,
                        oldObject.get(key),
                        CelRules.childSchema(node, (String) key),
                        childPath(node, path, (String) key)));
            } else if (value instanceof List<?> list && node.getItems() != null) {
                for (int i = 0; i < list.size(); i++) {
                    checkRules(list.get(i), null, node.getItems().getSchema(), path + "[" + i + "]");
                }
            }
        }

        private void evaluate(CelRules.Compiled compiled, Object value, Object old, JSONSchemaProps node, String path) {
            String message = compiled.rule().getMessage() == null
                            || compiled.rule().getMessage().isBlank()
                    ? "failed rule: " + compiled.rule().getRule().strip()
                    : compiled.rule().getMessage().strip();
            Object shownValue = value instanceof Map || value instanceof List ? null : value;
            try {
                if (compiled.holds(CelRules.celValue(value, node), CelRules.celValue(old, node))) {
                    return;
                }
            } catch (CelEvaluationException e) {
                errors.add(new FieldError(
                        path, FieldError.INVALID, node.getType(), e.getMessage() + " evaluating rule: " + message));
                return;
            }
            String fieldPath = compiled.rule().getFieldPath();
            // the API server names no field for a rule at the root without a fieldPath
            String field = fieldPath == null
                    ? path.isEmpty() ? FieldError.NO_FIELD : path
                    : path.isEmpty() ? fieldPath.substring(1) : path + fieldPath;
            String reason = compiled.rule().getReason() == null
                    ? "FieldValueInvalid"
                    : compiled.rule().getReason();
            errors.add(
                    switch (reason) {
                        case "FieldValueForbidden" -> new FieldError(field, FieldError.FORBIDDEN, null, message);
                        case "FieldValueRequired" -> new FieldError(field, FieldError.REQUIRED, null, message);
                        case "FieldValueDuplicate" -> new FieldError(field, FieldError.DUPLICATE, shownValue, "");
                        default -> new FieldError(field, FieldError.INVALID, shownValue, message);
                    });
        }
    }

    private static boolean hasSchemaType(Object value, JSONSchemaProps node) {
        if (Boolean.TRUE.equals(node.getXKubernetesIntOrString())) {
            return value instanceof Long || value instanceof Integer || value instanceof String;
        }
        if (node.getType() == null) {
            return true;
        }
        return switch (node.getType()) {
            case "object" -> value instanceof Map;
            case "array" -> value instanceof List;
            case "string" -> value instanceof String;
            case "integer" -> value instanceof Long || value instanceof Integer;
            case "number" -> value instanceof Number;
            case "boolean" -> value instanceof Boolean;
            default -> false;
        };
    }

    private static String jsonType(Object value) {
        if (value instanceof Map) {
            return "object";
        }
        if (value instanceof List) {
            return "array";
        }
        if (value instanceof Long || value instanceof Integer) {
            return "integer";
        }
        if (value instanceof Number) {
            return "number";
        }
        return value instanceof Boolean ? "boolean" : "string";
    }

    private static String plain(double number) {
        return number == Math.rint(number) ? Long.toString((long) number) : Double.toString(number);
    }

    /** {@code spec.model} for a property, {@code spec.runner.nodeSelector[zone]} for a key of a map. */
    private static String childPath(JSONSchemaProps object, String path, String key) {
        boolean property =
                object.getProperties() != null && object.getProperties().containsKey(key);
        return property || object.getAdditionalProperties() == null ? join(path, key) : path + "[" + key + "]";
    }

    private static String join(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> deepCopy(Map<String, Object> manifest) {
        return YAML.convertValue(manifest, LinkedHashMap.class);
    }

    private static CustomResourceDefinition readCrd(Path file) {
        try {
            return YAML.readValue(file.toFile(), CustomResourceDefinition.class);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read CRD " + file, e);
        }
    }
}
