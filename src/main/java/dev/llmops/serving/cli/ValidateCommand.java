package dev.llmops.serving.cli;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.llmops.serving.api.v1alpha1.ApiGroup;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import dev.llmops.serving.common.options.FileOptions;
import dev.llmops.serving.operator.compatibility.CompatibilityCheck;
import dev.llmops.serving.operator.compatibility.CompatibilityTable;
import dev.llmops.serving.operator.config.OperatorConfig;
import dev.llmops.serving.operator.experiment.VariantObjects;
import io.smallrye.config.WithDefault;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Checks ModelServer manifests, and each variant of a ServingExperiment, against the compatibility table before they
 * are applied, as the operator would before scheduling, so a user or a GitOps pipeline learns of a configuration that
 * cannot run on its GPUs in a second, not after an hour of weight loading.
 */
@Command(
        name = "validate",
        mixinStandardHelpOptions = true,
        description = {
            "Check ModelServer manifests, and each variant of a ServingExperiment, (YAML or JSON, several documents per"
                    + " file) against the rules for configurations known not to run on their GPUs, and print each"
                    + " rule broken with its fix.",
            "Other kinds are passed over. Exit codes: 0 no rule broken, 1 a rule broken, 2 unreadable input.",
            "  llm-serving-operator validate deploy/examples/*.yaml"
        })
public class ValidateCommand implements Callable<Integer> {

    static final int RULE_BROKEN = 1;
    static final int UNREADABLE = 2;
    static final long MAX_FILE_BYTES = 4L * 1024 * 1024;
    static final int MAX_DOCUMENTS = 1000;

    private final ObjectMapper yaml =
            new ObjectMapper(new YAMLFactory()).disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private final CompatibilityCheck check = new CompatibilityCheck(CompatibilityTable.bundled());

    @Spec
    CommandSpec spec;

    @Parameters(
            arity = "1..*",
            paramLabel = "FILE",
            converter = FileOptions.Readable.class,
            description = "Manifests to check.")
    List<Path> files = new ArrayList<>();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String defaultImage = defaultImage();
        boolean broken = false;
        boolean unreadable = false;
        for (Path file : files) {
            List<JsonNode> documents;
            try {
                documents = documents(file);
            } catch (IOException | IllegalArgumentException e) {
                err.println("validate: " + file + ": " + e.getMessage());
                unreadable = true;
                continue;
            }
            for (JsonNode document : documents) {
                String kind = document.path("kind").asText("");
                String name = document.path("metadata").path("name").asText("(no name)");
                boolean ours = document.path("apiVersion").asText("").startsWith(ApiGroup.GROUP + "/");
                Map<String, ModelServer> servers;
                try {
                    if (ours && "ModelServer".equals(kind)) {
                        servers = Map.of("ModelServer " + name, yaml.treeToValue(document, ModelServer.class));
                    } else if (ours && "ServingExperiment".equals(kind)) {
                        servers = variantServers(name, yaml.treeToValue(document, ServingExperiment.class));
                    } else {
                        out.printf(
                                "%s: %s %s: neither a ModelServer nor a ServingExperiment, passed over%n",
                                file, kind.isEmpty() ? "?" : kind, name);
                        continue;
                    }
                } catch (IOException | RuntimeException e) {
                    err.println("validate: " + file + ": " + kind + " " + name + " does not match its schema: "
                            + e.getMessage());
                    unreadable = true;
                    continue;
                }
                for (Map.Entry<String, ModelServer> server : servers.entrySet()) {
                    broken |= report(out, file, server.getKey(), server.getValue(), defaultImage);
                }
            }
        }
        return unreadable ? UNREADABLE : broken ? RULE_BROKEN : 0;
    }

    /** An experiment's variants, each as the ModelServer it would deploy: spec.server with the variant laid over it. */
    private static Map<String, ModelServer> variantServers(String name, ServingExperiment experiment) {
        if (experiment.getSpec() == null || experiment.getSpec().server == null) {
            throw new IllegalArgumentException("spec.server is missing");
        }
        Map<String, ModelServer> servers = new LinkedHashMap<>();
        VariantObjects.servers(experiment)
                .forEach((variant, server) -> servers.put("ServingExperiment " + name + " variant " + variant, server));
        return servers;
    }

    private boolean report(PrintWriter out, Path file, String name, ModelServer server, String defaultImage) {
        String image = server.getSpec().image == null ? defaultImage : server.getSpec().image;
        CompatibilityCheck.Result result = check.check(server, image);
        if (result.breaches().isEmpty()) {
            out.printf("%s: %s: no compatibility rule broken%s%n", file, name, allowed(result));
            return false;
        }
        out.printf(
                "%s: %s: breaks %d compatibility rule%s%s%n",
                file, name, result.breaches().size(), result.breaches().size() == 1 ? "" : "s", allowed(result));
        for (CompatibilityCheck.Breach breach : result.breaches()) {
            out.printf(
                    "  %s: %s %s: %s%n",
                    breach.rule().name(),
                    breach.matched(),
                    breach.where(),
                    breach.rule().message());
            out.printf("    fix: %s%n", breach.rule().fix());
            out.printf("    source: %s%n", breach.rule().source());
        }
        out.printf("  to override a rule: annotation %s: RULE[,RULE]%n", CompatibilityCheck.ALLOW_ANNOTATION);
        return true;
    }

    private static String allowed(CompatibilityCheck.Result result) {
        return result.allowed().isEmpty()
                ? ""
                : " (allowed by " + CompatibilityCheck.ALLOW_ANNOTATION + ": " + String.join(", ", result.allowed())
                        + ")";
    }

    private List<JsonNode> documents(Path file) throws IOException {
        if (Files.size(file) > MAX_FILE_BYTES) {
            throw new IllegalArgumentException("larger than " + MAX_FILE_BYTES / (1024 * 1024) + " MiB");
        }
        List<JsonNode> documents = new ArrayList<>();
        try (MappingIterator<JsonNode> parsed = yaml.readerFor(JsonNode.class).readValues(file.toFile())) {
            while (parsed.hasNextValue()) {
                JsonNode document = parsed.nextValue();
                if (document == null || document.isNull() || document.isMissingNode()) {
                    continue;
                }
                if (!document.isObject()) {
                    throw new IllegalArgumentException("a document is a "
                            + document.getNodeType().name().toLowerCase(Locale.ROOT) + ", not a Kubernetes object");
                }
                if (documents.size() == MAX_DOCUMENTS) {
                    throw new IllegalArgumentException("more than " + MAX_DOCUMENTS + " documents");
                }
                documents.add(document);
            }
        } catch (JacksonException e) {
            throw new IllegalArgumentException("not YAML or JSON: " + e.getOriginalMessage(), e);
        }
        return documents;
    }

    /** The operator's default SGLang image, for a ModelServer that names none, read from its configuration. */
    static String defaultImage() {
        try {
            return OperatorConfig.Sglang.class
                    .getMethod("image")
                    .getAnnotation(WithDefault.class)
                    .value();
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("OperatorConfig.Sglang has no image()", e);
        }
    }
}
