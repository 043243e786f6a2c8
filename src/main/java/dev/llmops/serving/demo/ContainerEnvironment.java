package dev.llmops.serving.demo;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a kubelet makes of a container's environment before starting it: literal values, Secret and ConfigMap keys
 * (secretKeyRef, configMapKeyRef), and the {@code $(VAR)} references in its arguments expanded, so a stand-in pod gets
 * the API key its spec only names. A key that cannot be read leaves its variable unset.
 */
final class ContainerEnvironment {

    /** {@code $$} (an escaped dollar) or {@code $(NAME)}, as the kubelet expands them. */
    private static final Pattern REFERENCE = Pattern.compile("\\$\\$|\\$\\(([A-Za-z_][A-Za-z0-9_.-]*)\\)");

    /** A downward-API field that names a key: {@code metadata.annotations['KEY']} or {@code metadata.labels['KEY']}. */
    private static final Pattern KEYED_FIELD = Pattern.compile("^metadata\\.(annotations|labels)\\['([^']+)'\\]$");

    private ContainerEnvironment() {}

    /** The container's variables in the pod's namespace; each may refer to those before it. */
    static Map<String, String> of(KubernetesClient client, Pod pod, Container container) {
        String namespace = pod.getMetadata().getNamespace();
        Map<String, String> env = new LinkedHashMap<>();
        if (container.getEnv() == null) {
            return env;
        }
        for (EnvVar variable : container.getEnv()) {
            String value = variable.getValueFrom() == null
                    ? expand(variable.getValue() == null ? "" : variable.getValue(), env)
                    : valueOf(client, pod, namespace, variable.getValueFrom());
            if (value != null) {
                env.put(variable.getName(), value);
            }
        }
        return env;
    }

    static List<String> expand(List<String> args, Map<String, String> env) {
        return args.stream().map(arg -> expand(arg, env)).toList();
    }

    private static String expand(String text, Map<String, String> env) {
        Matcher matcher = REFERENCE.matcher(text);
        StringBuilder expanded = new StringBuilder();
        while (matcher.find()) {
            String replacement = matcher.group(1) == null ? "$" : env.getOrDefault(matcher.group(1), matcher.group());
            matcher.appendReplacement(expanded, Matcher.quoteReplacement(replacement));
        }
        return matcher.appendTail(expanded).toString();
    }

    private static String valueOf(KubernetesClient client, Pod pod, String namespace, EnvVarSource source) {
        if (source.getFieldRef() != null) {
            return field(pod, source.getFieldRef().getFieldPath());
        }
        if (source.getSecretKeyRef() != null) {
            Secret secret = client.secrets()
                    .inNamespace(namespace)
                    .withName(source.getSecretKeyRef().getName())
                    .get();
            String encoded = secret == null || secret.getData() == null
                    ? null
                    : secret.getData().get(source.getSecretKeyRef().getKey());
            return encoded == null ? null : new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
        }
        if (source.getConfigMapKeyRef() != null) {
            ConfigMap map = client.configMaps()
                    .inNamespace(namespace)
                    .withName(source.getConfigMapKeyRef().getName())
                    .get();
            return map == null || map.getData() == null
                    ? null
                    : map.getData().get(source.getConfigMapKeyRef().getKey());
        }
        return null;
    }

    /**
     * The downward API's {@code metadata.name}, {@code metadata.namespace}, {@code metadata.annotations['KEY']} and
     * {@code metadata.labels['KEY']} of the pod; null for any other field.
     */
    private static String field(Pod pod, String path) {
        Matcher keyed = KEYED_FIELD.matcher(path);
        if (keyed.matches()) {
            Map<String, String> values = "annotations".equals(keyed.group(1))
                    ? pod.getMetadata().getAnnotations()
                    : pod.getMetadata().getLabels();
            return values == null ? null : values.get(keyed.group(2));
        }
        return switch (path) {
            case "metadata.name" -> pod.getMetadata().getName();
            case "metadata.namespace" -> pod.getMetadata().getNamespace();
            default -> null;
        };
    }
}
