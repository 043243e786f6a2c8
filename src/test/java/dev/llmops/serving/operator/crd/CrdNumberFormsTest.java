package dev.llmops.serving.operator.crd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.DoubleNode;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.common.ScalarStyle;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/**
 * The committed CRDs write numbers as every YAML reader reads them: whole bounds as integers ({@code 86400000}, not
 * {@code 8.64E7} or {@code 1.0}), so YAML 1.1 parsers such as PyYAML, behind many validators and GitOps tools, do not
 * take a bound for a string.
 */
class CrdNumberFormsTest {

    /** Base-10 integers of YAML 1.1 (yaml.org/type/int.html); its octal, hex, binary and sexagesimal forms excluded. */
    private static final Pattern YAML11_INT = Pattern.compile("[-+]?(0|[1-9][0-9_]*)");

    /** Base-10 floats of YAML 1.1 (yaml.org/type/float.html): a dot is required, and an exponent needs its sign. */
    private static final Pattern YAML11_FLOAT = Pattern.compile("[-+]?([0-9][0-9_]*)?\\.[0-9.]*([eE][-+][0-9]+)?");

    private static final Pattern BOUND_LINE =
            Pattern.compile("^\\s*(minimum|maximum|multipleOf|default): (?<value>.+)$", Pattern.MULTILINE);
    private static final Pattern EXPONENT_OR_POINT_ZERO =
            Pattern.compile("[-+]?[0-9]+(\\.[0-9]*)?[eE][-+]?[0-9]+|[-+]?[0-9]+\\.0+");

    private static final Set<String> BOUNDS = Set.of("minimum", "maximum", "multipleOf");
    private static final Set<String> NUMERIC_TYPES = Set.of("integer", "number");

