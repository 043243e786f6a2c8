package dev.llmops.serving.operator.modelserver;

import dev.llmops.serving.api.v1alpha1.DerivedNames;
import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import java.util.LinkedHashMap;
import java.util.Map;

/** The labels and names of everything a ModelServer owns, spelled once so selectors and objects always agree. */
public final class ModelServerLabels {

    public static final String APP_NAME = "sglang";
    static final int LEADER_WORKER_SET_MAX = 40;
    /** Goes before a name that begins with a digit where a name must begin with a letter. */
    private static final String LETTER_PREFIX = "ms-";

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

    /**
     * The Service's name, the host name of the endpoint: the ModelServer's own when it is a DNS-1035 label (most are);
     * else derived from it, since a Service name may hold no dot and, on clusters before Kubernetes 1.34, not begin
     * with a digit.
     */
    public static String serviceName(ModelServer server) {
        return DerivedNames.dns1035Label(server.getMetadata().getName(), LETTER_PREFIX, DerivedNames.LABEL_MAX);
    }

    /**
     * The LeaderWorkerSet's name: it names a headless Service (a DNS-1035 label) and StatefulSets whose pods carry
     * {@code <name>-<group>-<worker>} and a {@code <statefulset>-<hash>} revision label, so it is kept to
     * {@value #LEADER_WORKER_SET_MAX} characters.
     */
    public static String leaderWorkerSetName(ModelServer server) {
        return DerivedNames.dns1035Label(server.getMetadata().getName(), LETTER_PREFIX, LEADER_WORKER_SET_MAX);
    }

    /** The NetworkPolicy that lets the pods of one multi-node server reach each other. */
    public static String replicaNetworkPolicyName(ModelServer server) {
        return DerivedNames.fit(server.getMetadata().getName(), "-replica", DerivedNames.SUBDOMAIN_MAX);
    }

    public static String modelCacheClaimName(ModelServer server) {
        return DerivedNames.fit(server.getMetadata().getName(), "-model-cache", DerivedNames.SUBDOMAIN_MAX);
    }
}
