package dev.llmops.serving.operator.crd;

import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The x-kubernetes-validations rules of a CRD schema, type-checked against the schema and compiled with a real CEL
 * implementation, the way the API server compiles them when the CRD is created: the standard functions and macros, and
 * the strings extension the API server offers too (substring, indexOf, ...).
 */
final class CelRules {

    /** One compiled rule; a transition rule (one that reads {@code oldSelf}) only runs on updates. */
    record Compiled(ValidationRule rule, CelRuntime.Program program, boolean transition) {

        boolean holds(Object self, Object oldSelf) throws CelEvaluationException {
            Map<String, Object> activation = new HashMap<>();
            activation.put("self", self);
            if (transition) {
                activation.put("oldSelf", oldSelf);
            }
            return Boolean.TRUE.equals(program.eval(activation));
        }
    }

    /** The resource root's path; its rules may read metadata.name and metadata.generateName, and nothing else of it. */
    private static final String ROOT = "self";
    /**
     * Prefix of the object types' names: a type named like a field selection ({@code self.spec}) would shadow it.
     */
    private static final String TYPE_PREFIX = "schema.";

    private final Map<JSONSchemaProps, List<Compiled>> rulesBySchema = new IdentityHashMap<>();
    private final Map<String, StructType> structs = new LinkedHashMap<>();
    private final CelRuntime runtime = CelRuntimeFactory.standardCelRuntimeBuilder()
            .addLibraries(CelExtensions.strings())
            .build();

    /**
     * Compiles every rule below {@code root}; throws if one does not compile, as the API server would reject the CRD.
     */
    CelRules(JSONSchemaProps root) {
        compileAll(root, ROOT);
    }

    List<Compiled> at(JSONSchemaProps schema) {
        return rulesBySchema.getOrDefault(schema, List.of());
    }

    /**
     * Converts a JSON value to what CEL sees for the given schema: integers as int, numbers as double, objects as maps.
     */
    static Object celValue(Object value, JSONSchemaProps schema) {
        if (value == null || schema == null) {
            return value;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> converted = new LinkedHashMap<>();
            map.forEach((key, child) ->
                    converted.put((String) key, celValue(child, childSchema(schema, (String) key))));
            return converted;
        }
        if (value instanceof List<?> list) {
            JSONSchemaProps items =
                    schema.getItems() == null ? null : schema.getItems().getSchema();
            return list.stream().map(item -> celValue(item, items)).toList();
        }
        if ("number".equals(schema.getType()) && value instanceof Number number) {
            return number.doubleValue();
        }
        return value;
    }

    static JSONSchemaProps childSchema(JSONSchemaProps object, String key) {
        if (object.getProperties() != null && object.getProperties().containsKey(key)) {
            return object.getProperties().get(key);
        }
        return object.getAdditionalProperties() == null
                ? null
                : object.getAdditionalProperties().getSchema();
    }

    private void compileAll(JSONSchemaProps schema, String path) {
        List<ValidationRule> rules = schema.getXKubernetesValidations();
        if (rules != null && !rules.isEmpty()) {
            CelType selfType = celType(schema, path);
            CelCompiler compiler = CelCompilerFactory.standardCelCompilerBuilder()
                    .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
                    .addLibraries(CelExtensions.strings())
                    .setTypeProvider(new StructTypes())
                    .addVar("self", selfType)
                    .addVar("oldSelf", selfType)
                    .setResultType(SimpleType.BOOL)
                    .build();
            List<Compiled> compiled = new ArrayList<>();
            for (ValidationRule rule : rules) {
                compiled.add(compile(compiler, rule, schema, path));
            }
            rulesBySchema.put(schema, compiled);
        }
        if (schema.getProperties() != null) {
            schema.getProperties().forEach((name, child) -> compileAll(child, path + "." + name));
        }
        if (schema.getItems() != null && schema.getItems().getSchema() != null) {
            compileAll(schema.getItems().getSchema(), path + ".@items");
        }
        if (schema.getAdditionalProperties() != null
                && schema.getAdditionalProperties().getSchema() != null) {
            compileAll(schema.getAdditionalProperties().getSchema(), path + ".@values");
        }
    }