    static Stream<Path> committedCrds() throws IOException {
        List<Path> crds = new ArrayList<>();
        for (Path directory : List.of(CrdDriftTest.COMMITTED, Path.of("helm/llm-serving-operator/crds"))) {
            try (Stream<Path> files = Files.list(directory)) {
                files.filter(f -> f.toString().endsWith(".yml")).sorted().forEach(crds::add);
            }
        }
        assertThat(crds).as("committed CRDs").isNotEmpty();
        return crds.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("committedCrds")
    void noBoundOrDefaultIsWrittenInExponentOrPointZeroForm(Path crd) throws IOException {
        Matcher line = BOUND_LINE.matcher(Files.readString(crd));
        List<String> floatForms = new ArrayList<>();
        int bounds = 0;
        while (line.find()) {
            bounds++;
            if (EXPONENT_OR_POINT_ZERO.matcher(line.group("value")).matches()) {
                floatForms.add(line.group().strip());
            }
        }
        assertThat(bounds).as("bounds and defaults found in %s", crd).isPositive();
        assertThat(floatForms)
                .as("whole numbers in %s must be written as integers", crd)
                .isEmpty();
    }

    /**
     * Every bound, and every default of an integer or number field, is a plain scalar that YAML 1.1 resolves to a
     * number: an int if the field is an integer, an int or a float otherwise.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("committedCrds")
    void everyNumericScalarIsAYaml11Number(Path crd) throws IOException {
        List<String> misread = new ArrayList<>();
        List<String> checked = new ArrayList<>();
        visit(compose(Files.readString(crd)), "", (path, schema) -> {
            String type = scalar(schema.get("type")).orElse("");
            schema.forEach((key, value) -> {
                boolean numericDefault = key.equals("default") && NUMERIC_TYPES.contains(type);
                if (!BOUNDS.contains(key) && !numericDefault) {
                    return;
                }
                String text = value instanceof ScalarNode s && s.getScalarStyle() == ScalarStyle.PLAIN
                        ? s.getValue()
                        : "<not a plain scalar>";
                checked.add(path + "." + key);
                boolean isInt = YAML11_INT.matcher(text).matches();
                boolean readAsTyped = type.equals("integer")
                        ? isInt
                        : isInt || YAML11_FLOAT.matcher(text).matches();
                if (!readAsTyped) {
                    misread.add(path + "." + key + " (" + type + "): " + text);
                }
            });
        });
        assertThat(checked).as("numeric scalars found in %s", crd).isNotEmpty();
        assertThat(misread)
                .as("values in %s that a YAML 1.1 parser does not read as numbers of the field's type", crd)
                .isEmpty();
    }

    /** Through the serialisation the generator writes with, including the decimals no committed CRD holds yet. */
    @Test
    void wholeNumbersBecomeIntegersAndDecimalsStayYaml11FloatsInTheSameFieldOrder() {
        KubernetesSerialization generatorSerialization = new KubernetesSerialization(new ObjectMapper(), false);
        CustomResourceDefinition crd = crdWithProperties(Map.of(
                "timeoutMillis", bounded("integer", 1.0, 8.64e7).build(),
                "percentile", bounded("number", 0.0, 100.0).build(),
                "fraction",
                        bounded("number", 1.0e-7, 0.5)
                                .withDefault(DoubleNode.valueOf(2.0))
                                .build(),
                "tokens", bounded("number", 0.25, 12345678.5).build()));

        String asGenerated = generatorSerialization.asYaml(crd);
        String rewritten = generatorSerialization.asYaml(PortableNumbers.copyOf(crd));

        assertThat(rewritten)
                .isEqualTo(asGenerated
                        .replace("maximum: 8.64E7", "maximum: 86400000")
                        .replace("maximum: 100.0", "maximum: 100")
                        .replace("minimum: 1.0\n", "minimum: 1\n")
                        .replace("minimum: 0.0", "minimum: 0")
                        .replace("default: 2.0", "default: 2")
                        .replace("maximum: 1.23456785E7", "maximum: 12345678.5"))
                .contains("minimum: 1.0E-7", "maximum: 0.5", "minimum: 0.25");
    }

    private static JSONSchemaPropsBuilder bounded(String type, double minimum, double maximum) {
        return new JSONSchemaPropsBuilder().withType(type).withMinimum(minimum).withMaximum(maximum);
    }

    private static CustomResourceDefinition crdWithProperties(Map<String, JSONSchemaProps> properties) {
        return new CustomResourceDefinitionBuilder()
                .withNewMetadata()
                .withName("examples.example.dev")
                .endMetadata()
                .withNewSpec()
                .withGroup("example.dev")
                .addNewVersion()
                .withName("v1")
                .withNewSchema()
                .withNewOpenAPIV3Schema()
                .withType("object")
                .withProperties(new TreeMap<>(properties))
                .endOpenAPIV3Schema()
                .endSchema()
                .endVersion()
                .endSpec()
                .build();
    }

    private static Node compose(String yaml) {
        return new Compose(LoadSettings.builder().build()).composeString(yaml).orElseThrow();
    }

    /** Calls {@code onMapping} with every mapping of the document, by its path, as a map of key to value node. */
    private static void visit(Node node, String path, BiConsumer<String, Map<String, Node>> onMapping) {
        if (node instanceof MappingNode mapping) {
            Map<String, Node> entries = new LinkedHashMap<>();
            for (NodeTuple tuple : mapping.getValue()) {
                scalar(tuple.getKeyNode()).ifPresent(key -> entries.put(key, tuple.getValueNode()));
            }
            onMapping.accept(path, entries);
            entries.forEach((key, value) -> visit(value, path + "." + key, onMapping));
        } else if (node instanceof SequenceNode sequence) {
            for (int i = 0; i < sequence.getValue().size(); i++) {
                visit(sequence.getValue().get(i), path + "[" + i + "]", onMapping);
            }
        }
    }

    private static Optional<String> scalar(Node node) {
        return node instanceof ScalarNode s ? Optional.of(s.getValue()) : Optional.empty();
    }
}
