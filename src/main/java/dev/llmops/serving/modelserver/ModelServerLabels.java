package dev.llmops.serving.modelserver;

import dev.llmops.serving.api.v1alpha1.ApiGroup;
import dev.llmops.serving.api.v1alpha1.ModelServer;
import java.util.LinkedHashMap;
import java.util.Map;

/** The labels and names of everything a ModelServer owns, spelled once so selectors and objects always agree. */
public final class ModelServerLabels {

    public static final String NAME = "app.kubernetes.io/name";
    public static final String INSTANCE = "app.kubernetes.io/instance";
    public static final String COMPONENT = "app.kubernetes.io/component";
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    public static final String PART_OF = "app.kubernetes.io/part-of";
    /** Names the owning ModelServer on pods, whose owner chain runs through a ReplicaSet or StatefulSet. */
    public static final String MODEL_SERVER = ApiGroup.GROUP + "/modelserver";

    public static final String APP_NAME = "sglang";
    public static final String OPERATOR = "llm-serving-operator";
    /** Selects the objects this operator made, so its informers cache those and not the whole cluster's. */
    public static final String OWNED = MANAGED_BY + "=" + OPERATOR;
    /** Pods that serve HTTP: every Deployment pod, and the leader of each LeaderWorkerSet group. */
    public static final String SERVER = "server";
    /** The non-leader pods of a multi-node replica; they join the leader's process group and serve nothing. */
    public static final String WORKER = "worker";

    private ModelServerLabels() {
    }

    /** Labels on every owned object. */
    public static Map<String, String> common(ModelServer server) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(NAME, APP_NAME);
        labels.put(INSTANCE, server.getMetadata().getName());
        labels.put(MANAGED_BY, OPERATOR);
        labels.put(PART_OF, "llm-serving");
        labels.put(MODEL_SERVER, server.getMetadata().getName());
        return labels;
    }

    /** Labels of a pod in the given role (server or worker). */
    public static Map<String, String> pod(ModelServer server, String role) {
        Map<String, String> labels = common(server);
        labels.put(COMPONENT, role);
        return labels;
    }

    /** The stable subset that selects the serving pods of one ModelServer (Deployment and Service selectors). */
    public static Map<String, String> serverSelector(ModelServer server) {
        return Map.of(NAME, APP_NAME, INSTANCE, server.getMetadata().getName(), COMPONENT, SERVER);
    }

    public static String modelCacheClaimName(ModelServer server) {
        return server.getMetadata().getName() + "-model-cache";
    }
}
