package dev.llmops.serving.modelserver;

import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.ModelServer;
import java.util.LinkedHashMap;
import java.util.Map;

/** The labels and names of everything a ModelServer owns, spelled once so selectors and objects always agree. */
public final class ModelServerLabels {

    public static final String APP_NAME = "sglang";

    private ModelServerLabels() {}

    /** Labels on every owned object. */
    public static Map<String, String> common(ModelServer server) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(Labels.NAME, APP_NAME);
        labels.put(Labels.INSTANCE, server.getMetadata().getName());
        labels.put(Labels.MANAGED_BY, Labels.OPERATOR);
        labels.put(Labels.PART_OF, "llm-serving");
        labels.put(Labels.MODEL_SERVER, server.getMetadata().getName());
        return labels;
    }

    /** Labels of a pod in the given role (server or worker). */
    public static Map<String, String> pod(ModelServer server, String role) {
        Map<String, String> labels = common(server);
        labels.put(Labels.COMPONENT, role);
        return labels;
    }

    /** The stable subset that selects the serving pods of one ModelServer (Deployment and Service selectors). */
    public static Map<String, String> serverSelector(ModelServer server) {
        return Map.of(
                Labels.NAME,
                APP_NAME,
                Labels.INSTANCE,
                server.getMetadata().getName(),
                Labels.COMPONENT,
                Labels.SERVER);
    }

    public static String modelCacheClaimName(ModelServer server) {
        return server.getMetadata().getName() + "-model-cache";
    }
}