    /** The only reasons the API server accepts on a rule; it rejects a CRD naming another. */
    private static final java.util.Set<String> SUPPORTED_REASONS =
            java.util.Set.of("FieldValueInvalid", "FieldValueForbidden", "FieldValueRequired", "FieldValueDuplicate");

    private Compiled compile(CelCompiler compiler, ValidationRule rule, JSONSchemaProps schema, String path) {
        if (rule.getFieldPath() != null) {
            requireFieldPath(schema, rule.getFieldPath(), path);
        }
        if (rule.getReason() != null && !SUPPORTED_REASONS.contains(rule.getReason())) {
            throw new IllegalStateException("reason " + rule.getReason() + " of a rule at " + path
                    + " is not one the API server accepts: " + SUPPORTED_REASONS);
        }
        try {
            CelAbstractSyntaxTree ast = compiler.compile(rule.getRule()).getAst();
            boolean transition =
                    ast.getReferenceMap().values().stream().anyMatch(reference -> "oldSelf".equals(reference.name()));
            return new Compiled(rule, runtime.createProgram(ast), transition);
        } catch (CelValidationException | CelEvaluationException e) {
            throw new IllegalStateException(
                    "rule at " + path + " does not compile: " + rule.getRule() + "\n" + e.getMessage(), e);
        }
    }

    /** The API server rejects a CRD whose rule names a fieldPath that is not in the schema. */
    private static void requireFieldPath(JSONSchemaProps schema, String fieldPath, String path) {
        JSONSchemaProps current = fieldPath.startsWith(".") ? schema : null;
        for (String name : fieldPath.substring(1).split("\\.")) {
            current = current == null || current.getProperties() == null
                    ? null
                    : current.getProperties().get(name);
        }
        if (current == null) {
            throw new IllegalStateException(
                    "fieldPath " + fieldPath + " of a rule at " + path + " is not a field of the schema");
        }
    }

    /** The CEL type the API server declares for a schema: objects with properties become object types. */
    private CelType celType(JSONSchemaProps schema, String path) {
        if (Boolean.TRUE.equals(schema.getXKubernetesIntOrString()) || schema.getType() == null) {
            return SimpleType.DYN;
        }
        return switch (schema.getType()) {
            case "string" -> SimpleType.STRING;
            case "integer" -> SimpleType.INT;
            case "number" -> SimpleType.DOUBLE;
            case "boolean" -> SimpleType.BOOL;
            case "array" -> ListType.create(celType(schema.getItems().getSchema(), path + ".@items"));
            case "object" -> objectType(schema, path);
            default -> throw new IllegalStateException("unknown schema type " + schema.getType() + " at " + path);
        };
    }

    private CelType objectType(JSONSchemaProps schema, String path) {
        if (schema.getAdditionalProperties() != null
                && schema.getAdditionalProperties().getSchema() != null) {
            return MapType.create(
                    SimpleType.STRING, celType(schema.getAdditionalProperties().getSchema(), path + ".@values"));
        }
        if (Boolean.TRUE.equals(schema.getXKubernetesPreserveUnknownFields())) {
            return MapType.create(SimpleType.STRING, SimpleType.DYN);
        }
        Map<String, CelType> fields = new LinkedHashMap<>();
        if (schema.getProperties() != null) {
            schema.getProperties().forEach((name, child) -> fields.put(name, celType(child, path + "." + name)));
        }
        if (ROOT.equals(path)) {
            fields.put(
                    "metadata",
                    struct(path + ".metadata", Map.of("name", SimpleType.STRING, "generateName", SimpleType.STRING)));
        }
        return struct(path, fields);
    }

    private StructType struct(String path, Map<String, CelType> fields) {
        StructType struct = StructType.create(
                TYPE_PREFIX + path,
                ImmutableSet.copyOf(fields.keySet()),
                name -> Optional.ofNullable(fields.get(name)));
        structs.put(struct.name(), struct);
        return struct;
    }

    /** Lets the type checker resolve the object types declared above by name. */
    private final class StructTypes implements CelTypeProvider {
        @Override
        public ImmutableCollection<CelType> types() {
            return ImmutableList.copyOf(structs.values());
        }

        @Override
        public Optional<CelType> findType(String typeName) {
            return Optional.ofNullable(structs.get(typeName));
        }
    }
}
